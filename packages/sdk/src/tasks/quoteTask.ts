import type { Account, Address, Chain, Client, Transport } from 'viem'
import { getBlockNumber } from 'viem/actions'
import { getAction } from 'viem/utils'
import * as z from 'zod/mini'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import type { SourceInactiveErrorType, TaskNotOpenErrorType } from '../errors/quote.js'
import type { TaskNotFoundErrorType } from '../errors/task.js'
import { InvalidParametersError, type InvalidParametersErrorType } from '../errors/validation.js'
import { indexedQuote } from '../indexer/quote.js'
import { type IndexerParameter, withIndexer } from '../indexer/withIndexer.js'
import { readProviderStates } from '../internal/providerStates.js'
import * as s from '../internal/schemas.js'
import { validate, validateFields } from '../internal/validate.js'
import type { DeploymentParameter } from '../types/deployment.js'
import { gridToken } from '../utils/amount.js'
import { type ClaimHistory, readClaimHistory } from './claimHistory.js'
import {
  type ClaimRefusal,
  type ClaimRefusalReason,
  claimRefusalReasons,
  claimRefusals,
} from './claimRefusals.js'
import {
  type ClaimWindowClosure,
  type QuotedTerms,
  quoteTermFields,
  readTaskTerms,
  resolveSubmissionTerms,
} from './quotedTerms.js'
import type { SubmitTaskParameters } from './submitTask.js'

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
  IndexerParameter &
  (
    | (QuoteTaskTerms & { taskId?: undefined })
    | {
        /** An open task: why is nobody taking it? Its terms are read from the market. */
        taskId: number | bigint
        sourceId?: undefined
      }
  )

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
 * With an `indexer` (and no `blockNumber` nor `fromBlock`), one request
 * (`GET /quote` or `GET /tasks/{id}/quote`) answers instead, as of the last
 * block the indexer indexed; the chain is read when it cannot answer. Terms
 * it refuses throw `IndexerParameterError`, naming the parameter. One
 * difference: the indexer counts an audited result towards a provider's
 * reputation once it is released, the registry as soon as it comes in.
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
  const asked =
    parameters.taskId === undefined
      ? {
          terms: validateFields(
            action,
            quoteTermFields((deployment.token ?? gridToken).decimals),
            parameters,
          ),
        }
      : { taskId: validate(action, taskIdSchema, parameters).taskId }
  const historySize = options.historySize ?? 20
  // The indexer answers as of the last block it indexed, over the whole history: a block or a range is the chain's.
  return withIndexer(
    action,
    parameters.indexer,
    options.blockNumber === undefined && options.fromBlock === undefined,
    (indexer) => indexedQuote(indexer, { ...asked, historySize }),
    async () => {
      const blockNumber =
        options.blockNumber ?? (await getAction(client, getBlockNumber, 'getBlockNumber')({ cacheTime: 0 }))
      const fromBlock = options.fromBlock ?? BigInt(deployment.blockNumber)
      return quoteFromChain(client, {
        deployment,
        asked,
        blockNumber,
        fromBlock,
        blockRange: options.blockRange,
        historySize,
      })
    },
  )
}

/** The quote from the chain's state and event logs, as of `blockNumber`. */
async function quoteFromChain(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  {
    deployment,
    asked,
    blockNumber,
    fromBlock,
    blockRange,
    historySize,
  }: {
    deployment: QuoteTaskParameters['deployment']
    asked: { terms: Parameters<typeof resolveSubmissionTerms>[2] } | { taskId: bigint }
    blockNumber: bigint
    fromBlock: bigint
    blockRange: bigint | undefined
    historySize: number
  },
): Promise<TaskQuote> {
  const { terms, taskId, claimants, closed } =
    'terms' in asked
      ? await resolveSubmissionTerms(client, deployment, asked.terms, blockNumber)
      : await readTaskTerms(client, deployment, asked.taskId, blockNumber)

  const logs = { deployment, sourceId: terms.sourceId, blockNumber, fromBlock, blockRange }
  const [states, history] = await Promise.all([
    readProviderStates(client, logs),
    readClaimHistory(client, { ...logs, historySize }),
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
