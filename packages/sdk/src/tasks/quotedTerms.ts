/**
 * The terms a quote checks providers against: an open task's as the market
 * holds them, or new ones resolved as a submission would store them.
 */
import type { Account, Address, Chain, Client, Transport } from 'viem'
import { getBlock } from 'viem/actions'
import { getAction } from 'viem/utils'
import { getSourceTerms, SourceRegistryUnknownSource } from '../abis/sourceRegistry.js'
import { collateralFor, params as marketParams } from '../abis/taskMarket.js'
import { sourceRegistryHints } from '../errors/hints/registries.js'
import { SourceInactiveError, TaskNotOpenError } from '../errors/quote.js'
import { InvalidParametersError } from '../errors/validation.js'
import type { FieldsOutput } from '../internal/validate.js'
import { read } from '../internal/write.js'
import type { Deployment } from '../types/deployment.js'
import type { Requirements } from '../types/requirements.js'
import type { TaskGates } from '../types/task.js'
import { getTask } from './getTask.js'
import { pricePerGpuSecond } from './pricePerGpuSecond.js'
import { taskFields } from './submitTask.js'

/** The terms as the market would hold them: merged with the source's, with the collateral they lock. */
export interface QuotedTerms {
  sourceId: number
  /** Most paid to each replica, in base units. */
  maxPayment: bigint
  /** 0n for a fixed price. */
  pricePerSecond: bigint
  replicas: number
  /** The task's requirements merged with the source's (as `submitTask` stores them). */
  requirements: Requirements
  gates: TaskGates
  /** Audit probability in basis points (0: not auditable). */
  auditBps: number
  /** Collateral each claimant locks from its available stake, in base units. */
  collateral: bigint
  /** What the task pays per GPU-second at worst ({@link pricePerGpuSecond}), in base units. */
  pricePerGpuSecond: bigint
}

/**
 * Why nobody can claim an open task: its deadline (Unix seconds) passed, or a
 * claim now would be due (`dueAt`: now + runtime limit + claim grace) after it.
 * Either way it can only expire: submit it again with a later deadline.
 */
export type ClaimWindowClosure =
  | { reason: 'deadlinePassed'; deadline: number }
  | { reason: 'claimWindowTooShort'; deadline: number; dueAt: number }

/** The task terms of `submitTask` that a quote reads (amounts parse to base units). */
export const quoteTermFields = (decimals: number) => {
  const {
    sourceId,
    maxPayment,
    pricePerSecond,
    replicas,
    requirements,
    minSuccessBps,
    minCompleted,
    auditBps,
  } = taskFields(decimals)
  return {
    sourceId,
    maxPayment,
    pricePerSecond,
    replicas,
    requirements,
    minSuccessBps,
    minCompleted,
    auditBps,
  }
}

type ValidTerms = FieldsOutput<ReturnType<typeof quoteTermFields>>

/** What a quote checks the providers against: the terms, and of an open task who is on it and its deadline. */
export interface QuotedTask {
  terms: QuotedTerms
  taskId: bigint | undefined
  /** Providers holding a slot of the open task (none may claim twice). */
  claimants: Address[]
  closed: ClaimWindowClosure | undefined
}

/**
 * An open task's terms as the market holds them, who holds its slots, and
 * whether its deadline still lets a claim be due before it, as `claimTask`
 * checks (with the current `claimGrace`: the task's, fixed at submission, is
 * the same unless the owner changed it since).
 */
export async function readTaskTerms(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  deployment: Deployment,
  taskId: bigint,
  blockNumber: bigint,
): Promise<QuotedTask> {
  const [task, protocol, block] = await Promise.all([
    getTask(client, { deployment, taskId, blockNumber }),
    readMarketParams(client, deployment, blockNumber),
    getAction(client, getBlock, 'getBlock')({ blockNumber }),
  ])
  if (task.status !== 'Open') throw new TaskNotOpenError({ taskId, status: task.status })
  const now = Number(block.timestamp)
  const deadline = Math.floor(task.deadline.getTime() / 1000)
  const dueAt = now + task.requirements.maxRuntimeSec + protocol.claimGrace
  return {
    taskId,
    closed:
      now > deadline
        ? { reason: 'deadlinePassed', deadline }
        : dueAt > deadline
          ? { reason: 'claimWindowTooShort', deadline, dueAt }
          : undefined,
    claimants: task.slots.flatMap((slot) => (slot.provider === undefined ? [] : [slot.provider])),
    terms: {
      sourceId: task.sourceId,
      maxPayment: task.maxPayment,
      pricePerSecond: task.pricePerSecond,
      replicas: task.replicas,
      requirements: task.requirements,
      gates: task.gates,
      auditBps: task.auditBps,
      collateral: task.collateral,
      pricePerGpuSecond: pricePerGpuSecond(task),
    },
  }
}

