/**
 * The race for the seats of a k > 1 task: seats are not first come. From the block after the block after the
 * submission until the race ends (joinDeadline = submission + auditJoinWindow, or 256 blocks after the submission),
 * each claim draws a stake-weighted ticket −log2(u) / stake from the hash of the block after the submission; the
 * k lowest tickets hold the seats, a better ticket replaces the worst, and a seat won starts when the race ends.
 * After the race, free seats are first come. Every test checks the state and the money to the wei; the last one
 * is a Monte Carlo of the contract's ticket showing that a sybil gains no seats by splitting its stake.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { network } from 'hardhat'
import { type Address, getAddress, keccak256, toHex, zeroHash } from 'viem'
import { grid, sealOf, type TaskParams, type Wallet } from './helpers/fixture.js'
import {
  addressOf,
  assertLedgerUnchanged,
  assertSettlement,
  atTime,
  blockTime,
  commit,
  DEFAULT_MARKET_PARAMS,
  digestOf,
  type Ledger,
  ledger,
  type Market,
  mineToSeed,
  raceTickets,
  reveal,
  SlotStatus,
  SOURCE_MAX_RUNTIME_SEC,
  saltOf,
  seatRace,
  settlementModel,
  TaskStatus,
  taskTerms,
  useMarketFixture,
} from './helpers/market.js'
import { labelAccount, negLog2 } from './helpers/tickets.js'

const connection = await network.create()
const { viem, networkHelpers } = connection
const { time } = networkHelpers
const { emitWithArgs, revertWithCustomErrorWithArgs } = viem.assertions

// Every scenario ends with the DESIGN.md §2.5 invariants (and the per-account sums behind them).
const load = useMarketFixture(connection)

const M = grid(20)
const WINDOW = DEFAULT_MARKET_PARAMS.auditJoinWindow
/** What a seat's time covers: the source's runtime limit and the claim grace. */
const SEAT_TIME = SOURCE_MAX_RUNTIME_SEC + DEFAULT_MARKET_PARAMS.claimGrace

/**
 * Submits a k-replica task (maxPayment M on the market's deterministic source) as the client, from its deposit
 * (one transaction, at `at` if given); returns its id and the submission's block and time.
 */
async function submitRace(m: Market, replicas: number, overrides: Partial<TaskParams> = {}, at?: number) {
  const params = await m.defaultTaskParams(m.sourceId, { maxPayment: M, replicas, ...overrides })
  await m.deposit(m.client, await m.escrowFor(params))
  if (at !== undefined) await atTime(m, at)
  const hash = await m.market.write.submitTask([params], { account: m.client.account })
  const [event] = await m.getEvents(hash, m.market, 'TaskSubmitted')
  const receipt = await m.publicClient.waitForTransactionReceipt({ hash })
  return { taskId: event!.taskId, block: receipt.blockNumber, submittedAt: await blockTime(m, hash) }
}

/** Registers providerWallets[4..] with the given stakes, subscribed to the market's sources. */
async function moreProviders(m: Market, stakes: readonly bigint[]) {
  const wallets = m.providerWallets.slice(4, 4 + stakes.length)
  for (const [i, wallet] of wallets.entries()) {
    await m.registerProvider(wallet, { stake: stakes[i]!, sourceIds: [m.sourceId, m.opaqueSourceId] })
  }
  return wallets
}

/** Asserts that between two ledgers only the locked collateral moved, by `locked` (nothing staked, paid or owed). */
function assertOnlyLocks(before: Ledger, after: Ledger, locked: readonly (readonly [Wallet, bigint])[]) {
  const expected = new Map(locked.map(([wallet, delta]) => [addressOf(wallet), delta]))
  for (const [address, stake] of before.stakes) {
    const now = after.stakes.get(address)!
    assert.equal(now.staked, stake.staked, `staked of ${address}`)
    assert.equal(now.locked - stake.locked, expected.get(address) ?? 0n, `locked delta of ${address}`)
  }
  assertLedgerUnchanged({ ...before, stakes: new Map() }, { ...after, stakes: new Map() }, 'only locks moved')
}

