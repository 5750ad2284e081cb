/**
 * Helpers for the TaskMarket suites, on top of the shared fixture: a deployment
 * with a published source and registered providers, claim / submit / commit /
 * reveal shortcuts, helpers that release a held (auditable) k = 1 result
 * without an audit, and a settlement model that says, from the brief's rules
 * alone, how every internal balance must move when a task settles.
 */
import assert from 'node:assert/strict'
import { afterEach } from 'node:test'
import type { NetworkConnection } from 'hardhat/types/network'
import { type Address, getAddress, type Hex, keccak256, toHex } from 'viem'
import { defaultMarketParams } from '../../../ignition/modules/core.js'
import {
  commitment,
  defined,
  deployGridforge,
  escrowOf,
  type Gridforge,
  sealOf,
  type TaskParams,
  type Wallet,
} from './fixture.js'
import { raceSeed, ticket } from './tickets.js'

export const BPS = 10_000n

/** Mirrors `TaskStatus` in ITaskMarket.sol. */
export const TaskStatus = {
  None: 0,
  Open: 1,
  Claimed: 2,
  Revealing: 3,
  Completed: 4,
  Failed: 5,
  Cancelled: 6,
  Expired: 7,
  /** A k = 1 result of an auditable task, held until `releaseResult` draws whether it is audited. */
  Held: 8,
  /** The held result was drawn, or the replicas' results differ (a dispute): auditors re-run the task. */
  Auditing: 9,
} as const

/** Mirrors `SlotStatus` in ITaskMarket.sol. */
export const SlotStatus = { Free: 0, Claimed: 1, Committed: 2, Submitted: 3, Forfeited: 4 } as const

/** Mirrors `AuditVerdict` in ITaskMarket.sol. */
export const AuditVerdict = {
  None: 0,
  NotDrawn: 1,
  Pending: 2,
  Upheld: 3,
  Overturned: 4,
  Unresolved: 5,
  Lapsed: 6,
} as const

export const DEFAULT_MARKET_PARAMS = defaultMarketParams
/** Creator fee of the sources `deployMarket` publishes. */
export const SOURCE_CREATOR_FEE_BPS = 1_000
/** maxRuntimeSec of the fixture's default source. */
export const SOURCE_MAX_RUNTIME_SEC = 3_600
export const RESULT_CID = 'bafybeihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku'
export const RECEIPT_CID = 'bafkreiebc4vu2vbf6qjwjx3s4e3eooypl3mj6vxpfldxd3xlzj4sdcvhwa'

/** A 32-byte result digest derived from a label. */
export function digestOf(label: string): Hex {
  return keccak256(toHex(`result:${label}`))
}

/** The result digest `submitResult` sends unless told otherwise (the market only keeps its first 5 bytes). */
export const RESULT_DIGEST = digestOf('result')

/** A 32-byte salt derived from a label. */
export function saltOf(label: string): Hex {
  return keccak256(toHex(`salt:${label}`))
}

export function addressOf(wallet: Wallet | Address): Address {
  return getAddress(typeof wallet === 'string' ? wallet : wallet.account.address)
}

/**
 * The fixture plus a deterministic source `sourceId` (1) and a non-deterministic one `opaqueSourceId` (2),
 * both with creator fee SOURCE_CREATOR_FEE_BPS, owned by `creator` = others[0] and with the same
 * requirements otherwise, and four registered providers subscribed to both (DEFAULT_PROVIDER_STAKE each).
 * A k = 1 result of `sourceId` is auditable (held until released); one of `opaqueSourceId` settles at once.
 * `client` is clients[0]. A named function, for `loadFixture`.
 */
