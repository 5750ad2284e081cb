/**
 * Reads and writes the indexing functions share: the market's single row,
 * task status changes (which keep the counts by status), the claim holding a
 * slot, and a provider's record. Every function takes the indexing context.
 */
import type { Context } from 'ponder:registry'
import * as schema from 'ponder:schema'
import type { Hex } from 'viem'

type Db = Context['db']
type TaskStatus = (typeof schema.taskStatus.enumValues)[number]
type MarketRow = typeof schema.market.$inferSelect
type ProviderRow = typeof schema.provider.$inferSelect
type StakeRow = typeof schema.stake.$inferSelect
type TaskRow = typeof schema.task.$inferSelect
type ClaimRow = typeof schema.claim.$inferSelect

/** The id of the market's single row. */
const MARKET = 1

/** The amounts of the market row that are running totals. */
type MarketTotal =
  | 'tasks'
  | 'paid'
  | 'refunded'
  | 'fees'
  | 'feeRebates'
  | 'creatorFees'
  | 'stakerFees'
  | 'treasuryFees'
  | 'creatorFeesClaimed'
  | 'stakerFeesReleased'
  | 'treasuryWithdrawn'
  | 'slashed'
  | 'slashedToClients'

/** The market row as the constructor leaves it, before its first `ParamsUpdated` is read. */
const emptyMarket: MarketRow = {
  id: MARKET,
  protocolFeeBps: 0,
  stakerShareBps: 0,
  collateralBps: 0,
  slashToClientBps: 0,
  revealWindow: 0,
  claimGrace: 0,
  minCollateral: 0n,
  auditBps: 0,
  auditJoinWindow: 0,
  treasury: null,
  minProviderStake: null,
  minRecordPayment: null,
  unbondingPeriod: null,
  tasks: 0,
  paid: 0n,
  refunded: 0n,
  fees: 0n,
  feeRebates: 0n,
  creatorFees: 0n,
  stakerFees: 0n,
  treasuryFees: 0n,
  creatorFeesClaimed: 0n,
  stakerFeesReleased: 0n,
  treasuryWithdrawn: 0n,
  slashed: 0n,
  slashedToClients: 0n,
}

/** The market row (created on first use). */
export async function readMarket(db: Db): Promise<MarketRow> {
  return (
    (await db.find(schema.market, { id: MARKET })) ?? (await db.insert(schema.market).values(emptyMarket))
  )
}

/** Sets fields of the market row (creating it first if needed). */
export async function setMarket(db: Db, values: Partial<Omit<MarketRow, 'id'>>): Promise<void> {
  await readMarket(db)
  await db.update(schema.market, { id: MARKET }).set(values)
}

/** Adds to running totals of the market row. */
export async function addToMarket(
  db: Db,
  amounts: Partial<Record<MarketTotal, bigint | number>>,
): Promise<void> {
  await readMarket(db)
  await db.update(schema.market, { id: MARKET }).set((row) => {
    const next: Partial<MarketRow> = {}
    for (const [key, amount] of Object.entries(amounts) as [MarketTotal, bigint | number][]) {
      const current = row[key]
      ;(next as Record<string, bigint | number>)[key] =
        typeof current === 'bigint' ? current + BigInt(amount) : current + Number(amount)
    }
    return next
  })
}

/** Adds `delta` tasks of a source to the count of `status`. */
async function countStatus(db: Db, sourceId: number, status: TaskStatus, delta: number): Promise<void> {
  await db
    .insert(schema.statusCount)
    .values({ sourceId, status, tasks: delta })
    .onConflictDoUpdate((row) => ({ tasks: row.tasks + delta }))
}

/** Counts a new task of a source in its first status. */
export async function countNewTask(db: Db, sourceId: number, status: TaskStatus): Promise<void> {
  await countStatus(db, sourceId, status, 1)
  await addToMarket(db, { tasks: 1 })
}

/** The task, which a market event names; throws if it was never submitted (the index would be corrupt). */
export async function readTask(db: Db, taskId: bigint): Promise<TaskRow> {
  const row = await db.find(schema.task, { id: taskId })
  if (row === null) throw new Error(`indexer: an event names task ${taskId}, which was never submitted`)
  return row
}

/** Moves a task to `status` (and the counts by status with it); nothing when it is there already. */
export async function setTaskStatus(db: Db, task: TaskRow, status: TaskStatus): Promise<TaskRow> {
  if (task.status === status) return task
  await countStatus(db, task.sourceId, task.status, -1)
  await countStatus(db, task.sourceId, status, 1)
  return db.update(schema.task, { id: task.id }).set({ status })
}