/** The seat `provider` holds in `taskId`. */
async function seatOf(m: Market, taskId: bigint, provider: Wallet | Address) {
  const slots = await m.market.read.getSlots([taskId])
  const slot = slots.findIndex((s) => getAddress(s.provider) === addressOf(provider))
  assert.ok(slot >= 0, `${addressOf(provider)} holds no seat`)
  return { slot, ...slots[slot]! }
}

describe('TaskMarket: the race for the seats of k > 1 tasks', () => {
  it('is seeded by the block after the submission: claims before block seedBlock + 2 revert DrawNotReady; k = 1 stays first come', async () => {
    const m = await load()
    const [alice, bob] = m.provs as [Wallet, Wallet]
    const { taskId, block, submittedAt } = await submitRace(m, 3)
    // The race's record is the task's audit record at round 0.
    const race = await m.market.read.getAudit([taskId])
    assert.deepEqual(
      [race.verdict, race.round, race.firstSlot, race.auditors, race.commitDeadline, race.slashed],
      [0, 0, 0, 0, 0, 0n],
    )
    assert.equal(BigInt(race.seedBlock), block, 'seeded by the submission block')
    assert.equal(race.joinDeadline, submittedAt + WINDOW, 'the race runs for auditJoinWindow')

    // The next transaction lands in block seedBlock + 1, whose hash is the seed: not yet known.
    assert.equal(await m.publicClient.getBlockNumber(), block)
    const before = await ledger(m, [m.client, alice, bob])
    await revertWithCustomErrorWithArgs(
      m.market.write.claimTask([taskId], { account: alice.account }),
      m.market,
      'TaskMarketDrawNotReady',
      [taskId, block + 2n],
    )
    assertLedgerUnchanged(before, await ledger(m, [m.client, alice, bob]))
    // A k = 1 task is still claimed first come, in the very next block.
    const single = await submitRace(m, 1)
    const singleClaim = await m.market.write.claimTask([single.taskId], { account: bob.account })
    const singleAt = await blockTime(m, singleClaim)
    await emitWithArgs(singleClaim, m.market, 'TaskClaimed', [
      single.taskId,
      bob.account.address,
      0,
      singleAt + SEAT_TIME,
      (await m.market.read.getTask([single.taskId])).collateral,
    ])

    // From block seedBlock + 2 (reached by now) the claim draws its ticket.
    assert.ok((await m.publicClient.getBlockNumber()) + 1n >= block + 2n)
    const [score] = await raceTickets(m, taskId, [alice])
    const hash = await m.market.write.claimTask([taskId], { account: alice.account })
    const { collateral } = await m.market.read.getTask([taskId])
    await emitWithArgs(hash, m.market, 'TaskClaimed', [
      taskId,
      alice.account.address,
      0,
      race.joinDeadline + 1 + SEAT_TIME,
      collateral,
    ])
    assert.equal(BigInt((await seatOf(m, taskId, alice)).commitment), score)
  })

  it('claims draw −log2(u) / stake from the hash of block seedBlock + 1, as computed off chain; seats start when the race ends', async () => {
    const m = await load()
    const [alice] = m.provs as [Wallet]
    // Three providers with different stakes: 1,000, 3,000 and 250 GRID.
    const [whale, minnow] = (await moreProviders(m, [grid(3_000), grid(250)])) as [Wallet, Wallet]
    const claimants = [alice, whale, minnow]
    const { taskId } = await submitRace(m, 3)
    await mineToSeed(m, taskId)
    const scores = await raceTickets(m, taskId, claimants)
    const { seatStart, end } = await seatRace(m, taskId)
    const { collateral } = await m.market.read.getTask([taskId])
    assert.equal(collateral, grid(10), 'collateralBps (50 %) of maxPayment')
    const tracked = [m.client, m.creator, ...m.provs, whale, minnow]
    const before = await ledger(m, tracked)
    for (const [i, wallet] of claimants.entries()) {
      const hash = await m.market.write.claimTask([taskId], { account: wallet.account })
      assert.ok((await blockTime(m, hash)) <= end, 'claimed during the race')
      await emitWithArgs(hash, m.market, 'TaskClaimed', [
        taskId,
        wallet.account.address,
        i,
        seatStart + SEAT_TIME,
        collateral,
      ])
      await emitWithArgs(hash, m.staking, 'CollateralLocked', [wallet.account.address, collateral])
    }
    const slots = await m.market.read.getSlots([taskId])
    for (const [i, wallet] of claimants.entries()) {
      const seat = slots[i]!
      assert.equal(getAddress(seat.provider), addressOf(wallet))
      assert.equal(seat.status, SlotStatus.Claimed)
      assert.equal(BigInt(seat.commitment), scores[i], 'the seat keeps the ticket, −log2(u) / stake')
      assert.equal(seat.claimedAt, seatStart, 'a seat won in the race starts when the race ends')
      assert.equal(seat.dueAt, seatStart + SEAT_TIME)
    }
    const task = await m.market.read.getTask([taskId])
    assert.equal(task.status, TaskStatus.Claimed)
    assert.equal(task.openSlots, 0)
    assertOnlyLocks(
      before,
      await ledger(m, tracked),
      claimants.map((wallet) => [wallet, collateral] as const),
    )
  })

  it('a better ticket replaces the worst held, whose collateral is unlocked (nothing slashed); a worse one reverts ClaimTicketTooHigh; the winners are paid', async () => {
    const m = await load()
    const extra = await moreProviders(m, [grid(1_000), grid(1_000)])
    const racers = [...m.provs, ...extra]
    const { taskId } = await submitRace(m, 2)
    await mineToSeed(m, taskId)
    const scores = await raceTickets(m, taskId, racers)
    // Claims from the worst ticket to the best: once the two seats are held, each claim beats the worst.
    const ranked = racers
      .map((wallet, i) => ({ wallet, score: scores[i]! }))
      .sort((a, b) => (a.score > b.score ? -1 : 1))
    const { collateral } = await m.market.read.getTask([taskId])
    const tracked = [m.client, m.creator, ...racers]
    const start = await ledger(m, tracked)
    const held: { wallet: Wallet; score: bigint; slot: number }[] = []
    for (const [i, { wallet, score }] of ranked.entries()) {
      const before = await ledger(m, tracked)
      const hash = await m.market.write.claimTask([taskId], { account: wallet.account })
      const [claimed] = await m.getEvents(hash, m.market, 'TaskClaimed')
      if (i < 2) {
        assert.equal(claimed!.slot, i, 'free seats first, lowest slot first')
        assert.equal((await m.getEvents(hash, m.market, 'ClaimReplaced')).length, 0)
        held.push({ wallet, score, slot: i })
        assertOnlyLocks(before, await ledger(m, tracked), [[wallet, collateral]])
        continue
      }
      // The worst ticket held gives way: its seat, its collateral unlocked, nothing slashed or paid.
      const worst = held.reduce((a, b) => (a.score > b.score ? a : b))
      await emitWithArgs(hash, m.market, 'ClaimReplaced', [
        taskId,
        worst.wallet.account.address,
        worst.slot,
        worst.score,
      ])
      await emitWithArgs(hash, m.staking, 'CollateralUnlocked', [worst.wallet.account.address, collateral])
      assert.equal(claimed!.slot, worst.slot)
      assertOnlyLocks(before, await ledger(m, tracked), [
        [worst.wallet, -collateral],
        [wallet, collateral],
      ])
      held.splice(held.indexOf(worst), 1, { wallet, score, slot: worst.slot })
      assert.equal(
        (await m.market.read.getTask([taskId])).status,
        TaskStatus.Claimed,
        'a full task still races',
      )
    }
    // The two best tickets hold the seats.
    const [best, second] = ranked.slice(-2).reverse() as [(typeof ranked)[number], (typeof ranked)[number]]
    for (const { wallet, score } of [best, second]) {
      assert.equal(BigInt((await seatOf(m, taskId, wallet)).commitment), score)
    }
    // A worse ticket (one that was replaced) cannot come back; a holder cannot claim twice.
    const loser = ranked[0]!
    await revertWithCustomErrorWithArgs(
      m.market.write.claimTask([taskId], { account: loser.wallet.account }),
      m.market,
      'TaskMarketClaimTicketTooHigh',
      [taskId, loser.score, second.score],
    )
    await revertWithCustomErrorWithArgs(
      m.market.write.claimTask([taskId], { account: best.wallet.account }),
      m.market,
      'TaskMarketAlreadyClaimant',
      [taskId, best.wallet.account.address],
    )
    // Only the two winners' collateral is locked; the replaced claims count as claims in the registry (as
    // auditors replaced in an audit round do), with nothing failed.
    assertOnlyLocks(start, await ledger(m, tracked), [
      [best.wallet, collateral],
      [second.wallet, collateral],
    ])
    for (const { wallet } of ranked.slice(0, -2)) {
      const record = await m.providers.read.getReputation([wallet.account.address])
      assert.deepEqual([record.claimed, record.failed, record.outvoted], [1, 0, 0])
    }

    // The winners commit after the race and agree: both paid, the losers untouched.
    for (const { wallet } of [best, second]) {
      await commit(m, wallet, taskId, digestOf('seat'), saltOf(wallet.account.address))
    }
    await reveal(m, best.wallet, taskId, digestOf('seat'), saltOf(best.wallet.account.address))
    const terms = await taskTerms(m, taskId)
    const before = await ledger(m, tracked)
    await reveal(m, second.wallet, taskId, digestOf('seat'), saltOf(second.wallet.account.address))
    assertSettlement(
      before,
      await ledger(m, tracked),
      settlementModel(terms, DEFAULT_MARKET_PARAMS, [
        { provider: best.wallet.account.address, kind: 'paid', runtimeSec: 60 },
        { provider: second.wallet.account.address, kind: 'paid', runtimeSec: 60 },
      ]),
    )
    assert.equal((await m.market.read.getTask([taskId])).status, TaskStatus.Completed)
  })

  it('no commitment before the race ends (SeatNotFinal); its last second still races; from the seat’s start commits are accepted and claims refused', async () => {
    const m = await load()
    const [alice, bob, carol, dave] = m.provs as [Wallet, Wallet, Wallet, Wallet]
    const { taskId } = await submitRace(m, 3)
    await mineToSeed(m, taskId)
    const { end, seatStart } = await seatRace(m, taskId)
    for (const wallet of [alice, bob]) await m.market.write.claimTask([taskId], { account: wallet.account })
    const salt = saltOf('alice')
    const aliceCommitment = m.commitment(taskId, alice.account.address, sealOf(taskId, digestOf('r')), salt)
    await revertWithCustomErrorWithArgs(
      m.market.write.commitResult([taskId, aliceCommitment], { account: alice.account }),
      m.market,
      'TaskMarketSeatNotFinal',
      [taskId, seatStart],
    )
    // The race's last second: Carol's claim is still raced (her seat starts with the others').
    await atTime(m, end)
    const carolClaim = await m.market.write.claimTask([taskId], { account: carol.account })
    const [carolScore] = await raceTickets(m, taskId, [carol])
    const carolSeat = await seatOf(m, taskId, carol)
    assert.equal(carolSeat.claimedAt, seatStart)
    assert.equal(BigInt(carolSeat.commitment), carolScore)
    await emitWithArgs(carolClaim, m.market, 'TaskClaimed', [
      taskId,
      carol.account.address,
      2,
      seatStart + SEAT_TIME,
      grid(10),
    ])
    // The seat's start: the commitment replaces the ticket, and the runtime counted starts here.
    const tracked = [m.client, alice, bob, carol, dave]
    const before = await ledger(m, tracked)
    await atTime(m, seatStart)
    const hash = await m.market.write.commitResult([taskId, aliceCommitment], { account: alice.account })
    assert.equal(await blockTime(m, hash), seatStart)
    const aliceSeat = await seatOf(m, taskId, alice)
    assert.equal(aliceSeat.status, SlotStatus.Committed)
    assert.equal(aliceSeat.commitment, aliceCommitment)
    assert.equal(aliceSeat.dueAt, seatStart, 'dueAt becomes the commit time')
    assertLedgerUnchanged(before, await ledger(m, tracked))
    // The race is over: no claim displaces a seat, however good its ticket.
    await revertWithCustomErrorWithArgs(
      m.market.write.claimTask([taskId], { account: dave.account }),
      m.market,
      'TaskMarketWrongStatus',
      [taskId, TaskStatus.Claimed],
    )
  })

  it('after the race, free seats are first come: a reopened seat goes to the first claim, whatever its ticket, and starts at once', async () => {
    const m = await load()
    const [alice, bob, carol, dave] = m.provs as [Wallet, Wallet, Wallet, Wallet]
    const { taskId } = await submitRace(m, 2)
    await mineToSeed(m, taskId)
    for (const wallet of [alice, bob]) await m.market.write.claimTask([taskId], { account: wallet.account })
    await commit(m, alice, taskId, digestOf('ok'), saltOf('a'))
    // Bob never commits: once overdue his seat is reopened and he forfeits what a no-show forfeits.
    const bobSeat = await seatOf(m, taskId, bob)
    const terms = await taskTerms(m, taskId)
    const tracked = [m.client, m.creator, alice, bob, carol, dave]
    let before = await ledger(m, tracked)
    await atTime(m, bobSeat.dueAt + 1)
    const reopened = await m.market.write.reopenSlot([taskId, 1])
    await emitWithArgs(reopened, m.market, 'SlotReopened', [taskId, bob.account.address, 1])
    assertSettlement(
      before,
      await ledger(m, tracked),
      settlementModel(
        terms,
        DEFAULT_MARKET_PARAMS,
        [{ provider: bob.account.address, kind: 'slashed' }],
        false,
      ),
    )
    assert.equal((await m.market.read.getTask([taskId])).status, TaskStatus.Open)

    // The first claim takes the seat, whatever the tickets say, with no ticket drawn; the next is refused.
    const [carolScore, daveScore] = await raceTickets(m, taskId, [carol, dave])
    const [first, second] = (carolScore! > daveScore! ? [carol, dave] : [dave, carol]) as [Wallet, Wallet]
    before = await ledger(m, tracked)
    const hash = await m.market.write.claimTask([taskId], { account: first.account })
    const claimedAt = await blockTime(m, hash)
    await emitWithArgs(hash, m.market, 'TaskClaimed', [
      taskId,
      first.account.address,
      1,
      claimedAt + SEAT_TIME,
      grid(10),
    ])
    assert.equal((await m.getEvents(hash, m.market, 'ClaimReplaced')).length, 0)
    const seat = await seatOf(m, taskId, first)
    assert.deepEqual(
      [seat.slot, seat.claimedAt, seat.dueAt],
      [1, claimedAt, claimedAt + SEAT_TIME],
      'first come',
    )
    assertOnlyLocks(before, await ledger(m, tracked), [[first, grid(10)]])
    await revertWithCustomErrorWithArgs(
      m.market.write.claimTask([taskId], { account: second.account }),
      m.market,
      'TaskMarketWrongStatus',
      [taskId, TaskStatus.Claimed],
    )
    // Its seat started at the claim: it commits a second later, and the task settles.
    await atTime(m, claimedAt + 1)
    await m.market.write.commitResult(
      [taskId, m.commitment(taskId, first.account.address, sealOf(taskId, digestOf('ok')), saltOf('f'))],
      { account: first.account },
    )
    await reveal(m, alice, taskId, digestOf('ok'), saltOf('a'))
    before = await ledger(m, tracked)
    await reveal(m, first, taskId, digestOf('ok'), saltOf('f'), 1)
    assertSettlement(
      before,
      await ledger(m, tracked),
      settlementModel(terms, DEFAULT_MARKET_PARAMS, [
        { provider: alice.account.address, kind: 'paid', runtimeSec: 60 },
        { provider: first.account.address, kind: 'paid', runtimeSec: 1 },
      ]),
    )
  })

  it('ends 256 blocks after the submission even when the window is longer: later claims are first come, and nothing is replaced', async () => {
    const m = await load()
    const [alice, bob, carol, dave] = m.provs as [Wallet, Wallet, Wallet, Wallet]
    await m.market.write.setParams([{ ...DEFAULT_MARKET_PARAMS, auditJoinWindow: 24 * 60 * 60 }])
    const now = await time.latest()
    const { taskId, block, submittedAt } = await submitRace(m, 3, { deadline: now + 3 * 24 * 60 * 60 })
    const { end, seatStart, lastBlock } = await seatRace(m, taskId)
    // A race runs at most an hour, whatever the window (its seed block is kept in 16 bits: see _race).
    assert.equal(end, submittedAt + 60 * 60)
    assert.equal(lastBlock, block + 256n)
    await mineToSeed(m, taskId)
    await m.market.write.claimTask([taskId], { account: alice.account })
    // Bob's claim lands in block seedBlock + 256, the last whose seed hash is readable: still raced.
    await networkHelpers.mine(Number(lastBlock - 1n - (await m.publicClient.getBlockNumber())))
    const bobClaim = await m.market.write.claimTask([taskId], { account: bob.account })
    assert.equal((await m.publicClient.waitForTransactionReceipt({ hash: bobClaim })).blockNumber, lastBlock)
    const [bobScore] = await raceTickets(m, taskId, [bob])
    const bobSeat = await seatOf(m, taskId, bob)
    assert.equal(BigInt(bobSeat.commitment), bobScore)
    assert.equal(bobSeat.claimedAt, seatStart)
    // Carol's, one block later, is first come: no ticket, her seat starts now, long before the window ends.
    const carolClaim = await m.market.write.claimTask([taskId], { account: carol.account })
    const carolAt = await blockTime(m, carolClaim)
    assert.ok(carolAt < end)
    await emitWithArgs(carolClaim, m.market, 'TaskClaimed', [
      taskId,
      carol.account.address,
      2,
      carolAt + SEAT_TIME,
      grid(10),
    ])
    const carolSeat = await seatOf(m, taskId, carol)
    assert.deepEqual([carolSeat.claimedAt, BigInt(carolSeat.commitment)], [carolAt, 0n])
    // Every seat is held and the race is over: Dave is refused though the window is still open.
    await revertWithCustomErrorWithArgs(
      m.market.write.claimTask([taskId], { account: dave.account }),
      m.market,
      'TaskMarketWrongStatus',
      [taskId, TaskStatus.Claimed],
    )
    // Carol may commit at once; the seats won in the race keep their start (the window's end).
    await commit(m, carol, taskId, digestOf('x'), saltOf('c'))
    await revertWithCustomErrorWithArgs(
      m.market.write.commitResult(
        [taskId, m.commitment(taskId, alice.account.address, sealOf(taskId, digestOf('x')), saltOf('a'))],
        {
          account: alice.account,
        },
      ),
      m.market,
      'TaskMarketSeatNotFinal',
      [taskId, seatStart],
    )
    for (const [wallet, salt] of [
      [alice, saltOf('a')],
      [bob, saltOf('b')],
    ] as const) {
      await commit(m, wallet, taskId, digestOf('x'), salt)
    }
    assert.ok((await time.latest()) >= seatStart)
    const terms = await taskTerms(m, taskId)
    await reveal(m, alice, taskId, digestOf('x'), saltOf('a'))
    await reveal(m, bob, taskId, digestOf('x'), saltOf('b'))
    const tracked = [m.client, m.creator, alice, bob, carol, dave]
    const before = await ledger(m, tracked)
    await reveal(m, carol, taskId, digestOf('x'), saltOf('c'))
    assertSettlement(
      before,
      await ledger(m, tracked),
      settlementModel(
        terms,
        DEFAULT_MARKET_PARAMS,
        [alice, bob, carol].map((wallet) => ({
          provider: wallet.account.address,
          kind: 'paid',
          runtimeSec: 60,
        })),
      ),
    )
  })

  it('the honeypot rule counts from the race’s end: a deadline the seat’s start cannot meet refuses every claim, and the escrow goes back', async () => {
    const m = await load()
    const [alice, bob] = m.provs as [Wallet, Wallet]
    const t0 = (await time.latest()) + 100
    // One second short of what a seat won in the race needs: start (t0 + window + 1) + runtime + grace.
    const needed = t0 + WINDOW + 1 + SEAT_TIME
    const short = await submitRace(m, 2, { deadline: needed - 1 }, t0)
    assert.equal(short.submittedAt, t0)
    await mineToSeed(m, short.taskId)
    await revertWithCustomErrorWithArgs(
      m.market.write.claimTask([short.taskId], { account: alice.account }),
      m.market,
      'TaskMarketClaimWindowTooShort',
      [short.taskId, needed - 1, BigInt(needed)],
    )
    // A k = 1 task with the same deadline is claimed: its time starts at the claim.
    const single = await submitRace(m, 1, { deadline: needed - 1 })
    await m.market.write.claimTask([single.taskId], { account: bob.account })
    // After the race a claim's time starts at once, which is no earlier: still refused.
    await atTime(m, t0 + WINDOW + 1)
    await revertWithCustomErrorWithArgs(
      m.market.write.claimTask([short.taskId], { account: alice.account }),
      m.market,
      'TaskMarketClaimWindowTooShort',
      [short.taskId, needed - 1, BigInt(needed)],
    )
    // Exactly enough: the claim is accepted and due at the deadline.
    const t1 = t0 + WINDOW + 1_000
    const exact = await submitRace(m, 2, { deadline: t1 + WINDOW + 1 + SEAT_TIME }, t1)
    await mineToSeed(m, exact.taskId)
    const accepted = await m.market.write.claimTask([exact.taskId], { account: alice.account })
    await emitWithArgs(accepted, m.market, 'TaskClaimed', [
      exact.taskId,
      alice.account.address,
      0,
      t1 + WINDOW + 1 + SEAT_TIME,
      grid(10),
    ])
    // The task nobody could claim expires: the client gets its whole escrow back, nobody is slashed.
    const terms = await taskTerms(m, short.taskId)
    const tracked = [m.client, m.creator, alice, bob]
    const before = await ledger(m, tracked)
    await atTime(m, needed)
    const expired = await m.market.write.expireTask([short.taskId])
    assertSettlement(before, await ledger(m, tracked), settlementModel(terms, DEFAULT_MARKET_PARAMS, []))
    await emitWithArgs(expired, m.market, 'TaskFinalized', [
      short.taskId,
      m.client.account.address,
      TaskStatus.Expired,
      zeroHash,
      0n,
      2n * M,
    ])
  })
})