export async function deployMarket(connection: NetworkConnection): Promise<Market> {
  const gf = await deployGridforge(connection)
  const creator = defined(gf.others[0], 'others[0]')
  const sourceId = await gf.publishSource(creator, { creatorFeeBps: SOURCE_CREATOR_FEE_BPS })
  const opaqueSourceId = await gf.publishSource(creator, {
    creatorFeeBps: SOURCE_CREATOR_FEE_BPS,
    requirements: { deterministic: false },
  })
  const provs = gf.providerWallets.slice(0, 4)
  for (const wallet of provs) await gf.registerProvider(wallet, { sourceIds: [sourceId, opaqueSourceId] })
  return {
    ...gf,
    client: defined(gf.clients[0], 'clients[0]'),
    creator,
    sourceId,
    opaqueSourceId,
    provs,
    totalBalances: async (extra = []) => (await gf.liabilities(extra)).balances,
    totalEscrow: async () => (await gf.liabilities()).escrow,
    totalCreatorFees: async () => (await gf.liabilities()).creatorFees,
  }
}

/**
 * Loads the market fixture in each test (`const m = await load()`) and, after every test that loaded it,
 * checks the DESIGN.md §2.5 invariants and the per-account sums behind them. Call once at module level.
 */
export function useMarketFixture(connection: NetworkConnection): () => Promise<Market> {
  let current: Market | undefined
  afterEach(async () => {
    const m = current
    current = undefined
    if (m !== undefined) await checkSums(m)
  })
  return async () => {
    current = await connection.networkHelpers.loadFixture(deployMarket)
    return current
  }
}

export type Market = Gridforge & {
  /** clients[0]. */
  client: Wallet
  /** others[0], owner of the sources `sourceId` and `opaqueSourceId`. */
  creator: Wallet
  /** A deterministic source: k > 1 tasks compare results; a k = 1 result is auditable (held). */
  sourceId: number
  /** A non-deterministic source (same creator fee and requirements): k = 1 only, settled at submission. */
  opaqueSourceId: number
  /** providerWallets[0..3], registered and subscribed to `sourceId` and `opaqueSourceId`. */
  provs: Wallet[]
  /** Σ market.balanceOf over every fixture account, the contracts and `extra` (the market keeps no total). */
  totalBalances(extra?: readonly Address[]): Promise<bigint>
  /** Σ escrow over every task not final, audit slashes included (the market keeps no total). */
  totalEscrow(): Promise<bigint>
  /** Σ market.creatorFeesOf over every source. */
  totalCreatorFees(): Promise<bigint>
}

/** What the race helpers need of a deployment. */
type Chain = Pick<Market, 'market' | 'networkHelpers' | 'publicClient'>

/**
 * The race for the seats of a k > 1 task (its round-0 `getAudit` record): claims draw their tickets from the hash
 * of block `seedBlock + 1` and are accepted from block `readyBlock` (= seedBlock + 2); the race runs while the
 * time is at most `end` (joinDeadline) and the block at most `lastBlock` (= seedBlock + 256). A seat won in it
 * starts (its `claimedAt`) at `end + 1`.
 */
export async function seatRace(m: Pick<Market, 'market'>, taskId: bigint) {
  const race = await m.market.read.getAudit([taskId])
  const seedBlock = BigInt(race.seedBlock)
  return {
    seedBlock,
    readyBlock: seedBlock + 2n,
    lastBlock: seedBlock + 256n,
    end: race.joinDeadline,
    seatStart: race.joinDeadline + 1,
  }
}

/**
 * k > 1: mines until a claim of `taskId` can draw its ticket, i.e. until the next transaction lands in block
 * seedBlock + 2 or later (the block after the submission is mined). Nothing is mined when it already can.
 */
export async function mineToSeed(m: Chain, taskId: bigint) {
  const { readyBlock } = await seatRace(m, taskId)
  const latest = await m.publicClient.getBlockNumber()
  if (latest + 1n < readyBlock) await m.networkHelpers.mine(Number(readyBlock - latest - 1n))
}

/**
 * k > 1: moves time to the end of the race for the seats of `taskId` (joinDeadline), so that the next transaction
 * comes after it: seats won are final and their time has started. Nothing moves when the race is already over.
 */
export async function endRace(m: Chain, taskId: bigint) {
  const { end } = await seatRace(m, taskId)
  if ((await m.networkHelpers.time.latest()) < end) await m.networkHelpers.time.increaseTo(end)
}

