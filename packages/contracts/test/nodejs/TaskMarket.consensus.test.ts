import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { network } from 'hardhat'
import { type Hex, zeroHash } from 'viem'
import { commitment, grid, sealOf, type Wallet } from './helpers/fixture.js'
import {
  assertLedgerUnchanged,
  assertSettlement,
  atTime,
  auditRound,
  blockTime,
  claim,
  commit,
  DEFAULT_MARKET_PARAMS,
  digestOf,
  endRace,
  ledger,
  type Market,
  RECEIPT_CID,
  RESULT_CID,
  reveal,
  SlotStatus,
  SOURCE_MAX_RUNTIME_SEC,
  saltOf,
  seatRace,
  settlementModel,
  submitOnSource,
  TaskStatus,
  taskTerms,
  useMarketFixture,
} from './helpers/market.js'

const connection = await network.create()
const { viem } = connection

// Every scenario ends with the DESIGN.md §2.5 invariants (and the per-account sums behind them).
const load = useMarketFixture(connection)

const REVEAL_WINDOW = DEFAULT_MARKET_PARAMS.revealWindow

/** A replica's run: `digest` is its output's digest; it commits to and reveals the seal of it (see sealOf). */
interface Replica {
  wallet: Wallet
  digest: Hex
  salt: Hex
}

/**
 * Submits a k-replica task and has every replica claim (in order, once the race's seed is known: with k claims
 * for k seats each takes the next free seat), then, once the race is over, commit `workSec` (+ its index) after
 * the seats' start. Returns the task id, the seats' start (the race's end + 1: every raced seat starts then), the
 * last commit time and the reveal deadline.
 */
async function claimAndCommitAll(m: Market, replicas: Replica[], overrides = {}, workSec = 120) {
  const taskId = await submitOnSource(m, { maxPayment: grid(20), replicas: replicas.length, ...overrides })
  for (const [i, r] of replicas.entries()) assert.equal((await claim(m, r.wallet, taskId)).slot, i)
  const { seatStart } = await seatRace(m, taskId)
  await endRace(m, taskId)
  let commitHash: Hex | undefined
  for (const [i, r] of replicas.entries()) {
    await atTime(m, seatStart + workSec + i)
    commitHash = await commit(m, r.wallet, taskId, r.digest, r.salt)
  }
  const committedAt = await blockTime(m, commitHash!)
  return {
    taskId,
    seatStart,
    committedAt,
    revealDeadline: committedAt + REVEAL_WINDOW,
    lastCommitHash: commitHash!,
  }
}

function replica(wallet: Wallet, label: string, result: string): Replica {
  return { wallet, digest: digestOf(result), salt: saltOf(`${label}:${result}`) }
}