describe('TaskMarket: the seat race is stake-weighted, so splitting a stake buys no seats', () => {
  it('Monte Carlo of the contract’s tickets: a sybil with a fraction f of the stake, split over s accounts, holds a majority of k = 3 seats with the exact probability, never above 3f² − 2f³', () => {
    // The eligible stake: honest providers of 100 GRID each, (1 − f) × 40 of them, and a sybil holding f × 40 ×
    // 100 GRID split evenly over s accounts. Every account claims during the race; the k = 3 lowest tickets hold
    // the seats. Exact: the seats are the first three arrivals of exponential clocks with rates ∝ stake, i.e.
    // filled one by one, each by an account still out with probability ∝ its stake (Plackett–Luce). The sybil's
    // chance of the first seat is exactly f however it splits; splitting only lets it hold more than one seat, and
    // even split finely its majority chance stays at most 3f² − 2f³, that of three seats each drawn with
    // probability f (a sybil in one account never holds two seats).
    const TRIALS = 4_000
    const UNITS = 40
    const HONEST_STAKE = grid(100)
    const fs = [0.1, 0.2, 0.3, 0.4, 0.5] as const
    const splits = [2, 4, 12] as const
    const honest = Array.from({ length: UNITS }, (_, i) => labelAccount(`seat race: honest ${i}`))
    const sybils = new Map(
      splits.map((s) => [s, Array.from({ length: s }, (_, j) => labelAccount(`seat race: sybil ${s}.${j}`))]),
    )
    const majority = new Map<string, number>()
    const first = new Map<string, number>()
    const key = (f: number, s: number) => `${f}/${s}`
    for (let trial = 0; trial < TRIALS; trial++) {
      const seed = keccak256(toHex(`seat race trial ${trial}`))
      const honestBase = honest.map((account) => negLog2(seed, account))
      const sybilBase = new Map(
        splits.map((s) => [s, sybils.get(s)!.map((account) => negLog2(seed, account))]),
      )
      for (const f of fs) {
        const honestCount = Math.round((1 - f) * UNITS)
        const sybilStake = HONEST_STAKE * BigInt(Math.round(f * UNITS))
        // TaskAudits._ticket: (−log2(u) << 96) / stake.
        const honestTickets = honestBase.slice(0, honestCount).map((base) => (base << 96n) / HONEST_STAKE)
        for (const s of splits) {
          const each = sybilStake / BigInt(s)
          const tickets = [
            ...honestTickets.map((score) => ({ score, sybil: false })),
            ...sybilBase.get(s)!.map((base) => ({ score: (base << 96n) / each, sybil: true })),
          ]
          const seats = lowest(tickets, 3)
          const k = key(f, s)
          if (seats.filter((seat) => seat.sybil).length >= 2) majority.set(k, (majority.get(k) ?? 0) + 1)
          if (seats[0]!.sybil) first.set(k, (first.get(k) ?? 0) + 1)
        }
      }
    }

    const rows: string[] = [
      `k = 3 seats, ${TRIALS} races per cell; sybil majority (≥ 2 seats): Monte Carlo of the contract's tickets vs exact`,
      ' f    | 3f²−2f³ | s = 1 exact | s = 2 MC / exact | s = 4 MC / exact | s = 12 MC / exact | first seat (s = 12) MC',
    ]
    for (const f of fs) {
      const honestCount = Math.round((1 - f) * UNITS)
      const sybilUnits = Math.round(f * UNITS)
      const iid = 3 * f * f - 2 * f ** 3
      const cells: string[] = []
      let previous = plackettLuceMajority(1, sybilUnits, honestCount)
      assert.equal(previous, 0, 'one account holds at most one seat')
      for (const s of splits) {
        const exact = plackettLuceMajority(s, sybilUnits / s, honestCount)
        const measured = (majority.get(key(f, s)) ?? 0) / TRIALS
        const sigma = Math.sqrt((exact * (1 - exact)) / TRIALS)
        assert.ok(
          Math.abs(measured - exact) <= 4 * sigma + 0.003,
          `f ${f}, s ${s}: Monte Carlo ${measured} vs exact ${exact.toFixed(4)}`,
        )
        assert.ok(exact <= iid + 1e-12, `f ${f}, s ${s}: splitting never buys more than 3f² − 2f³`)
        assert.ok(exact >= previous, 'a finer split only approaches it')
        previous = exact
        cells.push(`${measured.toFixed(4)} / ${exact.toFixed(4)}`)
      }
      assert.ok(iid - previous < 0.01, `f ${f}: split over 12 accounts, within 0.01 of 3f² − 2f³`)
      // The first seat goes to the sybil with probability f exactly, however the stake is split.
      const firstSeat = (first.get(key(f, 12)) ?? 0) / TRIALS
      assert.ok(
        Math.abs(firstSeat - f) <= 4 * Math.sqrt((f * (1 - f)) / TRIALS),
        `f ${f}: first seat ${firstSeat}`,
      )
      rows.push(
        ` ${f.toFixed(1)}  | ${iid.toFixed(4)}  | 0.0000      | ${cells.join('  | ')}  | ${firstSeat.toFixed(4)}`,
      )
    }
    console.log(rows.join('\n'))
  })
})