/**
 * The tickets `wallets` would draw in the race for the seats of `taskId` now (TaskAudits._ticket, ported in
 * tickets.ts): −log2(u) / stake, seeded by the hash of block seedBlock + 1 (mined first if it is not yet), with
 * each wallet's current stake. The lowest tickets hold the seats.
 */
export async function raceTickets(
  m: Chain & Pick<Market, 'staking'>,
  taskId: bigint,
  wallets: readonly (Wallet | Address)[],
): Promise<bigint[]> {
  const { seedBlock } = await seatRace(m, taskId)
  if ((await m.publicClient.getBlockNumber()) < seedBlock + 1n) await m.networkHelpers.mine(1)
  const { hash } = await m.publicClient.getBlock({ blockNumber: seedBlock + 1n })
  const seed = raceSeed(hash, taskId)
  return Promise.all(
    wallets.map(async (wallet) => {
      const address = addressOf(wallet)
      return ticket(seed, address, (await m.staking.read.stakeOf([address])).staked)
    }),
  )
}

/**
 * Claims `taskId` as `wallet`; returns the TaskClaimed event's arguments. A k > 1 task first waits for the seed
 * of its race ({@link mineToSeed}): seats are then raced for (the first k claims take the free seats, lowest
 * slot first; later ones replace the worst ticket or revert), and after the race free seats are first come.
 */
export async function claim(m: Market, wallet: Wallet, taskId: bigint) {
  if ((await m.market.read.getTask([taskId])).replicas > 1) await mineToSeed(m, taskId)
  const hash = await m.market.write.claimTask([taskId], { account: wallet.account })
  const [event] = await m.getEvents(hash, m.market, 'TaskClaimed')
  assert.ok(event !== undefined, 'TaskClaimed not emitted')
  return event
}

/**
 * k > 1: if `wallet` holds a seat of `taskId` (not yet committed) that starts later than the next block, moves
 * time so that the next transaction comes at its start (a seat won in the race starts when the race ends: no
 * commitment before). Does nothing otherwise.
 */
export async function untilSeatFinal(m: Chain, wallet: Wallet, taskId: bigint) {
  const task = await m.market.read.getTask([taskId])
  if (task.replicas === 1 || (task.status !== TaskStatus.Open && task.status !== TaskStatus.Claimed)) return
  const address = addressOf(wallet)
  const seat = (await m.market.read.getSlots([taskId])).find(
    (slot) => getAddress(slot.provider) === address && slot.status === SlotStatus.Claimed,
  )
  if (seat === undefined) return
  if ((await m.networkHelpers.time.latest()) + 1 < seat.claimedAt) {
    await m.networkHelpers.time.increaseTo(seat.claimedAt - 1)
  }
}

/**
 * k = 1: submits a result (the seal of `digest`, default RESULT_DIGEST: see {@link sealOf}) as `wallet`. A task
 * that is not auditable settles in this transaction; an auditable one is held (see {@link submitHeld} and
 * {@link releaseNotDrawn}).
 */
export function submitResult(
  m: Market,
  wallet: Wallet,
  taskId: bigint,
  runtimeSec = 60,
  digest: Hex = RESULT_DIGEST,
) {
  return m.market.write.submitResult([taskId, sealOf(taskId, digest), RESULT_CID, RECEIPT_CID, runtimeSec], {
    account: wallet.account,
  })
}

/**
 * k = 1 on an auditable task: submits the seal of `digest` as `wallet` and checks that the result is held (status
 * Held, slot 0 keeping the seal's 8-byte tag and the submission block). Returns the transaction hash and its block.
 */
