/**
 * Sealed results: an auditor cannot copy a result it did not compute. Outputs are encrypted to the client
 * (TaskParams.resultKey), so the chain shows only seals, sealOf(taskId, digest): providers hand in seals, replicas
 * commit to and reveal seals, and auditors reveal the plain digest they found, which the market seals before it
 * compares. An auditor that answers with the seal it read, without computing, reveals a "digest" the market seals
 * again: it never matches. Each test is about what such an attacker gains (nothing: it is outvoted and slashed),
 * with the money checked to the wei. Each fails on the contracts before sealing (4bbb812^), which kept what an
 * auditor revealed as it was: there a copied value upheld the result in round 1 and was paid.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { network } from 'hardhat'
import type { NetworkConnection } from 'hardhat/types/network'
import { type Hex, keccak256, toHex } from 'viem'
import { DEFAULT_INPUT_CID, grid, RESULT_KEY, sealOf, type Wallet } from './helpers/fixture.js'
import {
  AuditVerdict,
  addressOf,
  auditRound,
  checkSums,
  claim,
  commit,
  DEFAULT_MARKET_PARAMS,
  deployMarket,
  endRace,
  type Ledger,
  ledger,
  RECEIPT_CID,
  RESULT_CID,
  releaseWithDraw,
  reveal,
  SOURCE_CREATOR_FEE_BPS,
  saltOf,
  splitPayment,
  submitHeld,
  submitOnSource,
  TaskStatus,
  tagOf,
} from './helpers/market.js'

const connection = await network.create()
const { viem, networkHelpers } = connection
const { emitWithArgs } = viem.assertions

const BPS = 10_000n
/** The fixture's default price: a fixed 10 GRID per replica. */
const M = grid(10)
/** The failure fee of the `failing` source: a failed fixed-price run is paid 20 % of the price. */
const FAILURE_FEE_BPS = 2_000
/** The digest every honest run of the task finds: only its provider and its client know it. */
const HONEST = keccak256(toHex('the output every honest run produces'))
/** What a replica that did not compute reveals in the dispute. */
const GARBAGE = keccak256(toHex('what a replica that did not compute reveals'))
/** What a validator reveals when it passes the result (libraries/Results.sol, VALIDATION_PASSED). */
const VALIDATION_PASSED = keccak256(toHex('gridforge.validation.passed'))
/** The fee terms of every payment here: the default protocol fee and staker share, the sources' creator fee. */
const TERMS = {
  feeBps: DEFAULT_MARKET_PARAMS.protocolFeeBps,
  discountBps: 0,
  creatorFeeBps: SOURCE_CREATOR_FEE_BPS,
  stakerShareBps: DEFAULT_MARKET_PARAMS.stakerShareBps,
}
/** One fixed-price payment of M, split. */
const PAY = splitPayment(M, TERMS)

/** The digest of a failed run, as libraries/Results.sol lays it out. */
function failureDigest(kind: number, exitCode = 0): Hex {
  return `0x${kind.toString(16).padStart(2, '0')}${exitCode.toString(16).padStart(2, '0')}${'00'.repeat(22)}67663a6661696c00`
}

/**
 * The market fixture plus the sources sealing has exceptions for: `failing`, deterministic with a 20 % failure fee,
 * and `validated`, not deterministic, whose results a deterministic validator checks (both with the fixture's
 * creator fee). Seven providers, subscribed to every source.
 */
async function deploySealed(connection: NetworkConnection) {
  const m = await deployMarket(connection)
  const failing = await m.publishSource(m.creator, {
    creatorFeeBps: SOURCE_CREATOR_FEE_BPS,
    failureFeeBps: FAILURE_FEE_BPS,
  })
  const validator = await m.publishSource(m.creator, { requirements: { maxRuntimeSec: 600 } })
  const validated = await m.publishSource(m.creator, {
    creatorFeeBps: SOURCE_CREATOR_FEE_BPS,
    requirements: { deterministic: false },
    validator,
  })
  const added = [failing, validator, validated]
  for (const wallet of m.provs) await m.providers.write.subscribe([added], { account: wallet.account })
  const extra = m.providerWallets.slice(4, 7)
  for (const wallet of extra) await m.registerProvider(wallet, { sourceIds: [m.sourceId, ...added] })
  return { ...m, provs: [...m.provs, ...extra], failing, validated }
}
type World = Awaited<ReturnType<typeof deploySealed>>

