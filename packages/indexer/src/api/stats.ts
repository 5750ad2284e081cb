/** GET /stats: the market's statistics, from counters kept while indexing and one pass over the window. */
import { db } from 'ponder:api'
import * as schema from 'ponder:schema'
import { asc, desc, eq, gte, isNotNull, sql } from 'ponder'
import { amount, time } from './json.js'
import { oneOf, type ParameterValues } from './parameters.js'
import { byStatus } from './sources.js'

/** The windows `/stats` offers, in seconds. */
export const windows = { '1h': 3_600, '24h': 86_400, '7d': 604_800 } as const

export const getStatsParameters = {
  window: oneOf(
    'The window of the time-to-first-claim and price statistics, ending now.',
    Object.keys(windows) as (keyof typeof windows)[],
    '24h',
  ),
}

/** A SQL aggregate read as text (numeric and int8 come back as strings or bigints, by driver). */
const text = (aggregate: ReturnType<typeof sql>) => sql<string | null>`(${aggregate})::text`

/**
 * Now: the later of the server's clock and the time of the last task, claim or
 * payment indexed (a local chain's clock can run ahead of the wall's).
 */
async function chainNow(): Promise<number> {
  const { task, payment } = schema
  const [[submitted], [claimed], [paid]] = await Promise.all([
    db.select({ at: task.submittedAt }).from(task).orderBy(desc(task.id)).limit(1),
    db
      .select({ at: task.firstClaimAt })
      .from(task)
      .where(isNotNull(task.firstClaimAt))
      .orderBy(desc(task.firstClaimAt))
      .limit(1),
    db.select({ at: payment.paidAt }).from(payment).orderBy(desc(payment.paidAt)).limit(1),
  ])
  return Math.max(Math.floor(Date.now() / 1000), submitted?.at ?? 0, claimed?.at ?? 0, paid?.at ?? 0)
}

export async function getStats({ window }: ParameterValues<typeof getStatsParameters>) {
  const { task, payment, provider, statusCount } = schema
  const now = await chainNow()
  const from = now - windows[window]
  const [counts, [market], [firstClaims], prices, [providers]] = await Promise.all([
    db
      .select({ status: statusCount.status, tasks: text(sql`sum(${statusCount.tasks})`) })
      .from(statusCount)
      .groupBy(statusCount.status),
    db.select().from(schema.market).where(eq(schema.market.id, 1)),
    db
      .select({
        tasks: text(sql`count(*)`),
        medianSec: text(
          sql`percentile_disc(0.5) within group (order by ${task.firstClaimAt} - ${task.submittedAt})`,
        ),
      })
      .from(task)
      .where(gte(task.firstClaimAt, from)),
    db
      .select({
        sourceId: payment.sourceId,
        payments: text(sql`count(*)`),
        gpuSeconds: text(sql`sum(${payment.gpuSeconds})`),
        paid: text(sql`sum(${payment.payment})`),
        median: text(sql`percentile_disc(0.5) within group (order by ${payment.pricePerGpuSecond})`),
        min: text(sql`min(${payment.pricePerGpuSecond})`),
        max: text(sql`max(${payment.pricePerGpuSecond})`),
      })
      .from(payment)
      .where(gte(payment.paidAt, from))
      .groupBy(payment.sourceId)
      .orderBy(asc(payment.sourceId)),
    db
      .select({
        registered: text(sql`count(*)`),
        active: text(sql`count(*) filter (where not ${provider.paused})`),
      })
      .from(provider),
  ])
  const tasksByStatus = byStatus(counts.map(({ status, tasks }) => ({ status, tasks: Number(tasks ?? 0) })))
  return {
    asOf: time(now),
    window: { name: window, seconds: windows[window], from: time(from) },
    tasks: {
      total: market?.tasks ?? 0,
      byStatus: tasksByStatus,
      queueDepth: tasksByStatus.Open,
    },
    timeToFirstClaim: {
      tasks: Number(firstClaims?.tasks ?? 0),
      medianSec: firstClaims?.medianSec == null ? null : Number(firstClaims.medianSec),
    },
    pricePerGpuSecond: prices.map((row) => {
      const gpuSeconds = BigInt(row.gpuSeconds ?? 0)
      const paid = BigInt(row.paid ?? 0)
      return {
        sourceId: row.sourceId,
        payments: Number(row.payments ?? 0),
        gpuSeconds: Number(gpuSeconds),
        paid: amount(paid),
        mean: amount(gpuSeconds === 0n ? 0n : paid / gpuSeconds),
        median: row.median ?? '0',
        min: row.min ?? '0',
        max: row.max ?? '0',
      }
    }),
    providers: { registered: Number(providers?.registered ?? 0), active: Number(providers?.active ?? 0) },
    totals: {
      paid: amount(market?.paid ?? 0n),
      refunded: amount(market?.refunded ?? 0n),
      fees: amount(market?.fees ?? 0n),
      feeRebates: amount(market?.feeRebates ?? 0n),
      creatorFees: amount(market?.creatorFees ?? 0n),
      stakerFees: amount(market?.stakerFees ?? 0n),
      treasuryFees: amount(market?.treasuryFees ?? 0n),
      slashed: amount(market?.slashed ?? 0n),
    },
  }
}
