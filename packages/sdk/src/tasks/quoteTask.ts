import type { Account, Address, Chain, Client, Transport } from 'viem'
import { getBlock, getBlockNumber } from 'viem/actions'
import { getAction } from 'viem/utils'
import * as z from 'zod/mini'
import { getSourceTerms, SourceRegistryUnknownSource } from '../abis/sourceRegistry.js'
import { collateralFor, params as marketParams } from '../abis/taskMarket.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import { sourceRegistryHints } from '../errors/hints/registries.js'
import {
  SourceInactiveError,
  type SourceInactiveErrorType,
  TaskNotOpenError,
  type TaskNotOpenErrorType,
} from '../errors/quote.js'
import type { TaskNotFoundErrorType } from '../errors/task.js'
import { InvalidParametersError, type InvalidParametersErrorType } from '../errors/validation.js'
import { readProviderStates } from '../internal/providerStates.js'
import * as s from '../internal/schemas.js'
import { type FieldsOutput, validate, validateFields } from '../internal/validate.js'
import { read } from '../internal/write.js'
import type { Deployment, DeploymentParameter } from '../types/deployment.js'
import type { Requirements } from '../types/requirements.js'
import type { TaskGates } from '../types/task.js'
import { gridToken } from '../utils/amount.js'
import {
  type ClaimRefusal,
  type ClaimRefusalReason,
  claimRefusalReasons,
  claimRefusals,
} from './claimRefusals.js'
import { getTask } from './getTask.js'
import { pricePerGpuSecond } from './pricePerGpuSecond.js'
import { type ClaimHistory, readClaimHistory } from './recentClaims.js'
import { type SubmitTaskParameters, taskFields } from './submitTask.js'

/** The terms of a task to quote: those of `submitTask` that decide who may take it. */
export type QuoteTaskTerms = Pick<
  SubmitTaskParameters,
  | 'sourceId'
  | 'maxPayment'
  | 'pricePerSecond'
  | 'replicas'
  | 'requirements'
  | 'minSuccessBps'
  | 'minCompleted'
  | 'auditBps'
>

/** How much history a quote reads, and as of which block. */
export interface QuoteTaskReadOptions {
  /** Claimed tasks of the source the price range and time to claim are measured on (default 20). */
  historySize?: number | undefined
  /** Quote as of this block (default: the latest). */
  blockNumber?: bigint | undefined
  /**
   * First block of the events read (default: the deployment's block): the
   * providers registered before it are not looked at, nor older history.
   */
  fromBlock?: bigint | undefined
  /** Most blocks per `eth_getLogs` request (default: the whole range; refused pages are split). */
  blockRange?: bigint | undefined
}

export type QuoteTaskParameters = DeploymentParameter &
  QuoteTaskReadOptions &
  (
    | (QuoteTaskTerms & { taskId?: undefined })
    | {
        /** An open task: why is nobody taking it? Its terms are read from the market. */
        taskId: number | bigint
        sourceId?: undefined
      }
  )

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

/** A provider that could not take the task now, and every reason why. */
export interface IneligibleProvider {
  provider: Address
  refusals: ClaimRefusal[]
}

/**
 * Who could take a task now, who could not and why, and what the source's
 * recent tasks paid and waited. Plain data: `JSON.stringify` with bigints as
 * decimal strings gives the document an indexer endpoint can serve as is.
 */
export interface TaskQuote {
  /** The block the quote was read at. */
  blockNumber: bigint
  /** The quoted open task, when one was asked about. */
  taskId: bigint | undefined
  terms: QuotedTerms
  /**
   * Of an open task: why no provider can claim it now, whatever it offers
   * (its deadline passed, or is too close for a claim to be due before it);
   * `eligible` then counts who could take it with a later deadline.
   * `undefined` when the deadline is no obstacle, and for new terms.
   */
  closed: ClaimWindowClosure | undefined
  /** Registered providers looked at. */
  providers: number
  /** Providers that could claim it now (a task with replicas needs `terms.replicas` of them). */
  eligible: { count: number; providers: Address[] }
  ineligible: {
    count: number
    /** For each reason, the providers it holds back (a provider may appear under several). */
    byReason: Record<ClaimRefusalReason, Address[]>
    providers: IneligibleProvider[]
  }
  /** What the source's recent claimed tasks paid per GPU-second and how long they waited for a claim. */
  history: ClaimHistory
}

export type QuoteTaskReturnType = TaskQuote

export type QuoteTaskErrorType =
  | InvalidParametersErrorType
  | ContractRevertedErrorType
  | TaskNotFoundErrorType
  | TaskNotOpenErrorType
  | SourceInactiveErrorType
  | Error

