import { type Capabilities, pricePerGpuSecond, type SourceMetadata, type Task } from '@gridforge/sdk'
import type { Policy } from './AgentOptions.js'

/** The policy with its defaults filled in. */
export interface ResolvedPolicy {
  sources: ReadonlySet<number> | undefined
  minPricePerGpuSecond: bigint
  concurrency: number
  allowEgress: boolean
  maxInputBytes: number
  audits: { enabled: boolean; minPayment: bigint }
}

export function resolvePolicy(policy: Policy = {}, gpuCount: number): ResolvedPolicy {
  const concurrency = policy.concurrency ?? Math.max(1, gpuCount)
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new RangeError(`policy.concurrency must be a whole number ≥ 1, got ${concurrency}`)
  return {
    sources: policy.sources === undefined ? undefined : new Set(policy.sources),
    minPricePerGpuSecond: policy.minPricePerGpuSecond ?? 0n,
    concurrency,
    allowEgress: policy.allowEgress ?? false,
    maxInputBytes: policy.maxInputBytes ?? 1024 ** 3,
    audits: resolveAuditPolicy(policy.audits),
  }
}

function resolveAuditPolicy(audits: Policy['audits']): ResolvedPolicy['audits'] {
  const minPayment = audits?.minPayment ?? 0n
  if (typeof minPayment !== 'bigint' || minPayment < 0n)
    throw new RangeError(`policy.audits.minPayment must be a bigint ≥ 0, got ${String(minPayment)}`)
  const enabled = audits?.enabled ?? true
  if (typeof enabled !== 'boolean')
    throw new RangeError(`policy.audits.enabled must be true or false, got ${String(enabled)}`)
  return { enabled, minPayment }
}

/**
 * Why this agent would not take `task` (on what the chain says alone), or
 * `undefined` when it would. The contract enforces capabilities too; checking
 * here saves a reverted claim.
 */
export function taskRefusal(
  task: Task,
  capabilities: Capabilities,
  policy: ResolvedPolicy,
): string | undefined {
  const { requirements } = task
  if (policy.sources !== undefined && !policy.sources.has(task.sourceId))
    return `source ${task.sourceId} is not in the policy's sources`
  if (requirements.minGpus > capabilities.gpuCount)
    return `needs ${requirements.minGpus} GPUs, this host offers ${capabilities.gpuCount}`
  if (requirements.minGpus > 0 && requirements.minVramMiB > capabilities.vramMiB)
    return `needs ${requirements.minVramMiB} MiB per GPU, this host's smallest has ${capabilities.vramMiB}`
  if (requirements.minGpus > 0 && requirements.minComputeCapability > capabilities.computeCapability)
    return `needs compute capability ${requirements.minComputeCapability}, this host has ${capabilities.computeCapability}`
  if (task.replicas > 1 && !requirements.deterministic) return 'replicas > 1 on a non-deterministic source'
  const price = pricePerGpuSecond(task)
  if (price < policy.minPricePerGpuSecond)
    return `pays ${price} per GPU-second, below the policy's ${policy.minPricePerGpuSecond}`
  return undefined
}

/**
 * Why this agent would not join the audit of `task` (on what the chain says
 * alone), or `undefined` when it would: audits must be enabled, and the task
 * one it would take itself ({@link taskRefusal}) that pays at least the
 * policy's `audits.minPayment`. The market checks the auditor's eligibility
 * (subscription, capabilities, reputation gates) again when it joins.
 */
export function auditRefusal(
  task: Task,
  capabilities: Capabilities,
  policy: ResolvedPolicy,
): string | undefined {
  if (!policy.audits.enabled) return 'audits are disabled by the policy'
  if (task.maxPayment < policy.audits.minPayment)
    return `pays at most ${task.maxPayment}, below the policy's audits.minPayment ${policy.audits.minPayment}`
  return taskRefusal(task, capabilities, policy)
}

/** Why this agent would not run a source with this metadata, or `undefined`. */
export function metadataRefusal(
  metadata: SourceMetadata,
  capabilities: Capabilities,
  policy: ResolvedPolicy,
): string | undefined {
  if (metadata.network === 'egress' && !policy.allowEgress)
    return 'the source asks for outbound network and the policy does not allow it'
  if (metadata.resources.memoryMiB > capabilities.memoryMiB)
    return `the source needs ${metadata.resources.memoryMiB} MiB of memory, this host has ${capabilities.memoryMiB}`
  if (metadata.resources.cpus > capabilities.cpuCores)
    return `the source needs ${metadata.resources.cpus} CPUs, this host has ${capabilities.cpuCores}`
  const missing = Object.entries(metadata.env)
    .filter(([, spec]) => spec.required && spec.default === undefined)
    .map(([name]) => name)
  if (missing.length > 0)
    return `the source requires ${missing.join(', ')} without a default, and tasks cannot set variables`
  return undefined
}