/** The `count` lowest tickets, lowest first. */
function lowest<T extends { score: bigint }>(tickets: readonly T[], count: number): T[] {
  const best: T[] = []
  for (const t of tickets) {
    if (best.length === count && t.score >= best[count - 1]!.score) continue
    let i = Math.min(best.length, count - 1)
    best[i] = t
    while (i > 0 && best[i - 1]!.score > best[i]!.score) {
      ;[best[i - 1], best[i]] = [best[i]!, best[i - 1]!]
      i--
    }
  }
  return best
}

/**
 * The exact probability that `sybilAccounts` accounts of stake `sybilStake` each hold at least 2 of 3 seats
 * against `honestAccounts` of stake 1 each: the seats are filled one by one, each by an account still out with
 * probability proportional to its stake (the order of the lowest exponential tickets).
 */
function plackettLuceMajority(sybilAccounts: number, sybilStake: number, honestAccounts: number): number {
  const go = (sybil: number, honestLeft: number, seats: number, held: number): number => {
    if (held >= 2) return 1
    if (seats === 0) return 0
    const total = sybil * sybilStake + honestLeft
    let p = 0
    if (sybil > 0) p += ((sybil * sybilStake) / total) * go(sybil - 1, honestLeft, seats - 1, held + 1)
    if (honestLeft > 0) p += (honestLeft / total) * go(sybil, honestLeft - 1, seats - 1, held)
    return p
  }
  return go(sybilAccounts, honestAccounts, 3, 0)
}
