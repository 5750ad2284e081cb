/**
 * GET /quote and GET /tasks/{id}/quote: who could take a task now, who could
 * not and why, and what the source's recent tasks paid and waited — the SDK's
 * `quoteTask`, answered from the tables instead of event logs. The terms are
 * resolved as `TaskMarket._submit` stores them, each provider is checked with
 * the SDK's `claimRefusals`, and everything is as of the last block indexed.
 */
import { db } from 'ponder:api'
import * as schema from 'ponder:schema'
import {
  type ClaimantState,
  type ClaimRefusalReason,
  type ClaimTerms,
  candidatesPerTask,
  claimRefusalReasons,
  claimRefusals,
  pricePerGpuSecond,
  type Requirements,
  summarizeClaims,
} from '@gridforge/sdk'
import { and, desc, eq, notInArray, sql } from 'ponder'
import type { Address } from 'viem'
import { ConflictError, NotFoundError, NotIndexedError, ParameterError } from './errors.js'
import { address, amount, reputationJson, time } from './json.js'
import {
  amountQuery,
  type ParameterValues,
  requiredAmountQuery,
  requiredSourceIdQuery,
  taskIdPath,
  wholeQuery,
} from './parameters.js'

const BPS = 10_000
/** TaskMarket.MAX_REPLICAS. */
const maxReplicas = 7
const maxUint32 = 2 ** 32 - 1

const history = wholeQuery(
  'Claimed tasks of the source the price range and time to claim are measured on, among its last 4 × history submitted (the SDK’s `historySize`).',
  1,
  1_000,
  20,
)

export const quoteParameters = {
  source: requiredSourceIdQuery('The source the task would run.'),
  maxPayment: requiredAmountQuery('Most paid to each replica, in base units.', 1n),
  pricePerSecond: amountQuery(
    'Price per second of a metered task, in base units (absent or 0: fixed price).',
    0n,
  ),
  replicas: wholeQuery('Replicas (2 or more: a deterministic source’s consensus).', 1, maxReplicas, 1),
  minGpus: wholeQuery('GPUs the host must have (the source’s minimum when higher).', 0, 255, 0),
  minVramMiB: wholeQuery('VRAM per GPU in MiB (the source’s minimum when higher).', 0, maxUint32, 0),
  minComputeCapability: wholeQuery(
    'CUDA compute capability × 10 (the source’s minimum when higher).',
    0,
    255,
    0,
  ),
  maxRuntimeSec: wholeQuery(
    'Runtime limit in seconds (0: the source’s; the tighter of the two).',
    0,
    maxUint32,
    0,
  ),
  minSuccessBps: wholeQuery('Reputation gate: least success rate, in basis points.', 0, BPS, 0),
  minCompleted: wholeQuery('Reputation gate: least completions that vouch.', 0, maxUint32, 0),
  auditBps: wholeQuery(
    'Audit probability in basis points of an auditable task (0: the market’s default).',
    0,
    BPS,
    0,
  ),
  history,
}

export const taskQuoteParameters = { id: taskIdPath('The open task.'), history }

type MarketRow = typeof schema.market.$inferSelect

/** The terms a quote checks, as the market holds (or would hold) them. */
interface Terms {
  sourceId: number
  maxPayment: bigint
  pricePerSecond: bigint
  replicas: number
  requirements: Requirements
  gates: { minSuccessBps: number; minCompleted: number }
  auditBps: number
  collateral: bigint
}

/** New terms: who could take a task like this now. */
export async function quote(parameters: ParameterValues<typeof quoteParameters>) {
  const [[source], market, indexed] = await Promise.all([
    db.select().from(schema.source).where(eq(schema.source.id, parameters.source)),
    readMarket(),
    indexedBlock(),
  ])
  if (source === undefined)
    throw new NotFoundError('source', `no source ${parameters.source} (not published, or not indexed yet)`)
  if (!source.active)
    throw new ConflictError(
      'source',
      `source ${source.id} is inactive: it takes no new tasks. Use a newer version of it (a source naming it as predecessor).`,
    )
  const { replicas } = parameters
  if (replicas > 1 && !source.deterministic)
    throw new ParameterError('replicas', `source ${source.id} is not deterministic: give 1 replica`)
  const asked = parameters.maxRuntimeSec
  const requirements: Requirements = {
    minGpus: Math.max(parameters.minGpus, source.minGpus),
    minVramMiB: Math.max(parameters.minVramMiB, source.minVramMiB),
    minComputeCapability: Math.max(parameters.minComputeCapability, source.minComputeCapability),
    maxRuntimeSec: asked !== 0 && asked < source.maxRuntimeSec ? asked : source.maxRuntimeSec,
    deterministic: source.deterministic,
  }
  // One replica of a deterministic or validated source is auditable: the market's default unless more is asked.
  const auditable = replicas === 1 && (source.deterministic || source.validator !== 0)
  const auditBps = auditable ? parameters.auditBps || market.auditBps : 0
  if (auditable && auditBps < market.auditBps)
    throw new ParameterError('auditBps', `must be 0 (the default) or at least ${market.auditBps}`)
  const terms: Terms = {
    sourceId: source.id,
    maxPayment: parameters.maxPayment,
    pricePerSecond: parameters.pricePerSecond ?? 0n,
    replicas,
    requirements,
    gates: { minSuccessBps: parameters.minSuccessBps, minCompleted: parameters.minCompleted },
    auditBps,
    collateral: collateralOf(parameters.maxPayment, auditBps, market),
  }
  // A new task's deadline is the client's to choose: nothing closes it yet.
  return answer({
    terms,
    taskId: null,
    claimants: [],
    closed: null,
    indexed,
    historySize: parameters.history,
  })
}