const load = () => networkHelpers.loadFixture(deploySealed)

/** What a wallet's money moved between two ledgers: its internal balance, its stake and its locked collateral. */
function moved(before: Ledger, after: Ledger, wallet: Wallet) {
  const address = addressOf(wallet)
  const stake = (l: Ledger) => l.stakes.get(address) ?? { staked: 0n, locked: 0n }
  return {
    balance: (after.balances.get(address) ?? 0n) - (before.balances.get(address) ?? 0n),
    staked: stake(after).staked - stake(before).staked,
    locked: stake(after).locked - stake(before).locked,
  }
}

/**
 * What the client's money moved between two ledgers: its internal balance and its wallet together (a submission
 * pulls the part of the escrow its balance lacks from its wallet).
 */
function clientPaid(before: Ledger, after: Ledger, client: Wallet) {
  const address = addressOf(client)
  const wealth = (l: Ledger) => (l.balances.get(address) ?? 0n) + (l.tokens.get(address) ?? 0n)
  return wealth(before) - wealth(after)
}

/** The seal the chain shows for a k = 1 result: what ResultSubmitted carried. */
async function sealSubmitted(w: World, hash: Hex): Promise<Hex> {
  const [submitted] = await w.getEvents(hash, w.market, 'ResultSubmitted')
  assert.ok(submitted !== undefined, 'ResultSubmitted not emitted')
  return submitted.resultDigest
}

/** `provider` claims the k = 1 task `taskId` and submits the seal of `digest`; returns the submission's hash. */
async function deliver(w: World, provider: Wallet, taskId: bigint, digest: Hex): Promise<Hex> {
  await claim(w, provider, taskId)
  await networkHelpers.time.increase(60)
  return w.market.write.submitResult([taskId, sealOf(taskId, digest), RESULT_CID, RECEIPT_CID, 60], {
    account: provider.account,
  })
}