export async function submitHeld(
  m: Pick<Market, 'market' | 'publicClient'>,
  wallet: Wallet,
  taskId: bigint,
  digest: Hex = RESULT_DIGEST,
  runtimeSec = 60,
) {
  const seal = sealOf(taskId, digest)
  const hash = await m.market.write.submitResult([taskId, seal, RESULT_CID, RECEIPT_CID, runtimeSec], {
    account: wallet.account,
  })
  const receipt = await m.publicClient.waitForTransactionReceipt({ hash })
  assert.equal(receipt.status, 'success')
  assert.equal((await m.market.read.getTask([taskId])).status, TaskStatus.Held, 'the result is held')
  const [slot] = await m.market.read.getSlots([taskId])
  assert.equal(slot?.commitment, tagOf(seal), 'slot 0 keeps the tag of the seal')
  assert.equal(slot?.dueAt, Number(receipt.blockNumber), 'slot 0 keeps the submission block')
  return { hash, blockNumber: receipt.blockNumber }
}

/** What the market keeps of a held result's seal: bytes32(bytes8(seal)). */
export function tagOf(seal: Hex): Hex {
  return `${seal.slice(0, 18)}${'0'.repeat(48)}` as Hex
}

/**
 * Mines blocks until the held result `taskId` can be released (`auditDraw` says ready: the block after its
 * submission is mined, and one more so that the view, run on the latest block, sees it). Returns whether the
 * draw audits it.
 */
export async function mineUntilDrawReady(
  m: Pick<Market, 'market' | 'networkHelpers'>,
  taskId: bigint,
): Promise<boolean> {
  for (let i = 0; i < 3; i++) {
    const [ready, drawn] = await m.market.read.auditDraw([taskId])
    if (ready) return drawn
    await m.networkHelpers.mine()
  }
  assert.fail(`the draw of task ${taskId} is still not ready`)
}

/**
 * Releases the held result `taskId` with a draw that does NOT audit it, so that it settles as an unaudited
 * k = 1 result ({@link releaseWithDraw}).
 */
export function releaseNotDrawn(
  m: Pick<Market, 'market' | 'networkHelpers' | 'publicClient'>,
  taskId: bigint,
  wallet?: Wallet,
): Promise<Hex> {
  return releaseWithDraw(m, taskId, false, wallet)
}

/**
 * Releases the held result `taskId` with a draw that comes out `drawn`: takes a snapshot, mines until the draw
 * is ready, and if the draw goes the other way, rewinds and mines the block the draw reads again one second
 * later (another block hash), until it does. Then sends `releaseResult` as `wallet` (default: the fixture's
 * first account) and returns its hash, once mined. Call it right after the submission ({@link submitHeld}),
 * before any other block: the rewinds only undo the blocks mined here, and a draw block already mined cannot be
 * changed (it fails then if that block draws the other way).
 */
export async function releaseWithDraw(
  m: Pick<Market, 'market' | 'networkHelpers' | 'publicClient'>,
  taskId: bigint,
  drawn: boolean,
  wallet?: Wallet,
): Promise<Hex> {
  await mineToDraw(m, taskId, drawn)
  const hash = await m.market.write.releaseResult(
    [taskId],
    wallet === undefined ? {} : { account: wallet.account },
  )
  const receipt = await m.publicClient.waitForTransactionReceipt({ hash })
  assert.equal(receipt.status, 'success')
  return hash
}

/**
 * Mines until the held result `taskId`'s draw is ready and comes out `drawn` (see {@link releaseWithDraw}, which
 * then sends the release): rewinds and mines the block the draw reads again, one second later, until it does.
 */