/** An open task: why is nobody taking it? */
export async function taskQuote({ id, history }: ParameterValues<typeof taskQuoteParameters>) {
  const [[task], market, indexed] = await Promise.all([
    db.select().from(schema.task).where(eq(schema.task.id, id)),
    readMarket(),
    indexedBlock(),
  ])
  if (task === undefined) throw new NotFoundError('id', `no task ${id} (not submitted, or not indexed yet)`)
  if (task.status !== 'Open')
    throw new ConflictError(
      'id',
      `task ${id} is ${task.status}, not Open: no provider can claim it now`,
      task.status,
    )
  const claimants = await db
    .select({ provider: schema.claim.provider })
    .from(schema.claim)
    .where(
      and(
        eq(schema.claim.taskId, id),
        eq(schema.claim.role, 'replica'),
        notInArray(schema.claim.status, ['Reopened', 'Replaced']),
      ),
    )
  // As `claimTask` checks it, with the current claimGrace (the task's is the same unless the owner changed it).
  const now = indexed.timestamp
  const dueAt = now + task.maxRuntimeSec + market.claimGrace
  const closed =
    now > task.deadline
      ? { reason: 'deadlinePassed', deadline: time(task.deadline), dueAt: null }
      : dueAt > task.deadline
        ? { reason: 'claimWindowTooShort', deadline: time(task.deadline), dueAt: time(dueAt) }
        : null
  const terms: Terms = {
    sourceId: task.sourceId,
    maxPayment: task.maxPayment,
    pricePerSecond: task.pricePerSecond,
    replicas: task.replicas,
    requirements: {
      minGpus: task.minGpus,
      minVramMiB: task.minVramMiB,
      minComputeCapability: task.minComputeCapability,
      maxRuntimeSec: task.maxRuntimeSec,
      deterministic: task.deterministic,
    },
    gates: { minSuccessBps: task.minSuccessBps, minCompleted: task.minCompleted },
    auditBps: task.auditBps,
    collateral: task.collateral,
  }
  return answer({
    terms,
    taskId: id,
    claimants: claimants.map(({ provider }) => provider),
    closed,
    indexed,
    historySize: history,
  })
}

async function answer({
  terms,
  taskId,
  claimants,
  closed,
  indexed,
  historySize,
}: {
  terms: Terms
  taskId: bigint | null
  claimants: Address[]
  closed: unknown
  indexed: { number: number; timestamp: number }
  historySize: number
}) {
  const price = pricePerGpuSecond(terms)
  const [states, recent] = await Promise.all([
    providerStates(terms.sourceId),
    claimHistory(terms.sourceId, historySize),
  ])
  const checked: ClaimTerms = {
    requirements: terms.requirements,
    gates: terms.gates,
    collateral: terms.collateral,
    pricePerGpuSecond: price,
    claimants,
  }
  const eligible: Address[] = []
  const ineligible: { provider: Address; refusals: ReturnType<typeof claimRefusals> }[] = []
  const byReason = Object.fromEntries(
    claimRefusalReasons.map((reason) => [reason, [] as Address[]]),
  ) as Record<ClaimRefusalReason, Address[]>
  for (const state of states) {
    const refusals = claimRefusals(state, checked)
    if (refusals.length === 0) eligible.push(state.provider)
    else ineligible.push({ provider: state.provider, refusals })
    for (const refusal of refusals) byReason[refusal.reason].push(state.provider)
  }
  return {
    blockNumber: indexed.number,
    asOf: time(indexed.timestamp),
    taskId: taskId === null ? null : taskId.toString(),
    terms: {
      sourceId: terms.sourceId,
      maxPayment: amount(terms.maxPayment),
      pricePerSecond: amount(terms.pricePerSecond),
      replicas: terms.replicas,
      requirements: terms.requirements,
      gates: terms.gates,
      auditBps: terms.auditBps,
      collateral: amount(terms.collateral),
      pricePerGpuSecond: amount(price),
    },
    closed,
    providers: states.length,
    eligible: { count: eligible.length, providers: eligible },
    ineligible: {
      count: ineligible.length,
      byReason,
      providers: ineligible.map(({ provider, refusals }) => ({
        provider,
        // Amounts as decimal strings, like every amount the API answers with.
        refusals: refusals.map((refusal) =>
          Object.fromEntries(
            Object.entries(refusal).map(([key, value]) => [
              key,
              typeof value === 'bigint' ? amount(value) : value,
            ]),
          ),
        ),
      })),
    },
    history: recent,
  }
}