/**
 * New terms as `TaskMarket._submit` would store them: requirements merged with
 * the source's (minimums the larger, `maxRuntimeSec` the tighter), the audit
 * probability of an auditable task (one replica of a deterministic or
 * validated source: the market's default unless more is asked), and the
 * collateral for both from the market's `collateralFor`.
 */
export async function resolveSubmissionTerms(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  deployment: Deployment,
  params: ValidTerms,
  blockNumber: bigint,
): Promise<QuotedTask> {
  const action = 'quoteTask'
  const { market, sources } = deployment.contracts
  const [source, protocol] = await Promise.all([
    read<{ active: boolean; validator: number; requirements: Requirements }>(client, {
      action,
      hints: sourceRegistryHints,
      address: sources,
      abi: [getSourceTerms, SourceRegistryUnknownSource],
      functionName: 'getSourceTerms',
      args: [params.sourceId],
      blockNumber,
    }),
    readMarketParams(client, deployment, blockNumber),
  ])
  if (!source.active) throw new SourceInactiveError({ sourceId: params.sourceId })
  const replicas = params.replicas ?? 1
  const { deterministic } = source.requirements
  if (replicas > 1 && !deterministic)
    throw new InvalidParametersError({
      action,
      fields: [
        { path: 'replicas', message: `source ${params.sourceId} is not deterministic: pass 1 replica` },
      ],
    })
  const asked = params.requirements
  const askedRuntime = asked?.maxRuntimeSec ?? 0
  const requirements: Requirements = {
    minGpus: Math.max(asked?.minGpus ?? 0, source.requirements.minGpus),
    minVramMiB: Math.max(asked?.minVramMiB ?? 0, source.requirements.minVramMiB),
    minComputeCapability: Math.max(
      asked?.minComputeCapability ?? 0,
      source.requirements.minComputeCapability,
    ),
    maxRuntimeSec:
      askedRuntime !== 0 && askedRuntime < source.requirements.maxRuntimeSec
        ? askedRuntime
        : source.requirements.maxRuntimeSec,
    deterministic,
  }
  const auditable = replicas === 1 && (deterministic || source.validator !== 0)
  const auditBps = auditable ? params.auditBps || protocol.auditBps : 0
  if (auditable && auditBps < protocol.auditBps)
    throw new InvalidParametersError({
      action,
      fields: [{ path: 'auditBps', message: `must be 0 (the default) or at least ${protocol.auditBps}` }],
    })
  const pricePerSecond = params.pricePerSecond ?? 0n
  const collateral = await read<bigint>(client, {
    action,
    hints: {},
    address: market,
    abi: [collateralFor],
    functionName: 'collateralFor',
    args: [params.maxPayment, auditBps],
    blockNumber,
  })
  const terms: QuotedTerms = {
    sourceId: params.sourceId,
    maxPayment: params.maxPayment,
    pricePerSecond,
    replicas,
    requirements,
    gates: { minSuccessBps: params.minSuccessBps ?? 0, minCompleted: params.minCompleted ?? 0 },
    auditBps,
    collateral,
    pricePerGpuSecond: pricePerGpuSecond({ maxPayment: params.maxPayment, pricePerSecond, requirements }),
  }
  // A new task's deadline is the client's to choose: nothing closes it yet.
  return { terms, taskId: undefined, claimants: [], closed: undefined }
}

/** The market's current parameters that a quote needs. */
function readMarketParams(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  deployment: Deployment,
  blockNumber: bigint,
) {
  return read<{ auditBps: number; claimGrace: number }>(client, {
    action: 'quoteTask',
    hints: {},
    address: deployment.contracts.market,
    abi: [marketParams],
    functionName: 'params',
    blockNumber,
  })
}