/** The task terms of `submitTask` that a quote reads (amounts parse to base units). */
const termFields = (decimals: number) => {
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

type ValidTerms = FieldsOutput<ReturnType<typeof termFields>>

const readOptionsSchema = /* @__PURE__ */ z.object({
  historySize: z.optional(s.uint(16, 1_000, 1)),
  blockNumber: z.optional(z.bigint()),
  fromBlock: z.optional(z.bigint()),
  blockRange: z.optional(z.bigint().check(z.gte(1n, 'must be at least 1n'))),
})

const taskIdSchema = /* @__PURE__ */ z.object({ taskId: s.taskId })

/**
 * Quotes a task before any money moves: how many registered providers could
 * claim it now at its price, and for each that could not, every dimension
 * that holds it back (`notSubscribed`, `paused`, `gpuCount`, `vram`,
 * `computeCapability`, `reputation` gates, `collateral`: available stake below
 * what a claim locks, and `priceFloor`: the floor the provider published with
 * `setPriceFloor` above what the task pays per GPU-second, and of an open task
 * `alreadyClaimed`: the provider holds one of its slots); plus the range of
 * what the source's recent claimed tasks paid per GPU-second and their median
 * time from submission to claim (`undefined`, with a reason, without history).
 *
 * Pass the terms `submitTask` takes (the input and deadline do not matter), or
 * the `taskId` of an open task to ask why nobody takes it. The requirements are
 * merged with the source's and the collateral read from the market, as a
 * submission would. Reads, over RPC and as of one block: the ProviderRegistered
 * events, then each provider's profile, subscription, floor and available stake
 * (two `eth_call`s per 300 providers), and the source's recent TaskSubmitted
 * and TaskClaimed events.
 *
 * @example
 * import { quoteTask } from '@gridforge/sdk'
 *
 * const quote = await quoteTask(client, { deployment, sourceId: 1, maxPayment: '5' })
 * console.log(`${quote.eligible.count} providers could take it now`)
 * for (const provider of quote.ineligible.byReason.priceFloor) console.log(provider, 'wants more')
 *
 * // Why is nobody taking task 42?
 * const why = await quoteTask(client, { deployment, taskId: 42n })
 */
export async function quoteTask(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: QuoteTaskParameters,
): Promise<QuoteTaskReturnType> {
  const { deployment } = parameters
  const action = 'quoteTask'
  const options = validate(action, readOptionsSchema, parameters)
  if (parameters.taskId !== undefined && (parameters as { sourceId?: unknown }).sourceId !== undefined)
    throw new InvalidParametersError({
      action,
      fields: [
        { path: 'taskId', message: "pass a taskId or the terms, not both: an open task's terms are read" },
      ],
    })
  const blockNumber =
    options.blockNumber ?? (await getAction(client, getBlockNumber, 'getBlockNumber')({ cacheTime: 0 }))
  const fromBlock = options.fromBlock ?? BigInt(deployment.blockNumber)
  const { terms, taskId, claimants, closed } =
    parameters.taskId === undefined
      ? await termsOfSubmission(
          client,
          deployment,
          validateFields(action, termFields((deployment.token ?? gridToken).decimals), parameters),
          blockNumber,
        )
      : await termsOfTask(client, deployment, validate(action, taskIdSchema, parameters).taskId, blockNumber)

  const logs = {
    deployment,
    sourceId: terms.sourceId,
    blockNumber,
    fromBlock,
    blockRange: options.blockRange,
  }
  const [states, history] = await Promise.all([
    readProviderStates(client, logs),
    readClaimHistory(client, { ...logs, historySize: options.historySize ?? 20 }),
  ])

  const eligible: Address[] = []
  const ineligible: IneligibleProvider[] = []
  const byReason = Object.fromEntries(
    claimRefusalReasons.map((reason) => [reason, [] as Address[]]),
  ) as Record<ClaimRefusalReason, Address[]>
  for (const state of states) {
    const refusals = claimRefusals(state, { ...terms, claimants })
    if (refusals.length === 0) eligible.push(state.provider)
    else ineligible.push({ provider: state.provider, refusals })
    for (const refusal of refusals) byReason[refusal.reason].push(state.provider)
  }
  return {
    blockNumber,
    taskId,
    terms,
    closed,
    providers: states.length,
    eligible: { count: eligible.length, providers: eligible },
    ineligible: { count: ineligible.length, byReason, providers: ineligible },
    history,
  }
}

/** What a quote checks the providers against: the terms, and of an open task who is on it and its deadline. */
interface QuotedTask {
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
async function termsOfTask(
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
async function termsOfSubmission(
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