/**
 * Every registered provider as a claim of `sourceId` would find it: its
 * capabilities, pause, subscription, reputation, floor and available stake.
 * One query; a market has thousands of providers, not millions.
 */
async function providerStates(sourceId: number): Promise<ClaimantState[]> {
  const { provider, subscription, stake } = schema
  const rows = await db
    .select({
      address: provider.address,
      paused: provider.paused,
      subscribed: subscription.subscribed,
      gpuCount: provider.gpuCount,
      vramMiB: provider.vramMiB,
      computeCapability: provider.computeCapability,
      reputationCompleted: provider.reputationCompleted,
      failed: provider.failed,
      outvoted: provider.outvoted,
      priceFloor: provider.priceFloor,
      staked: stake.staked,
      locked: stake.locked,
    })
    .from(provider)
    .leftJoin(
      subscription,
      and(eq(subscription.provider, provider.address), eq(subscription.sourceId, sourceId)),
    )
    .leftJoin(stake, eq(stake.account, provider.address))
    // A provider seen only in the market's events (indexed from after its registration) has no capabilities.
    .where(sql`${provider.profileCid} <> ''`)
    .orderBy(provider.registrationId)
  return rows.map((row) => {
    const { completed, successBps } = reputationJson(row)
    return {
      provider: address(row.address),
      paused: row.paused,
      subscribed: row.subscribed ?? false,
      gpuCount: row.gpuCount,
      vramMiB: row.vramMiB,
      computeCapability: row.computeCapability,
      completed,
      successBps,
      priceFloor: row.priceFloor,
      availableStake: (row.staked ?? 0n) - (row.locked ?? 0n),
    }
  })
}

/** What the last `historySize` claimed tasks of the source offered per GPU-second and waited for a claim. */
async function claimHistory(sourceId: number, historySize: number) {
  const { task } = schema
  // Among the source's last submissions, as far as the SDK's `readClaimHistory` looks.
  const candidates = await db
    .select({
      maxPayment: task.maxPayment,
      pricePerSecond: task.pricePerSecond,
      minGpus: task.minGpus,
      maxRuntimeSec: task.maxRuntimeSec,
      submittedAt: task.submittedAt,
      firstClaimAt: task.firstClaimAt,
    })
    .from(task)
    .where(eq(task.sourceId, sourceId))
    .orderBy(desc(task.id))
    .limit(historySize * candidatesPerTask)
  const claimed = candidates.flatMap((row) =>
    row.firstClaimAt === null
      ? []
      : [
          {
            pricePerGpuSecond: pricePerGpuSecond({ ...row, requirements: row }),
            waitSec: row.firstClaimAt - row.submittedAt,
          },
        ],
  )
  const history = summarizeClaims(sourceId, candidates.length, claimed.slice(0, historySize))
  const prices = history.pricePerGpuSecond
  return {
    tasks: history.tasks,
    pricePerGpuSecond:
      prices === undefined
        ? null
        : { min: amount(prices.min), median: amount(prices.median), max: amount(prices.max) },
    timeToClaimSec: history.timeToClaimSec ?? null,
    reason: history.reason ?? null,
  }
}

/** `TaskMarketBase._collateral`: what each claimant locks for these terms under the market's parameters now. */
export function collateralOf(
  maxPayment: bigint,
  auditBps: number,
  market: Pick<MarketRow, 'collateralBps' | 'minCollateral'>,
): bigint {
  let collateral = (maxPayment * BigInt(market.collateralBps)) / BigInt(BPS)
  if (auditBps !== 0) {
    // The bond that makes cheating unprofitable at audit probability p: (1 − p) ÷ p of the payment, rounded up,
    // at least three payments.
    const numerator = maxPayment * BigInt(BPS - auditBps)
    let bond = (numerator + BigInt(auditBps) - 1n) / BigInt(auditBps)
    if (bond < 3n * maxPayment) bond = 3n * maxPayment
    if (collateral < bond) collateral = bond
  }
  return collateral < market.minCollateral ? market.minCollateral : collateral
}

async function readMarket(): Promise<MarketRow> {
  const [market] = await db.select().from(schema.market).where(eq(schema.market.id, 1))
  if (market === undefined) throw new NotIndexedError('the market')
  return market
}

/**
 * The last block indexed, from Ponder's checkpoint (what its /status answers):
 * the block every table read here is as of. Ponder 0.17 writes a checkpoint as
 * decimal digits: the block's timestamp (10), the chain id (16), the block
 * number (16), then the position in the block.
 */
async function indexedBlock(): Promise<{ number: number; timestamp: number }> {
  const result = await db.execute(sql`select latest_checkpoint from _ponder_checkpoint`)
  const rows = (result as unknown as { rows: { latest_checkpoint: string }[] }).rows
  const checkpoint = rows[0]?.latest_checkpoint
  if (checkpoint === undefined) throw new NotIndexedError('no block')
  return { timestamp: Number(checkpoint.slice(0, 10)), number: Number(checkpoint.slice(26, 42)) }
}
