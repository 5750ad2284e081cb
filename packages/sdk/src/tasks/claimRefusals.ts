import { type Address, isAddressEqual } from 'viem'
import type { Requirements } from '../types/requirements.js'
import type { TaskGates } from '../types/task.js'

/**
 * Why a provider could not take a task now, one dimension each. The market
 * enforces all but `priceFloor` at the claim (`paused`, `notSubscribed`,
 * the three capabilities and `reputation` in ProviderRegistry, `collateral`
 * in Staking); `priceFloor` is the provider's own word, which its agent keeps.
 * Plain data (no Dates, no class instances): the same JSON, bigints as
 * decimal strings, can come from an indexer.
 */
export type ClaimRefusal =
  | { reason: 'notSubscribed' }
  | { reason: 'paused' }
  | { reason: 'gpuCount'; required: number; offered: number }
  | { reason: 'vram'; required: number; offered: number }
  | { reason: 'computeCapability'; required: number; offered: number }
  | {
      reason: 'reputation'
      minCompleted: number
      completed: number
      minSuccessBps: number
      successBps: number
    }
  /** The provider's available stake (staked − locked) is below the collateral a claim locks. */
  | { reason: 'collateral'; required: bigint; available: bigint }
  /** The task pays `price` per GPU-second, below the `floor` the provider published. */
  | { reason: 'priceFloor'; floor: bigint; price: bigint }
  /** An open task with replicas: the provider already holds one of its slots (nobody claims twice). */
  | { reason: 'alreadyClaimed' }

export type ClaimRefusalReason = ClaimRefusal['reason']

/** Every refusal reason, in the order the market checks them (the price floor last: no claim checks it). */
export const claimRefusalReasons = [
  'paused',
  'notSubscribed',
  'gpuCount',
  'vram',
  'computeCapability',
  'reputation',
  'collateral',
  'priceFloor',
  'alreadyClaimed',
] as const satisfies readonly ClaimRefusalReason[]

/** What the registry and Staking say about one provider, as `quoteTask` reads it. */
export interface ClaimantState {
  provider: Address
  paused: boolean
  subscribed: boolean
  gpuCount: number
  vramMiB: number
  computeCapability: number
  completed: number
  successBps: number
  /** Least price per GPU-second it published (0n: any). */
  priceFloor: bigint
  /** Staked − locked: what a claim can lock. */
  availableStake: bigint
}

/** The terms a claim is checked against: the task's requirements merged with the source's. */
export interface ClaimTerms {
  requirements: Pick<Requirements, 'minGpus' | 'minVramMiB' | 'minComputeCapability'>
  gates: TaskGates
  /** Collateral a claimant locks. */
  collateral: bigint
  /** {@link pricePerGpuSecond} of the task. */
  pricePerGpuSecond: bigint
  /** Of an open task: the providers holding its slots. */
  claimants?: readonly Address[] | undefined
}

/**
 * Every dimension on which `provider` could not take a task with `terms`
 * (empty: it could), mirroring `ProviderRegistry.recordClaim` and
 * `Staking.lock`, plus the provider's published price floor.
 */
export function claimRefusals(provider: ClaimantState, terms: ClaimTerms): ClaimRefusal[] {
  const { requirements, gates } = terms
  const refusals: ClaimRefusal[] = []
  if (provider.paused) refusals.push({ reason: 'paused' })
  if (!provider.subscribed) refusals.push({ reason: 'notSubscribed' })
  if (provider.gpuCount < requirements.minGpus)
    refusals.push({ reason: 'gpuCount', required: requirements.minGpus, offered: provider.gpuCount })
  // The registry compares VRAM and compute capability even for tasks without GPUs: so does the quote.
  if (provider.vramMiB < requirements.minVramMiB)
    refusals.push({ reason: 'vram', required: requirements.minVramMiB, offered: provider.vramMiB })
  if (provider.computeCapability < requirements.minComputeCapability)
    refusals.push({
      reason: 'computeCapability',
      required: requirements.minComputeCapability,
      offered: provider.computeCapability,
    })
  if (provider.completed < gates.minCompleted || provider.successBps < gates.minSuccessBps)
    refusals.push({
      reason: 'reputation',
      minCompleted: gates.minCompleted,
      completed: provider.completed,
      minSuccessBps: gates.minSuccessBps,
      successBps: provider.successBps,
    })
  if (provider.availableStake < terms.collateral)
    refusals.push({ reason: 'collateral', required: terms.collateral, available: provider.availableStake })
  if (provider.priceFloor > terms.pricePerGpuSecond)
    refusals.push({ reason: 'priceFloor', floor: provider.priceFloor, price: terms.pricePerGpuSecond })
  if (terms.claimants?.some((claimant) => isAddressEqual(claimant, provider.provider)))
    refusals.push({ reason: 'alreadyClaimed' })
  return refusals
}