export async function mineToDraw(
  m: Pick<Market, 'market' | 'networkHelpers' | 'publicClient'>,
  taskId: bigint,
  drawn: boolean,
): Promise<void> {
  const { networkHelpers, publicClient } = m
  const submitted = BigInt((await m.market.read.getSlots([taskId]))[0]?.dueAt ?? 0)
  // Whether the block the draw reads (`submitted + 1`) was already mined before this call: then it is fixed.
  const fixed = (await publicClient.getBlockNumber()) > submitted
  // A draw of probability p misses `attempts` times with (1 − p)^attempts: at p = 10 %, 0.5 % for 50 tries (it
  // happened in a full run), 10⁻¹⁴ for 300. Each try costs a few blocks; ten are needed on average.
  const attempts = 300
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const snapshot = await networkHelpers.takeSnapshot()
    const outcome = await mineUntilDrawReady(m, taskId)
    assert.ok(
      outcome === drawn || !fixed,
      `task ${taskId}: the draw by block ${submitted + 1n}, mined before the release helper, is not the one wanted: call it right after the submission`,
    )
    if (outcome === drawn) return
    // The draw reads the hash of block `submitted + 1`: mine it again at another timestamp.
    const { timestamp } = await publicClient.getBlock({ blockNumber: submitted + 1n })
    await snapshot.restore()
    await networkHelpers.time.setNextBlockTimestamp(timestamp + 1n)
  }
  assert.fail(`task ${taskId}: no block hash with the wanted draw in ${attempts} attempts`)
}

/**
 * k = 1 on an auditable task: submits the result as `wallet` ({@link submitHeld}) and releases it without an
 * audit ({@link releaseNotDrawn}). Returns both transaction hashes.
 */
export async function submitAndRelease(
  m: Market,
  wallet: Wallet,
  taskId: bigint,
  runtimeSec = 60,
  digest: Hex = RESULT_DIGEST,
) {
  const { hash: submitHash } = await submitHeld(m, wallet, taskId, digest, runtimeSec)
  const releaseHash = await releaseNotDrawn(m, taskId)
  return { submitHash, releaseHash }
}

/**
 * k > 1: commits to the seal of `digest` ({@link sealOf}) with `salt` as `wallet`, once its seat is final ({@link untilSeatFinal}: a seat
 * won in the race takes commitments only after the race). A test that sets the commit's time itself
 * ({@link atTime}) ends the race first ({@link endRace}), or this would move the time again.
 */
export async function commit(m: Chain, wallet: Wallet, taskId: bigint, digest: Hex, salt: Hex) {
  await untilSeatFinal(m, wallet, taskId)
  return m.market.write.commitResult(
    [taskId, commitment(taskId, wallet.account.address, sealOf(taskId, digest), salt)],
    { account: wallet.account },
  )
}

/** k > 1: reveals the seal of `digest` and `salt` as `wallet`. */
export function reveal(m: Market, wallet: Wallet, taskId: bigint, digest: Hex, salt: Hex, runtimeSec = 60) {
  return m.market.write.revealResult(
    [taskId, sealOf(taskId, digest), salt, RESULT_CID, RECEIPT_CID, runtimeSec],
    {
      account: wallet.account,
    },
  )
}

/**
 * One round of the audit (or dispute) of `taskId`: each of `runs` joins the open round (once its seed block is
 * mined), then, after joining closes, commits to and reveals its digest (the digest itself: the market seals an
 * auditor's). Returns the last reveal's hash.
 */
export async function auditRound(
  m: Pick<Market, 'market' | 'publicClient' | 'networkHelpers'>,
  taskId: bigint,
  runs: readonly (readonly [Wallet, Hex])[],
): Promise<Hex> {
  const round = await m.market.read.getAudit([taskId])
  if ((await m.publicClient.getBlockNumber()) < BigInt(round.seedBlock) + 1n) await m.networkHelpers.mine(1)
  for (const [auditor] of runs) await m.market.write.joinAudit([taskId], { account: auditor.account })
  await m.networkHelpers.time.increaseTo(round.joinDeadline + 1)
  const salt = (wallet: Wallet) => saltOf(`audit ${taskId} ${wallet.account.address}`)
  for (const [wallet, digest] of runs) {
    await m.market.write.commitResult(
      [taskId, commitment(taskId, wallet.account.address, digest, salt(wallet))],
      {
        account: wallet.account,
      },
    )
  }
  let last: Hex | undefined
  for (const [wallet, digest] of runs) {
    last = await m.market.write.revealResult([taskId, digest, salt(wallet), RESULT_CID, RECEIPT_CID, 60], {
      account: wallet.account,
    })
  }
  return last as Hex
}