describe('TaskMarket consensus (k > 1)', () => {
  it('k = 2: both agree, both paid; events of commit, reveal opening, reveal and settlement', async () => {
    const m = await load()
    const { market, client, creator } = m
    const [alice, bob] = m.provs as [Wallet, Wallet]
    const a = replica(alice, 'alice', 'same')
    const b = replica(bob, 'bob', 'same')
    const taskId = await submitOnSource(m, { maxPayment: grid(20), replicas: 2 })
    await claim(m, alice, taskId)
    const bobClaim = await claim(m, bob, taskId)
    assert.equal(bobClaim.slot, 1)
    assert.equal((await market.read.getTask([taskId])).status, TaskStatus.Claimed)
    // Seats won in the race start when it ends; Alice commits one second into hers.
    const { seatStart } = await seatRace(m, taskId)
    assert.equal(bobClaim.dueAt, seatStart + SOURCE_MAX_RUNTIME_SEC + DEFAULT_MARKET_PARAMS.claimGrace)
    await endRace(m, taskId)
    await atTime(m, seatStart + 1)

    // Replicas commit to the seal of their output's digest, never the digest itself.
    const aCommitment = commitment(taskId, alice.account.address, sealOf(taskId, a.digest), a.salt)
    const first = await commit(m, alice, taskId, a.digest, a.salt)
    await viem.assertions.emitWithArgs(first, market, 'ResultCommitted', [
      taskId,
      alice.account.address,
      0,
      aCommitment,
    ])
    const firstAt = await blockTime(m, first)
    let slots = await market.read.getSlots([taskId])
    assert.equal(slots[0]!.status, SlotStatus.Committed)
    assert.equal(slots[0]!.commitment, aCommitment)
    assert.equal(slots[0]!.dueAt, firstAt, 'dueAt becomes the commit time')
    assert.equal((await market.read.getTask([taskId])).committed, 1)

    const second = await commit(m, bob, taskId, b.digest, b.salt)
    const secondAt = await blockTime(m, second)
    await viem.assertions.emitWithArgs(second, market, 'ResultCommitted', [
      taskId,
      bob.account.address,
      1,
      commitment(taskId, bob.account.address, sealOf(taskId, b.digest), b.salt),
    ])
    await viem.assertions.emitWithArgs(second, market, 'RevealOpened', [taskId, secondAt + REVEAL_WINDOW])
    let task = await market.read.getTask([taskId])
    assert.equal(task.status, TaskStatus.Revealing)
    assert.equal(task.revealDeadline, secondAt + REVEAL_WINDOW)
    assert.equal(task.committed, 2)

    const firstReveal = await reveal(m, alice, taskId, a.digest, a.salt, 1)
    await viem.assertions.emitWithArgs(firstReveal, market, 'ResultRevealed', [
      taskId,
      alice.account.address,
      0,
      sealOf(taskId, a.digest),
      RESULT_CID,
      RECEIPT_CID,
      1,
    ])
    task = await market.read.getTask([taskId])
    assert.equal(task.status, TaskStatus.Revealing)
    assert.equal(task.revealed, 1)
    slots = await market.read.getSlots([taskId])
    assert.equal(slots[0]!.status, SlotStatus.Submitted)
    assert.equal(
      slots[0]!.commitment,
      sealOf(taskId, a.digest),
      'the commitment is replaced by the revealed seal',
    )
    assert.equal(slots[0]!.runtimeSec, 1)

    const terms = await taskTerms(m, taskId)
    const before = await ledger(m, [client, alice, bob, creator])
    const last = await reveal(m, bob, taskId, b.digest, b.salt, 1)
    const after = await ledger(m, [client, alice, bob, creator])
    const model = settlementModel(terms, DEFAULT_MARKET_PARAMS, [
      { provider: alice.account.address, kind: 'paid', runtimeSec: 1 },
      { provider: bob.account.address, kind: 'paid', runtimeSec: 1 },
    ])
    assertSettlement(before, after, model)
    for (const [slot, provider] of [alice, bob].entries()) {
      await viem.assertions.emitWithArgs(last, market, 'ReplicaPaid', [
        taskId,
        provider.account.address,
        slot,
        grid(20),
        grid(1),
      ])
    }
    await viem.assertions.emitWithArgs(last, market, 'TaskFinalized', [
      taskId,
      client.account.address,
      TaskStatus.Completed,
      sealOf(taskId, a.digest),
      grid(40),
      0n,
    ])
    assert.equal((await market.read.getTask([taskId])).status, TaskStatus.Completed)
    for (const p of [alice, bob]) {
      const reputation = await m.providers.read.getReputation([p.account.address])
      assert.equal(reputation.completed, 1)
      assert.equal(reputation.claimed, 1)
    }
  })

  it('k = 2: results that differ open a dispute: nothing is paid, refunded or slashed until auditors decide', async () => {
    const m = await load()
    const [alice, bob] = m.provs as [Wallet, Wallet]
    const reps = [replica(alice, 'a', 'x'), replica(bob, 'b', 'y')]
    const { taskId } = await claimAndCommitAll(m, reps)
    await reveal(m, alice, taskId, reps[0]!.digest, reps[0]!.salt)
    const before = await ledger(m, [m.client, alice, bob, m.creator])
    const hash = await reveal(m, bob, taskId, reps[1]!.digest, reps[1]!.salt)
    assertLedgerUnchanged(before, await ledger(m, [m.client, alice, bob, m.creator]))
    assert.equal((await m.market.read.getTask([taskId])).status, TaskStatus.Auditing)
    await viem.assertions.emitWithArgs(hash, m.market, 'AuditDrawn', [taskId, true])
    const audit = await m.market.read.getAudit([taskId])
    // Round 1: one auditor, in the first slot after the replicas.
    assert.deepEqual([audit.round, audit.firstSlot, audit.auditors], [1, 2, 1])
    for (const p of [alice, bob]) {
      assert.equal(
        (await m.staking.read.stakeOf([p.account.address])).locked,
        grid(10),
        'collateral stays locked',
      )
    }
  })

  it('k = 3: once an auditor confirms the majority, the outvoted provider is slashed and counted as outvoted; the auditor is paid', async () => {
    const m = await load()
    const { market, client } = m
    const [alice, bob, carol] = m.provs as [Wallet, Wallet, Wallet]
    const dave = m.provs[3] as Wallet
    const reps = [replica(alice, 'a', 'good'), replica(bob, 'b', 'bad'), replica(carol, 'c', 'good')]
    const { taskId } = await claimAndCommitAll(m, reps)
    for (const r of reps) await reveal(m, r.wallet, taskId, r.digest, r.salt)
    assert.equal(
      (await market.read.getTask([taskId])).status,
      TaskStatus.Auditing,
      'the minority is heard first',
    )
    assert.equal((await m.market.read.getTask([taskId])).collateral, grid(10))
    const clientBefore = await market.read.balanceOf([client.account.address])
    const hash = await auditRound(m, taskId, [[dave, reps[0]!.digest]])
    // client: refund of the unpaid replica (20) less what Bob's slashed 10 could not pay of Dave's 20
    assert.equal((await market.read.balanceOf([client.account.address])) - clientBefore, grid(10))
    await viem.assertions.emitWithArgs(hash, market, 'ProviderSlashed', [
      taskId,
      bob.account.address,
      1,
      grid(10),
      0n,
      true,
    ])
    await viem.assertions.emitWithArgs(hash, market, 'ReplicaPaid', [
      taskId,
      dave.account.address,
      3,
      grid(20),
      grid(1),
    ])
    await viem.assertions.emitWithArgs(hash, market, 'ReplicaPaid', [
      taskId,
      alice.account.address,
      0,
      grid(20),
      grid(1),
    ])
    await viem.assertions.emitWithArgs(hash, market, 'ReplicaPaid', [
      taskId,
      carol.account.address,
      2,
      grid(20),
      grid(1),
    ])
    await viem.assertions.emitWithArgs(hash, market, 'TaskFinalized', [
      taskId,
      client.account.address,
      TaskStatus.Completed,
      sealOf(taskId, reps[0]!.digest),
      grid(60),
      grid(10),
    ])
    const bobReputation = await m.providers.read.getReputation([bob.account.address])
    assert.equal(bobReputation.outvoted, 1)
    assert.equal(bobReputation.failed, 0)
    assert.equal(bobReputation.completed, 0)
    assert.equal(bobReputation.slashedAmount, grid(10))
    assert.equal((await m.providers.read.getReputation([alice.account.address])).completed, 1)
    assert.equal((await m.providers.read.getReputation([carol.account.address])).completed, 1)
  })

  it('k = 3, results that differ and one never revealed: finalize forfeits the non-revealer and opens the dispute', async () => {
    const m = await load()
    const { market, client, creator } = m
    const [alice, bob, carol] = m.provs as [Wallet, Wallet, Wallet]
    const reps = [replica(alice, 'a', 'one'), replica(bob, 'b', 'two'), replica(carol, 'c', 'three')]
    const { taskId, revealDeadline } = await claimAndCommitAll(m, reps)
    await reveal(m, alice, taskId, reps[0]!.digest, reps[0]!.salt)
    await reveal(m, bob, taskId, reps[1]!.digest, reps[1]!.salt)
    // carol never reveals; nobody can finalize while the window is open
    await atTime(m, revealDeadline)
    await viem.assertions.revertWithCustomErrorWithArgs(
      market.write.finalizeTask([taskId]),
      market,
      'TaskMarketRevealStillOpen',
      [taskId, revealDeadline],
    )
    await atTime(m, revealDeadline + 1)
    const before = await ledger(m, [client, alice, bob, creator])
    const hash = await market.write.finalizeTask([taskId], { account: m.others[1]!.account })
    const after = await ledger(m, [client, alice, bob, creator])
    // Nobody is paid or refunded yet: Carol's collateral joins the dispute's pot (the market holds it; the
    // client's share is decided when the dispute settles).
    assert.deepEqual(after.balances, before.balances)
    assert.equal(after.marketTokens - before.marketTokens, grid(10))
    await viem.assertions.emitWithArgs(hash, market, 'ProviderSlashed', [
      taskId,
      carol.account.address,
      2,
      grid(10),
      0n,
      false,
    ])
    assert.equal((await market.read.getTask([taskId])).status, TaskStatus.Auditing)
    assert.equal((await market.read.getAudit([taskId])).slashed, grid(10))
    const carolReputation = await m.providers.read.getReputation([carol.account.address])
    assert.equal(carolReputation.failed, 1)
    assert.equal(carolReputation.outvoted, 0)
  })

  it('k = 3, three different results and no auditor: the dispute lapses, nobody is slashed, the client is refunded', async () => {
    const m = await load()
    const [alice, bob, carol] = m.provs as [Wallet, Wallet, Wallet]
    const reps = [replica(alice, 'a', '1'), replica(bob, 'b', '2'), replica(carol, 'c', '3')]
    const { taskId } = await claimAndCommitAll(m, reps)
    for (const r of reps) await reveal(m, r.wallet, taskId, r.digest, r.salt)
    const terms = await taskTerms(m, taskId)
    const before = await ledger(m, [m.client, alice, bob, carol, m.creator])
    await atTime(m, (await m.market.read.getAudit([taskId])).joinDeadline + 1)
    const hash = await m.market.write.finalizeTask([taskId])
    const after = await ledger(m, [m.client, alice, bob, carol, m.creator])
    assertSettlement(
      before,
      after,
      settlementModel(terms, DEFAULT_MARKET_PARAMS, [
        { provider: alice.account.address, kind: 'unlocked' },
        { provider: bob.account.address, kind: 'unlocked' },
        { provider: carol.account.address, kind: 'unlocked' },
      ]),
    )
    await viem.assertions.emitWithArgs(hash, m.market, 'TaskFinalized', [
      taskId,
      m.client.account.address,
      TaskStatus.Failed,
      zeroHash,
      0n,
      grid(60),
    ])
  })

  it('k = 3, two agree and one never reveals: finalize after the window pays the two, slashes the third', async () => {
    const m = await load()
    const [alice, bob, carol] = m.provs as [Wallet, Wallet, Wallet]
    const reps = [replica(alice, 'a', 'r'), replica(bob, 'b', 'r'), replica(carol, 'c', 'r')]
    const { taskId, revealDeadline } = await claimAndCommitAll(m, reps)
    await reveal(m, alice, taskId, reps[0]!.digest, reps[0]!.salt)
    await reveal(m, carol, taskId, reps[2]!.digest, reps[2]!.salt)
    const terms = await taskTerms(m, taskId)
    const before = await ledger(m, [m.client, alice, bob, carol, m.creator])
    await atTime(m, revealDeadline + 1)
    const hash = await m.market.write.finalizeTask([taskId])
    const after = await ledger(m, [m.client, alice, bob, carol, m.creator])
    assertSettlement(
      before,
      after,
      settlementModel(terms, DEFAULT_MARKET_PARAMS, [
        { provider: alice.account.address, kind: 'paid', runtimeSec: 60 },
        { provider: bob.account.address, kind: 'slashed' },
        { provider: carol.account.address, kind: 'paid', runtimeSec: 60 },
      ]),
    )
    await viem.assertions.emitWithArgs(hash, m.market, 'ProviderSlashed', [
      taskId,
      bob.account.address,
      1,
      grid(10),
      grid(5),
      false,
    ])
    await viem.assertions.emitWithArgs(hash, m.market, 'TaskFinalized', [
      taskId,
      m.client.account.address,
      TaskStatus.Completed,
      sealOf(taskId, reps[0]!.digest),
      grid(40),
      grid(20),
    ])
  })

  it('k = 4 split 2–2 and k = 5 split 3–2 are disputed; unaudited, only a strict majority is paid and nobody is slashed', async () => {
    const m = await load()
    const extra = m.providerWallets.slice(4, 5)
    for (const w of extra) await m.registerProvider(w, { sourceIds: [m.sourceId] })
    const five = [...m.provs, ...extra] as Wallet[]

    const split = five.slice(0, 4).map((w, i) => replica(w, `s${i}`, i < 2 ? 'p' : 'q'))
    const four = await claimAndCommitAll(m, split)
    for (const r of split) await reveal(m, r.wallet, four.taskId, r.digest, r.salt)
    assert.equal((await m.market.read.getTask([four.taskId])).status, TaskStatus.Auditing)
    await atTime(m, (await m.market.read.getAudit([four.taskId])).joinDeadline + 1)
    const lapsed = await m.market.write.finalizeTask([four.taskId])
    await viem.assertions.emitWithArgs(lapsed, m.market, 'TaskFinalized', [
      four.taskId,
      m.client.account.address,
      TaskStatus.Failed,
      zeroHash,
      0n,
      grid(80),
    ])
    await m.checkInvariants()

    const vote = five.map((w, i) => replica(w, `v${i}`, i < 3 ? 'maj' : `min${i}`))
    const k5 = await claimAndCommitAll(m, vote)
    const terms = await taskTerms(m, k5.taskId)
    for (const r of vote) await reveal(m, r.wallet, k5.taskId, r.digest, r.salt)
    assert.equal((await m.market.read.getTask([k5.taskId])).status, TaskStatus.Auditing)
    const before = await ledger(m, [m.client, m.creator, ...five])
    await atTime(m, (await m.market.read.getAudit([k5.taskId])).joinDeadline + 1)
    const hash = await m.market.write.finalizeTask([k5.taskId])
    const after = await ledger(m, [m.client, m.creator, ...five])
    assertSettlement(
      before,
      after,
      settlementModel(
        terms,
        DEFAULT_MARKET_PARAMS,
        vote.map((r, i) =>
          i < 3
            ? { provider: r.wallet.account.address, kind: 'paid', runtimeSec: 60 }
            : { provider: r.wallet.account.address, kind: 'unlocked' },
        ),
      ),
    )
    await viem.assertions.emitWithArgs(hash, m.market, 'TaskFinalized', [
      k5.taskId,
      m.client.account.address,
      TaskStatus.Completed,
      sealOf(k5.taskId, vote[0]!.digest),
      grid(60),
      grid(40),
    ])
  })

  it('metered k = 3: revealed runtimes are capped by commit time − claim time; winners are paid their median', async () => {
    const m = await load()
    const [alice, bob, carol] = m.provs as [Wallet, Wallet, Wallet]
    const reps = [replica(alice, 'a', 'm'), replica(bob, 'b', 'm'), replica(carol, 'c', 'm')]
    const { taskId, seatStart } = await claimAndCommitAll(m, reps, { pricePerSecond: grid('0.01') }, 300)
    const slots = await m.market.read.getSlots([taskId])
    const elapsed = slots.map((s, i) => {
      assert.equal(s.claimedAt, seatStart, 'a seat won in the race starts when the race ends')
      assert.equal(s.dueAt, seatStart + 300 + i, 'dueAt holds the commit time once committed')
      return s.dueAt - s.claimedAt
    })
    // Alice over-reports; Bob under-reports; Carol reports exactly. Each is paid for the median of the three.
    const reported = [elapsed[0]! + 10_000, 50, elapsed[2]!]
    const counted = [elapsed[0]!, 50, elapsed[2]!]
    const median = [...counted].sort((a, b) => a - b)[1]!
    await reveal(m, alice, taskId, reps[0]!.digest, reps[0]!.salt, reported[0])
    await reveal(m, bob, taskId, reps[1]!.digest, reps[1]!.salt, reported[1])
    const terms = await taskTerms(m, taskId)
    const before = await ledger(m, [m.client, alice, bob, carol, m.creator])
    const hash = await reveal(m, carol, taskId, reps[2]!.digest, reps[2]!.salt, reported[2])
    const after = await ledger(m, [m.client, alice, bob, carol, m.creator])
    const model = settlementModel(
      terms,
      DEFAULT_MARKET_PARAMS,
      reps.map((r) => ({ provider: r.wallet.account.address, kind: 'paid', runtimeSec: median })),
    )
    assertSettlement(before, after, model)
    const revealed = await m.market.read.getSlots([taskId])
    assert.deepEqual(
      revealed.map((s) => s.runtimeSec),
      counted,
    )
    await viem.assertions.emitWithArgs(hash, m.market, 'TaskFinalized', [
      taskId,
      m.client.account.address,
      TaskStatus.Completed,
      sealOf(taskId, reps[0]!.digest),
      model.paid,
      grid(60) - model.paid,
    ])
  })

  it('metered k = 2: one winner over-reporting its runtime does not raise the bill (the lower median)', async () => {
    const m = await load()
    const [alice, bob] = m.provs as [Wallet, Wallet]
    const reps = [replica(alice, 'a', 'm2'), replica(bob, 'b', 'm2')]
    const { taskId } = await claimAndCommitAll(m, reps, { replicas: 2, pricePerSecond: grid('0.01') }, 600)
    await reveal(m, alice, taskId, reps[0]!.digest, reps[0]!.salt, 2 ** 32 - 1) // all the time it had
    const terms = await taskTerms(m, taskId)
    const before = await ledger(m, [m.client, alice, bob, m.creator])
    await reveal(m, bob, taskId, reps[1]!.digest, reps[1]!.salt, 100)
    const after = await ledger(m, [m.client, alice, bob, m.creator])
    const model = settlementModel(
      terms,
      DEFAULT_MARKET_PARAMS,
      reps.map((r) => ({ provider: r.wallet.account.address, kind: 'paid', runtimeSec: 100 })),
    )
    assert.equal(model.paid, grid(2))
    assertSettlement(before, after, model)
  })

  it('a no-show on a k = 3 task is reopened while others have committed; a newcomer completes the quorum', async () => {
    const m = await load()
    const [alice, bob, carol, dave] = m.provs as [Wallet, Wallet, Wallet, Wallet]
    const taskId = await submitOnSource(m, { maxPayment: grid(20), replicas: 3 })
    await claim(m, alice, taskId)
    const bobClaim = await claim(m, bob, taskId)
    await claim(m, carol, taskId)
    const a = replica(alice, 'a', 'ok')
    const c = replica(carol, 'c', 'ok')
    const d = replica(dave, 'd', 'ok')
    await commit(m, alice, taskId, a.digest, a.salt)
    await commit(m, carol, taskId, c.digest, c.salt)
    // committed slots cannot be reopened, ever
    await atTime(m, bobClaim.dueAt + 1)
    await viem.assertions.revertWithCustomErrorWithArgs(
      m.market.write.reopenSlot([taskId, 0]),
      m.market,
      'TaskMarketSlotNotClaimed',
      [taskId, 0],
    )
    const hash = await m.market.write.reopenSlot([taskId, 1])
    await viem.assertions.emitWithArgs(hash, m.market, 'SlotReopened', [taskId, bob.account.address, 1])
    let task = await m.market.read.getTask([taskId])
    assert.equal(task.status, TaskStatus.Open)
    assert.equal(task.openSlots, 0b010)
    assert.equal(task.committed, 2)

    const daveClaim = await claim(m, dave, taskId)
    assert.equal(daveClaim.slot, 1)
    const opened = await commit(m, dave, taskId, d.digest, d.salt)
    await viem.assertions.emit(opened, m.market, 'RevealOpened')
    for (const r of [a, c]) await reveal(m, r.wallet, taskId, r.digest, r.salt)
    const last = await reveal(m, dave, taskId, d.digest, d.salt)
    await viem.assertions.emitWithArgs(last, m.market, 'ReplicaPaid', [
      taskId,
      dave.account.address,
      1,
      grid(20),
      grid(1),
    ])
    task = await m.market.read.getTask([taskId])
    assert.equal(task.status, TaskStatus.Completed)
  })
})
