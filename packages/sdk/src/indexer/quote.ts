import type { Address } from 'viem'
import * as z from 'zod/mini'
import { SourceInactiveError, TaskNotOpenError } from '../errors/quote.js'
import type { ClaimRefusal, ClaimRefusalReason } from '../tasks/claimRefusals.js'
import type { TaskQuote } from '../tasks/quoteTask.js'
import { type TaskStatus, taskStatuses } from '../types/task.js'
import type { IndexerClient } from './createIndexerClient.js'
import { IndexerResponseError } from './errors.js'

const whole = /* @__PURE__ */ z.number().check(z.int(), z.gte(0))
const amount = /* @__PURE__ */ z.pipe(
  z.string().check(z.regex(/^(0|[1-9][0-9]*)$/)),
  z.transform((value) => BigInt(value)),
)
const address = /* @__PURE__ */ z.pipe(
  z.string().check(z.regex(/^0x[0-9a-fA-F]{40}$/)),
  z.transform((value) => value as Address),
)
const unix = /* @__PURE__ */ z.pipe(
  z.object({ unix: whole }),
  z.transform((time) => time.unix),
)

const refusal = /* @__PURE__ */ z.discriminatedUnion('reason', [
  z.object({ reason: z.literal('paused') }),
  z.object({ reason: z.literal('notSubscribed') }),
  z.object({ reason: z.literal('gpuCount'), required: whole, offered: whole }),
  z.object({ reason: z.literal('vram'), required: whole, offered: whole }),
  z.object({ reason: z.literal('computeCapability'), required: whole, offered: whole }),
  z.object({
    reason: z.literal('reputation'),
    minCompleted: whole,
    completed: whole,
    minSuccessBps: whole,
    successBps: whole,
  }),
  z.object({ reason: z.literal('collateral'), required: amount, available: amount }),
  z.object({ reason: z.literal('priceFloor'), floor: amount, price: amount }),
  z.object({ reason: z.literal('alreadyClaimed') }),
])

/** `GET /quote` and `GET /tasks/{id}/quote` (the indexer's `Quote`). */
const quote = /* @__PURE__ */ z.object({
  blockNumber: whole,
  taskId: z.nullable(z.string().check(z.regex(/^[1-9][0-9]*$/))),
  terms: z.object({
    sourceId: whole,
    maxPayment: amount,
    pricePerSecond: amount,
    replicas: whole,
    requirements: z.object({
      minGpus: whole,
      minVramMiB: whole,
      minComputeCapability: whole,
      maxRuntimeSec: whole,
      deterministic: z.boolean(),
    }),
    gates: z.object({ minSuccessBps: whole, minCompleted: whole }),
    auditBps: whole,
    collateral: amount,
    pricePerGpuSecond: amount,
  }),
  closed: z.nullable(
    z.object({
      reason: z.enum(['deadlinePassed', 'claimWindowTooShort']),
      deadline: unix,
      dueAt: z.nullable(unix),
    }),
  ),
  providers: whole,
  eligible: z.object({ count: whole, providers: z.array(address) }),
  ineligible: z.object({
    count: whole,
    byReason: z.record(z.string(), z.array(address)),
    providers: z.array(z.object({ provider: address, refusals: z.array(refusal) })),
  }),
  history: z.object({
    tasks: whole,
    pricePerGpuSecond: z.nullable(z.object({ min: amount, median: amount, max: amount })),
    timeToClaimSec: z.nullable(whole),
    reason: z.nullable(z.string()),
  }),
})

/** The body of the indexer's 409 answers to a quote. */
const conflict = /* @__PURE__ */ z.object({
  error: z.object({
    parameter: z.optional(z.string()),
    taskStatus: z.optional(
      z.enum(taskStatuses.slice(1) as readonly TaskStatus[] as [TaskStatus, ...TaskStatus[]]),
    ),
  }),
})

/** The terms of `GET /quote`, validated and in base units. */
export interface IndexedQuoteTerms {
  sourceId: number
  maxPayment: bigint
  pricePerSecond?: bigint | undefined
  replicas?: number | undefined
  requirements?:
    | {
        minGpus?: number | undefined
        minVramMiB?: number | undefined
        minComputeCapability?: number | undefined
        maxRuntimeSec?: number | undefined
      }
    | undefined
  minSuccessBps?: number | undefined
  minCompleted?: number | undefined
  auditBps?: number | undefined
}

/**
 * A quote as the indexer answers it, as of its last block: of new terms, or of
 * the open task `taskId`. Its 409 answers become the errors the chain path
 * throws (`TaskNotOpenError`, `SourceInactiveError`).
 */
export async function indexedQuote(
  indexer: IndexerClient,
  request: { taskId: bigint; historySize: number } | { terms: IndexedQuoteTerms; historySize: number },
): Promise<TaskQuote> {
  const history = request.historySize.toString()
  const text = (value: number | bigint | undefined) => value?.toString()
  let answer: z.output<typeof quote>
  try {
    answer = await indexer.get(
      'taskId' in request
        ? { path: `/tasks/${request.taskId}/quote`, query: { history }, schema: quote }
        : {
            path: '/quote',
            query: {
              source: text(request.terms.sourceId),
              maxPayment: text(request.terms.maxPayment),
              pricePerSecond: text(request.terms.pricePerSecond),
              replicas: text(request.terms.replicas),
              minGpus: text(request.terms.requirements?.minGpus),
              minVramMiB: text(request.terms.requirements?.minVramMiB),
              minComputeCapability: text(request.terms.requirements?.minComputeCapability),
              maxRuntimeSec: text(request.terms.requirements?.maxRuntimeSec),
              minSuccessBps: text(request.terms.minSuccessBps),
              minCompleted: text(request.terms.minCompleted),
              auditBps: text(request.terms.auditBps),
              history,
            },
            schema: quote,
          },
    )
  } catch (error) {
    if (error instanceof IndexerResponseError && error.status === 409) {
      const { parameter, taskStatus } = conflict.safeParse(error.body).data?.error ?? {}
      if ('taskId' in request && parameter === 'id' && taskStatus !== undefined)
        throw new TaskNotOpenError({ taskId: request.taskId, status: taskStatus })
      if ('terms' in request && parameter === 'source')
        throw new SourceInactiveError({ sourceId: request.terms.sourceId })
    }
    throw error
  }
  const { closed, history: recent } = answer
  return {
    blockNumber: BigInt(answer.blockNumber),
    taskId: answer.taskId === null ? undefined : BigInt(answer.taskId),
    terms: answer.terms,
    closed:
      closed === null
        ? undefined
        : closed.reason === 'deadlinePassed'
          ? { reason: 'deadlinePassed', deadline: closed.deadline }
          : {
              reason: 'claimWindowTooShort',
              deadline: closed.deadline,
              dueAt: closed.dueAt ?? closed.deadline,
            },
    providers: answer.providers,
    eligible: answer.eligible,
    ineligible: {
      count: answer.ineligible.count,
      byReason: answer.ineligible.byReason as Record<ClaimRefusalReason, Address[]>,
      providers: answer.ineligible.providers.map(({ provider, refusals }) => ({
        provider,
        refusals: refusals as ClaimRefusal[],
      })),
    },
    history: {
      tasks: recent.tasks,
      pricePerGpuSecond: recent.pricePerGpuSecond ?? undefined,
      timeToClaimSec: recent.timeToClaimSec ?? undefined,
      reason: recent.reason ?? undefined,
    },
  }
}