/** Sets the timestamp of the next block (the next transaction). */
export async function atTime(m: Market, timestamp: number | bigint) {
  await m.networkHelpers.time.setNextBlockTimestamp(timestamp)
}

/** Timestamp of the block that included `hash`. */
export async function blockTime(m: Market, hash: Hex): Promise<number> {
  const receipt = await m.publicClient.waitForTransactionReceipt({ hash })
  const block = await m.publicClient.getBlock({ blockNumber: receipt.blockNumber })
  return Number(block.timestamp)
}

/** Everything a settlement can move, for `accounts`. */
export async function ledger(m: Market, accounts: readonly (Wallet | Address)[]) {
  const addresses = [...new Set(accounts.map(addressOf))]
  const balances = new Map<Address, bigint>()
  const stakes = new Map<Address, { staked: bigint; locked: bigint }>()
  const tokens = new Map<Address, bigint>()
  for (const address of addresses) {
    balances.set(address, await m.market.read.balanceOf([address]))
    const info = await m.staking.read.stakeOf([address])
    stakes.set(address, { staked: info.staked, locked: info.locked })
    tokens.set(address, await m.token.read.balanceOf([address]))
  }
  const creatorFees = new Map<number, bigint>()
  const sourceCount = await m.sources.read.sourceCount()
  for (let sourceId = 1; sourceId <= sourceCount; sourceId++) {
    creatorFees.set(sourceId, await m.market.read.creatorFeesOf([sourceId]))
  }
  const owed = await m.liabilities(addresses)
  return {
    balances,
    stakes,
    tokens,
    /** creatorFeesOf of every source. */
    creatorFees,
    treasuryAccrued: owed.treasuryAccrued,
    pendingStakerFees: owed.pendingStakerFees,
    /** Σ escrow over the tasks not final (see marketLiabilities). */
    totalEscrow: owed.escrow,
    /** Σ balanceOf over every fixture account, the contracts and `accounts`. */
    totalBalances: owed.balances,
    marketTokens: await m.token.read.balanceOf([m.market.address]),
    stakingTokens: await m.token.read.balanceOf([m.staking.address]),
  }
}

export type Ledger = Awaited<ReturnType<typeof ledger>>

/** Asserts that nothing in the ledger moved. */
export function assertLedgerUnchanged(before: Ledger, after: Ledger, message = 'ledger changed') {
  assert.deepEqual(after, before, message)
}

/** How a fee is split, per the brief. */
export interface FeeTerms {
  feeBps: number
  discountBps: number
  creatorFeeBps: number
  stakerShareBps: number
}

/** The brief's split of one replica payment. */
export function splitPayment(payment: bigint, terms: FeeTerms) {
  const fee = (payment * BigInt(terms.feeBps)) / BPS
  const rebate = (fee * BigInt(terms.discountBps)) / BPS
  const net = fee - rebate
  const creator = (net * BigInt(terms.creatorFeeBps)) / BPS
  const stakers = (net * BigInt(terms.stakerShareBps)) / BPS
  const treasury = net - creator - stakers
  return { payment, fee, toProvider: payment - fee, rebate, net, creator, stakers, treasury }
}

/** The brief's payment of a replica. */
export function paymentFor(task: { maxPayment: bigint; pricePerSecond: bigint }, runtimeSec: number): bigint {
  if (task.pricePerSecond === 0n) return task.maxPayment
  const metered = task.pricePerSecond * BigInt(runtimeSec)
  return metered < task.maxPayment ? metered : task.maxPayment
}

/** What happens to one slot when a task settles. */
export type SlotOutcome =
  | { provider: Address; kind: 'paid'; runtimeSec: number }
  | { provider: Address; kind: 'slashed' | 'outvoted' | 'unlocked' }

/** Terms of a stored task that settlement depends on (a subset of `Task`). */
export interface TaskTerms {
  client: Address
  sourceId: number
  replicas: number
  maxPayment: bigint
  pricePerSecond: bigint
  feeBps: number
  discountBps: number
  creatorFeeBps: number
  collateral: bigint
  /** 0, or the audit probability of an auditable k = 1 task (which escrows 2 × maxPayment). */
  auditBps: number
}