describe('TaskMarket: sealed results', () => {
  it('a lazy auditor of a held result answers with the seal it read: it does not uphold it, is outvoted and slashed; the honest provider is paid in full', async () => {
    const w = await load()
    const [provider, lazy, second, third] = w.provs as [Wallet, Wallet, Wallet, Wallet]
    const tracked = [w.client, provider, lazy, second, third]
    const start = await ledger(w, tracked)
    const taskId = await submitOnSource(w)
    const bond = (await w.market.read.getTask([taskId])).collateral
    assert.equal(bond, 9n * M, 'the audit bond at p = 10 %')
    await claim(w, provider, taskId)
    const { hash } = await submitHeld(w, provider, taskId, HONEST)
    await releaseWithDraw(w, taskId, true)

    // All the lazy auditor can see of the result is its seal; it reveals that, without running anything.
    const seen = await sealSubmitted(w, hash)
    assert.equal(seen, sealOf(taskId, HONEST))
    const copied = await auditRound(w, taskId, [[lazy, seen]])
    // The market seals what an auditor reveals: the copy becomes the seal of a seal, which matches nothing.
    await emitWithArgs(copied, w.market, 'ResultRevealed', [
      taskId,
      lazy.account.address,
      1,
      sealOf(taskId, seen),
      RESULT_CID,
      RECEIPT_CID,
      60,
    ])
    // Before sealing, the copy matched the held tag and upheld the result in round 1, and the copier was paid.
    const escalated = await w.market.read.getAudit([taskId])
    assert.equal(escalated.round, 2, 'a copied seal does not confirm the result: the audit escalates')
    assert.equal(escalated.auditors, 2)
    assert.equal(escalated.verdict, AuditVerdict.Pending)
    assert.equal((await w.market.read.getTask([taskId])).status, TaskStatus.Auditing)

    // Two honest auditors re-run the task and reveal the digest they found.
    const before = await ledger(w, tracked)
    const last = await auditRound(w, taskId, [
      [second, HONEST],
      [third, HONEST],
    ])
    const after = await ledger(w, tracked)
    await emitWithArgs(last, w.market, 'AuditResolved', [taskId, AuditVerdict.Upheld, sealOf(taskId, HONEST)])
    await emitWithArgs(last, w.market, 'ProviderSlashed', [taskId, lazy.account.address, 1, bond, 0n, true])
    assert.equal((await w.market.read.getTask([taskId])).status, TaskStatus.Completed)

    // The honest provider and auditors are paid what any result pays (the auditors' bonds, locked when they
    // joined this round, are released); the copier gets nothing and loses its bond.
    assert.deepEqual(moved(before, after, provider), { balance: PAY.toProvider, staked: 0n, locked: -bond })
    assert.deepEqual(moved(before, after, lazy), { balance: 0n, staked: -bond, locked: -bond })
    for (const auditor of [second, third]) {
      assert.deepEqual(moved(before, after, auditor), { balance: PAY.toProvider, staked: 0n, locked: 0n })
    }
    // The client paid its escrow (the result and one audit, 2 × M); the copier's bond paid the other auditor (M)
    // and half of the rest (8 × M) comes back to the client, the other half to the treasury.
    const left = bond - M
    assert.equal(clientPaid(start, after, w.client), 2n * M - left / 2n)
    assert.equal(after.treasuryAccrued - before.treasuryAccrued, 3n * PAY.treasury + (left - left / 2n))
    assert.equal(after.pendingStakerFees - before.pendingStakerFees, 3n * PAY.stakers)
    assert.equal(
      (after.creatorFees.get(w.sourceId) ?? 0n) - (before.creatorFees.get(w.sourceId) ?? 0n),
      3n * PAY.creator,
    )
    assert.equal(after.marketTokens - before.marketTokens, bond, 'the market took exactly the copier’s bond')
    const record = await w.providers.read.getReputation([lazy.account.address])
    assert.equal(record.outvoted, 1)
    assert.equal(record.completed, 0)
    await checkSums(w)
  })

  it('a lazy dispute auditor that copies the majority’s revealed seal does not confirm it, and is slashed once honest auditors decide', async () => {
    const w = await load()
    const [a, b, c, lazy, second, third] = w.provs as [Wallet, Wallet, Wallet, Wallet, Wallet, Wallet]
    const tracked = [w.client, a, b, c, lazy, second, third]
    const start = await ledger(w, tracked)
    const taskId = await submitOnSource(w, { maxPayment: M, replicas: 3 })
    const collateral = (await w.market.read.getTask([taskId])).collateral
    assert.equal(collateral, M / 2n, 'collateralBps (50 %) of the price')
    // Two replicas find the honest output, one reveals garbage: 2–1 is disputed.
    const runs = [
      [a, HONEST],
      [b, GARBAGE],
      [c, HONEST],
    ] as const
    for (const [wallet] of runs) await claim(w, wallet, taskId)
    await endRace(w, taskId)
    // Replicas commit to and reveal the seals of their digests (the helpers seal them).
    for (const [wallet, digest] of runs) {
      await commit(w, wallet, taskId, digest, saltOf(`sealed ${addressOf(wallet)}`))
    }
    const reveals: Hex[] = []
    for (const [wallet, digest] of runs) {
      reveals.push(await reveal(w, wallet, taskId, digest, saltOf(`sealed ${addressOf(wallet)}`)))
    }
    assert.equal((await w.market.read.getTask([taskId])).status, TaskStatus.Auditing, 'results that differ')

    // The lazy auditor copies the majority's seal from the first reveal instead of re-running the task.
    const [revealed] = await w.getEvents(reveals[0] as Hex, w.market, 'ResultRevealed')
    const seen = (revealed as { resultDigest: Hex }).resultDigest
    assert.equal(seen, sealOf(taskId, HONEST), 'replicas reveal seals')
    const copied = await auditRound(w, taskId, [[lazy, seen]])
    const [lazyReveal] = await w.getEvents(copied, w.market, 'ResultRevealed')
    assert.equal(lazyReveal?.resultDigest, sealOf(taskId, seen), 'the copy, sealed again')
    // Before sealing, the copy made the majority's result the most found and upheld it in round 1, paying the
    // copier. Now it matches no replica: nothing is decided, two more auditors are drawn.
    const escalated = await w.market.read.getAudit([taskId])
    assert.equal(escalated.round, 2, 'a copied seal does not confirm the majority')
    assert.equal(escalated.verdict, AuditVerdict.Pending)

    const before = await ledger(w, tracked)
    const last = await auditRound(w, taskId, [
      [second, HONEST],
      [third, HONEST],
    ])
    const after = await ledger(w, tracked)
    await emitWithArgs(last, w.market, 'AuditResolved', [taskId, AuditVerdict.Upheld, sealOf(taskId, HONEST)])
    await emitWithArgs(last, w.market, 'ProviderSlashed', [
      taskId,
      lazy.account.address,
      3,
      collateral,
      0n,
      true,
    ])
    await emitWithArgs(last, w.market, 'TaskFinalized', [
      taskId,
      w.client.account.address,
      TaskStatus.Completed,
      sealOf(taskId, HONEST),
      4n * M,
      0n,
    ])
    // The majority and the honest auditors are paid in full; the garbage replica and the copier lose their
    // collateral (M / 2 each), which pays one auditor; the garbage replica's unpaid payment pays the other.
    for (const winner of [a, c]) {
      assert.deepEqual(moved(before, after, winner), {
        balance: PAY.toProvider,
        staked: 0n,
        locked: -collateral,
      })
    }
    for (const auditor of [second, third]) {
      // Locked when it joined this round, released now.
      assert.deepEqual(moved(before, after, auditor), { balance: PAY.toProvider, staked: 0n, locked: 0n })
    }
    for (const loser of [b, lazy]) {
      assert.deepEqual(moved(before, after, loser), { balance: 0n, staked: -collateral, locked: -collateral })
    }
    // The client paid what three agreeing replicas cost (3 × M) and nothing more: the pot was spent on auditors.
    assert.equal(clientPaid(start, after, w.client), 3n * M)
    assert.equal(after.treasuryAccrued - before.treasuryAccrued, 4n * PAY.treasury)
    assert.equal(after.pendingStakerFees - before.pendingStakerFees, 4n * PAY.stakers)
    assert.equal((await w.providers.read.getReputation([lazy.account.address])).outvoted, 1)
    await checkSums(w)
  })

  it('an honest auditor revealing the plain digest upholds the sealed result; ResultRevealed carries sealOf(taskId, digest)', async () => {
    const w = await load()
    const [provider, auditor] = w.provs as [Wallet, Wallet]
    const tracked = [w.client, provider, auditor]
    const start = await ledger(w, tracked)
    const taskId = await submitOnSource(w, { auditBps: 10_000 }) // the client buys a certain audit
    const bond = (await w.market.read.getTask([taskId])).collateral
    await claim(w, provider, taskId)
    await submitHeld(w, provider, taskId, HONEST)
    await releaseWithDraw(w, taskId, true)

    const before = await ledger(w, tracked)
    const hash = await auditRound(w, taskId, [[auditor, HONEST]])
    const after = await ledger(w, tracked)
    // The auditor committed to and revealed the digest itself; the event shows the market's seal of it, the
    // value the provider handed in.
    await emitWithArgs(hash, w.market, 'ResultRevealed', [
      taskId,
      auditor.account.address,
      1,
      sealOf(taskId, HONEST),
      RESULT_CID,
      RECEIPT_CID,
      60,
    ])
    assert.notEqual(sealOf(taskId, HONEST), HONEST)
    await emitWithArgs(hash, w.market, 'AuditResolved', [taskId, AuditVerdict.Upheld, sealOf(taskId, HONEST)])
    assert.equal((await w.market.read.getAudit([taskId])).round, 1, 'one auditor reproducing it decides')
    assert.deepEqual(moved(before, after, provider), { balance: PAY.toProvider, staked: 0n, locked: -bond })
    // The auditor's bond, locked when it joined, is released.
    assert.deepEqual(moved(before, after, auditor), { balance: PAY.toProvider, staked: 0n, locked: 0n })
    assert.equal(clientPaid(start, after, w.client), 2n * M, 'the result and one audit')
    await checkSums(w)
  })

  it('a failure digest is not sealed: revealing what the provider handed in upholds a failure report, and does not uphold an output', async () => {
    const w = await load()
    const [provider, auditor, lazy] = w.provs as [Wallet, Wallet, Wallet]
    const tracked = [w.client, provider, auditor]
    // An output: the value on chain is its seal, and an auditor that reveals it does not confirm it.
    const output = await w.submitTask(w.client, await w.defaultTaskParams(w.failing, { auditBps: 10_000 }))
    const outputHash = await deliver(w, provider, output, HONEST)
    await releaseWithDraw(w, output, true)
    await auditRound(w, output, [[lazy, await sealSubmitted(w, outputHash)]])
    assert.equal((await w.market.read.getAudit([output])).round, 2, 'a copied output seal escalates')

    // A failure: what the provider hands in is the failure digest itself (its kind decides the payment, and every
    // run that fails the same way finds it), and an auditor that finds the same failure reveals the same value.
    const start = await ledger(w, tracked)
    const taskId = await w.submitTask(w.client, await w.defaultTaskParams(w.failing, { auditBps: 10_000 }))
    const bond = (await w.market.read.getTask([taskId])).collateral
    const failure = failureDigest(1, 1) // Exited with code 1
    assert.equal(sealOf(taskId, failure), failure, 'a failure digest is its own seal')
    await claim(w, provider, taskId)
    const { hash } = await submitHeld(w, provider, taskId, failure)
    assert.equal(await sealSubmitted(w, hash), failure, 'the chain shows the failure itself')
    await releaseWithDraw(w, taskId, true)
    const before = await ledger(w, tracked)
    const resolved = await auditRound(w, taskId, [[auditor, failure]])
    const after = await ledger(w, tracked)
    await emitWithArgs(resolved, w.market, 'ResultRevealed', [
      taskId,
      auditor.account.address,
      1,
      failure,
      RESULT_CID,
      RECEIPT_CID,
      60,
    ])
    await emitWithArgs(resolved, w.market, 'AuditResolved', [taskId, AuditVerdict.Upheld, failure])
    const task = await w.market.read.getTask([taskId])
    assert.equal(task.status, TaskStatus.Completed)
    assert.equal(task.failed, true)
    // Both are paid the failure fee, the provider's collateral is released, the client pays two failure fees.
    const fee = splitPayment((M * BigInt(FAILURE_FEE_BPS)) / BPS, TERMS)
    assert.deepEqual(moved(before, after, provider), { balance: fee.toProvider, staked: 0n, locked: -bond })
    assert.deepEqual(moved(before, after, auditor), { balance: fee.toProvider, staked: 0n, locked: 0n })
    assert.equal(clientPaid(start, after, w.client), 2n * fee.payment)
    await checkSums(w)
  })

  it('TaskSubmitted carries the client’s resultKey; a held result keeps the 8-byte tag of its seal, and getTask reports 0 for the fields that hold its low bits', async () => {
    const w = await load()
    const [provider] = w.provs as [Wallet]
    const resultKey = keccak256(toHex('the client’s X25519 public key'))
    assert.notEqual(resultKey, RESULT_KEY)
    const params = await w.defaultTaskParams(w.sourceId, { resultKey })
    await w.deposit(w.client, 2n * M)
    const submitted = await w.market.write.submitTask([params], { account: w.client.account })
    const taskId = 1n
    await emitWithArgs(submitted, w.market, 'TaskSubmitted', [
      taskId,
      w.client.account.address,
      w.sourceId,
      DEFAULT_INPUT_CID,
      resultKey, // not stored: providers read it here to encrypt the output to the client
      2n * M,
    ])
    const fields = async () => {
      const t = await w.market.read.getTask([taskId])
      return { status: t.status, openSlots: t.openSlots, committed: t.committed, revealed: t.revealed }
    }
    assert.deepEqual(await fields(), { status: TaskStatus.Open, openSlots: 1, committed: 0, revealed: 0 })
    await claim(w, provider, taskId)
    assert.deepEqual(await fields(), { status: TaskStatus.Claimed, openSlots: 0, committed: 0, revealed: 0 })

    await submitHeld(w, provider, taskId, HONEST)
    const seal = sealOf(taskId, HONEST)
    // The tag's low 24 bits (bytes 5 to 7 of the seal), which the market keeps in the task's openSlots, committed
    // and revealed: not zero here, so the checks below see them kept and hidden.
    assert.notEqual(BigInt(seal.slice(0, 18)) & 0xffffffn, 0n)
    const [held] = await w.market.read.getSlots([taskId])
    assert.equal(held?.commitment, tagOf(seal), 'bytes32(bytes8(seal))')
    assert.notEqual(held?.commitment, `${seal.slice(0, 12)}${'0'.repeat(54)}`, 'more than the old 5-byte tag')
    assert.equal(held?.claimedAt, 0, 'claimedAt holds the tag’s high bits: shown as 0')
    assert.deepEqual(await fields(), { status: TaskStatus.Held, openSlots: 0, committed: 0, revealed: 0 })

    // Settled (upheld by an auditor who found the digest): still 0, and the slot still shows the tag.
    await releaseWithDraw(w, taskId, true)
    await auditRound(w, taskId, [[w.provs[1] as Wallet, HONEST]])
    assert.equal(
      (await w.market.read.getAudit([taskId])).verdict,
      AuditVerdict.Upheld,
      'the full 64-bit tag matched',
    )
    assert.deepEqual(await fields(), {
      status: TaskStatus.Completed,
      openSlots: 0,
      committed: 0,
      revealed: 0,
    })
    assert.equal((await w.market.read.getSlots([taskId]))[0]?.commitment, tagOf(seal))
    await checkSums(w)
  })

  it('a validator source: auditors revealing VALIDATION_PASSED uphold the result; one revealing the provider’s seal does not, and is slashed', async () => {
    const w = await load()
    const [provider, validator, lazy, second, third] = w.provs as [Wallet, Wallet, Wallet, Wallet, Wallet]
    const OUTPUT = keccak256(toHex('an output of a non-deterministic source'))

    // What auditors must find is the validator's pass, sealed for this task: the held tag is that seal's.
    const checked = await w.submitTask(w.client, await w.defaultTaskParams(w.validated))
    const bond = (await w.market.read.getTask([checked])).collateral
    await deliver(w, provider, checked, OUTPUT)
    assert.equal((await w.market.read.getTask([checked])).status, TaskStatus.Held)
    assert.equal(
      (await w.market.read.getSlots([checked]))[0]?.commitment,
      tagOf(sealOf(checked, VALIDATION_PASSED)),
    )
    await releaseWithDraw(w, checked, true)
    let before = await ledger(w, [provider, validator])
    const passed = await auditRound(w, checked, [[validator, VALIDATION_PASSED]])
    let after = await ledger(w, [provider, validator])
    await emitWithArgs(passed, w.market, 'ResultRevealed', [
      checked,
      validator.account.address,
      1,
      sealOf(checked, VALIDATION_PASSED),
      RESULT_CID,
      RECEIPT_CID,
      60,
    ])
    await emitWithArgs(passed, w.market, 'AuditResolved', [
      checked,
      AuditVerdict.Upheld,
      sealOf(checked, VALIDATION_PASSED),
    ])
    assert.deepEqual(moved(before, after, provider), { balance: PAY.toProvider, staked: 0n, locked: -bond })
    assert.deepEqual(moved(before, after, validator), { balance: PAY.toProvider, staked: 0n, locked: 0n })

    // A lazy auditor answers with the seal the provider handed in: it is not the validator's pass.
    const copiedTask = await w.submitTask(w.client, await w.defaultTaskParams(w.validated))
    const hash = await deliver(w, provider, copiedTask, OUTPUT)
    await releaseWithDraw(w, copiedTask, true)
    await auditRound(w, copiedTask, [[lazy, await sealSubmitted(w, hash)]])
    assert.equal((await w.market.read.getAudit([copiedTask])).round, 2, 'the provider’s seal does not uphold')
    before = await ledger(w, [provider, lazy, second, third])
    const resolved = await auditRound(w, copiedTask, [
      [second, VALIDATION_PASSED],
      [third, VALIDATION_PASSED],
    ])
    after = await ledger(w, [provider, lazy, second, third])
    await emitWithArgs(resolved, w.market, 'AuditResolved', [
      copiedTask,
      AuditVerdict.Upheld,
      sealOf(copiedTask, VALIDATION_PASSED),
    ])
    assert.deepEqual(moved(before, after, provider), { balance: PAY.toProvider, staked: 0n, locked: -bond })
    assert.deepEqual(moved(before, after, lazy), { balance: 0n, staked: -bond, locked: -bond })
    for (const auditor of [second, third]) {
      assert.deepEqual(moved(before, after, auditor), { balance: PAY.toProvider, staked: 0n, locked: 0n })
    }
    await checkSums(w)
  })
})