/** The claim holding `slot` of a task now, or null if nobody ever claimed it. */
export async function readSlotClaim(db: Db, taskId: bigint, slot: number): Promise<ClaimRow | null> {
  const holder = await db.find(schema.slot, { taskId, slot })
  return holder === null ? null : db.find(schema.claim, { id: holder.claimId })
}

/** Records that `claimId` holds `slot` of a task now. */
export async function holdSlot(db: Db, taskId: bigint, slot: number, claimId: string): Promise<void> {
  await db
    .insert(schema.slot)
    .values({ taskId, slot, claimId })
    .onConflictDoUpdate(() => ({ claimId }))
}

/** Sets fields of the claim holding `slot`; returns it, or null when the slot was never claimed. */
export async function updateSlotClaim(
  db: Db,
  taskId: bigint,
  slot: number,
  values: Partial<Omit<ClaimRow, 'id'>>,
): Promise<ClaimRow | null> {
  const holder = await db.find(schema.slot, { taskId, slot })
  if (holder === null) return null
  return db.update(schema.claim, { id: holder.claimId }).set(values)
}

/** The counters of a provider's record, each added to. */
type ProviderCounter =
  | 'claims'
  | 'audits'
  | 'completed'
  | 'reputationCompleted'
  | 'failedRuns'
  | 'failed'
  | 'outvoted'
  | 'slashes'
  | 'slashedAmount'
  | 'paid'
  | 'fees'
  | 'runtimeSec'
  | 'subscriptions'
  | 'leasesAccepted'
  | 'leasePaid'
  | 'leaseFees'
  | 'leasePenalties'

/**
 * Adds to a provider's counters. A provider the market pays or slashes is
 * registered (claims need it); one that is not yet (a deployment indexed from
 * after its registration) gets an empty profile.
 */
export async function addToProvider(
  db: Db,
  address: Hex,
  amounts: Partial<Record<ProviderCounter, bigint | number>>,
  at: { id: string; timestamp: number; block: number },
): Promise<void> {
  const existing = await db.find(schema.provider, { address })
  if (existing === null) await db.insert(schema.provider).values(emptyProvider(address, at))
  await db.update(schema.provider, { address }).set((row) => {
    const next: Partial<ProviderRow> = {}
    for (const [key, amount] of Object.entries(amounts) as [ProviderCounter, bigint | number][]) {
      const current = row[key]
      ;(next as Record<string, bigint | number>)[key] =
        typeof current === 'bigint' ? current + BigInt(amount) : current + Number(amount)
    }
    return next
  })
}

/** A provider row with no capabilities and an empty record. */
export function emptyProvider(
  address: Hex,
  at: { id: string; timestamp: number; block: number },
): ProviderRow {
  return {
    address,
    registrationId: at.id,
    registeredAt: at.timestamp,
    registeredBlock: at.block,
    updatedAt: at.timestamp,
    gpuCount: 0,
    vramMiB: 0,
    computeCapability: 0,
    cpuCores: 0,
    memoryMiB: 0,
    profileCid: '',
    priceFloor: 0n,
    paused: false,
    subscriptions: 0,
    claims: 0,
    audits: 0,
    completed: 0,
    reputationCompleted: 0,
    failedRuns: 0,
    failed: 0,
    outvoted: 0,
    slashes: 0,
    slashedAmount: 0n,
    paid: 0n,
    fees: 0n,
    runtimeSec: 0,
    leasesAccepted: 0,
    leasePaid: 0n,
    leaseFees: 0n,
    leasePenalties: 0n,
  }
}

/** Changes an account's stake with `change` (given the row as it is; a missing row reads as empty). */
export async function changeStake(
  db: Db,
  account: Hex,
  timestamp: number,
  change: (row: StakeRow) => Partial<Omit<StakeRow, 'account'>>,
): Promise<void> {
  const row =
    (await db.find(schema.stake, { account })) ??
    (await db.insert(schema.stake).values({
      account,
      staked: 0n,
      locked: 0n,
      unbonding: 0n,
      unbondingReadyAt: null,
      withdrawn: 0n,
      slashed: 0n,
      rewardsClaimed: 0n,
      updatedAt: timestamp,
    }))
  await db.update(schema.stake, { account }).set({ ...change(row), updatedAt: timestamp })
}

/** Block time and number of an event, as the tables keep them. */
export function when(event: { id: string; block: { timestamp: bigint; number: bigint } }) {
  return { id: event.id, timestamp: Number(event.block.timestamp), block: Number(event.block.number) }
}