/**
 * Expected effect of a final settlement (or, with `final: false`, of a single reopen): internal balance
 * deltas by account, creator fees accrued to the task's source (not to its owner's balance: the owner
 * claims them), treasury and stakers accruals, escrow released, paid and refund, and stake deltas.
 */
export function settlementModel(
  task: TaskTerms,
  params: { stakerShareBps: number; slashToClientBps: number },
  outcomes: readonly SlotOutcome[],
  final = true,
) {
  const deltas = new Map<Address, bigint>()
  const add = (account: Address, amount: bigint) => {
    const key = getAddress(account)
    deltas.set(key, (deltas.get(key) ?? 0n) + amount)
  }
  const stakeDeltas = new Map<Address, { staked: bigint; locked: bigint }>()
  const addStake = (account: Address, staked: bigint, locked: bigint) => {
    const key = getAddress(account)
    const d = stakeDeltas.get(key) ?? { staked: 0n, locked: 0n }
    stakeDeltas.set(key, { staked: d.staked + staked, locked: d.locked + locked })
  }
  let treasury = 0n
  let stakers = 0n
  let creatorFees = 0n
  let paid = 0n
  const payments: { provider: Address; payment: bigint; fee: bigint }[] = []
  const slashes: { provider: Address; amount: bigint; toClient: bigint; outvoted: boolean }[] = []
  for (const outcome of outcomes) {
    if (outcome.kind === 'paid') {
      const split = splitPayment(paymentFor(task, outcome.runtimeSec), {
        feeBps: task.feeBps,
        discountBps: task.discountBps,
        creatorFeeBps: task.creatorFeeBps,
        stakerShareBps: params.stakerShareBps,
      })
      add(outcome.provider, split.toProvider)
      add(task.client, split.rebate)
      creatorFees += split.creator
      treasury += split.treasury
      stakers += split.stakers
      paid += split.payment
      payments.push({ provider: getAddress(outcome.provider), payment: split.payment, fee: split.fee })
      addStake(outcome.provider, 0n, -task.collateral)
    } else if (outcome.kind === 'unlocked') {
      addStake(outcome.provider, 0n, -task.collateral)
    } else {
      const amount = task.collateral
      const toClient = (amount * BigInt(params.slashToClientBps)) / BPS
      add(task.client, toClient)
      treasury += amount - toClient
      slashes.push({
        provider: getAddress(outcome.provider),
        amount,
        toClient,
        outvoted: outcome.kind === 'outvoted',
      })
      addStake(outcome.provider, -amount, -amount)
    }
  }
  const escrow = final ? escrowOf(task) : 0n
  const refund = final ? escrow - paid : 0n
  add(task.client, refund)
  return {
    deltas,
    stakeDeltas,
    sourceId: task.sourceId,
    creatorFees,
    treasury,
    stakers,
    paid,
    refund,
    escrow,
    payments,
    slashes,
  }
}

export type Settlement = ReturnType<typeof settlementModel>

/** Asserts that the ledger moved exactly as `model` says (and nothing else among the tracked accounts). */
export function assertSettlement(before: Ledger, after: Ledger, model: Settlement) {
  for (const [address, balance] of before.balances) {
    assert.equal(
      defined(after.balances.get(address), `balance of ${address} after`) - balance,
      model.deltas.get(address) ?? 0n,
      `internal balance delta of ${address}`,
    )
  }
  for (const [address, stake] of before.stakes) {
    const expected = model.stakeDeltas.get(address) ?? { staked: 0n, locked: 0n }
    const now = defined(after.stakes.get(address), `stake of ${address} after`)
    assert.equal(now.staked - stake.staked, expected.staked, `staked delta of ${address}`)
    assert.equal(now.locked - stake.locked, expected.locked, `locked delta of ${address}`)
  }
  for (const [address, tokens] of before.tokens) {
    assert.equal(after.tokens.get(address), tokens, `wallet tokens of ${address} moved during settlement`)
  }
  const credited = [...model.deltas.values()].reduce((sum, d) => sum + d, 0n)
  assert.equal(
    after.totalBalances - before.totalBalances,
    credited,
    'Σ balanceOf delta: nobody else was credited',
  )
  assert.equal(after.creatorFees.size, before.creatorFees.size, 'no source appeared')
  for (const [sourceId, fees] of before.creatorFees) {
    assert.equal(
      defined(after.creatorFees.get(sourceId), `creatorFeesOf(${sourceId}) after`) - fees,
      sourceId === model.sourceId ? model.creatorFees : 0n,
      `creatorFeesOf(${sourceId}) delta`,
    )
  }
  assert.equal(after.treasuryAccrued - before.treasuryAccrued, model.treasury, 'treasuryAccrued delta')
  assert.equal(after.pendingStakerFees - before.pendingStakerFees, model.stakers, 'pendingStakerFees delta')
  assert.equal(before.totalEscrow - after.totalEscrow, model.escrow, 'escrow released')
  const slashed = model.slashes.reduce((sum, s) => sum + s.amount, 0n)
  assert.equal(
    after.marketTokens - before.marketTokens,
    slashed,
    'market received exactly the slashed collateral',
  )
  assert.equal(
    before.stakingTokens - after.stakingTokens,
    slashed,
    'staking sent exactly the slashed collateral',
  )
}

/** The stored task's settlement terms. */
export async function taskTerms(m: Market, taskId: bigint): Promise<TaskTerms> {
  const t = await m.market.read.getTask([taskId])
  return {
    client: t.client,
    sourceId: t.sourceId,
    replicas: t.replicas,
    maxPayment: t.maxPayment,
    pricePerSecond: t.pricePerSecond,
    feeBps: t.feeBps,
    discountBps: t.discountBps,
    creatorFeeBps: t.creatorFeeBps,
    collateral: t.collateral,
    auditBps: t.auditBps,
  }
}

/** Current market parameters that settlement reads. */
export async function marketParams(m: Market) {
  return m.market.read.params()
}

/**
 * Submits a k-replica task on the market's deterministic source `sourceId` (or `overrides.sourceId`) as the
 * client and returns its id. k = 1 there is auditable: its result is held (see {@link submitAndRelease}).
 */
export async function submitOnSource(
  m: Market,
  overrides: Partial<TaskParams> = {},
  wallet: Wallet = m.client,
) {
  return m.submitTask(wallet, await m.defaultTaskParams(m.sourceId, overrides))
}

/**
 * Submits a k = 1 task on the market's non-deterministic source `opaqueSourceId` as the client and returns
 * its id: its result is not auditable and settles in the submitResult transaction.
 */
export async function submitOpaque(
  m: Market,
  overrides: Partial<TaskParams> = {},
  wallet: Wallet = m.client,
) {
  return m.submitTask(wallet, await m.defaultTaskParams(m.opaqueSourceId, overrides))
}

/**
 * Beyond checkInvariants: Staking's totals are the sums of the positions, and no position has more locked
 * than staked (every fixture account, the contracts, and `extra`); then checkInvariants, whose market side
 * sums the internal balances of the same accounts.
 */
export async function checkSums(m: Market, extra: readonly Address[] = []) {
  const accounts = [...new Set([...m.accounts, m.treasury, ...extra].map((a) => getAddress(a)))]
  let staked = 0n
  let unbonding = 0n
  for (const account of accounts) {
    const info = await m.staking.read.stakeOf([account])
    staked += info.staked
    unbonding += info.unbonding
    assert.ok(info.locked <= info.staked, `locked > staked for ${account}`)
  }
  assert.equal(staked, await m.staking.read.totalStaked(), 'Σ staked != totalStaked')
  assert.equal(unbonding, await m.staking.read.totalUnbonding(), 'Σ unbonding != totalUnbonding')
  await m.checkInvariants(extra)
}
