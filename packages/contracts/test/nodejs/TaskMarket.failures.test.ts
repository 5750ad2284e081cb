/**
 * Issue 14, item 3: failure is a result; item 2: validator sources. A provider whose run fails hands in a
 * failure report: it is never slashed, is paid the source's failure terms, the failure counts in its record, and
 * a "failure" that succeeds on re-run is a lie that is slashed. A client whose input or source fails pays for the
 * failure and cannot earn from it (the attack the review measured: the client ended 25 % of the price above
 * where it started, out of the provider's collateral). Every test checks the money to the wei.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { network } from 'hardhat'
import { type Hex, keccak256, toHex } from 'viem'
import {
  commitment,
  DEFAULT_IMAGE_DIGEST,
  DEFAULT_METADATA_CID,
  DEFAULT_SOURCE_REQUIREMENTS,
  deployGridforge,
  grid,
  sealOf,
  type Wallet,
} from './helpers/fixture.js'
import { endRace, mineToSeed, releaseWithDraw, tagOf } from './helpers/market.js'

const connection = await network.create()
const { networkHelpers } = connection

const BPS = 10_000n
const M = grid(10)
const PROTOCOL_FEE_BPS = 500n
/** The sources' failure fee: a failed fixed-price run is paid 20 % of the price. */
const FAILURE_FEE_BPS = 2_000
const LIMIT = 3_600
const OUTPUT = keccak256(toHex('the output every honest run produces'))
const LOGS_CID = 'bafkreiebc4vu2vbf6qjwjx3s4e3eooypl3mj6vxpfldxd3xlzj4sdcvhwa'
const RECEIPT_CID = 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy'
const VALIDATION_PASSED = keccak256(toHex('gridforge.validation.passed'))
const VALIDATION_REJECTED = keccak256(toHex('gridforge.validation.rejected'))

const Kind = { Exited: 1, TimedOut: 2, OutOfMemory: 3, OutputTooLarge: 4 } as const
const TaskStatus = { Completed: 4, Failed: 5, Expired: 7, Held: 8, Auditing: 9 } as const
const Verdict = { Upheld: 3, Overturned: 4 } as const

/** The digest of a failed run, as libraries/Results.sol lays it out. */
function failureDigest(kind: number, exitCode = 0): Hex {
  return `0x${kind.toString(16).padStart(2, '0')}${exitCode.toString(16).padStart(2, '0')}${'00'.repeat(22)}67663a6661696c00`
}

/**
 * Sources with a 20 % failure fee: `deterministic` (k = 1 audited by re-running it), `opaque` (not deterministic,
 * no validator: k = 1 not audited), `validator` (a deterministic checker) and `validated` (not deterministic,
 * checked by `validator`: k = 1 audited by running the validator). Seven providers subscribed to all.
 */
async function deployFailures() {
  const gf = await deployGridforge(connection)
  const creator = gf.others[0] as Wallet
  const publish = async (deterministic: boolean, validator = 0, maxRuntimeSec = LIMIT) => {
    const requirements = { ...DEFAULT_SOURCE_REQUIREMENTS, deterministic, maxRuntimeSec }
    const hash = await gf.sources.write.publish(
      [DEFAULT_IMAGE_DIGEST, DEFAULT_METADATA_CID, requirements, 0, 0, FAILURE_FEE_BPS, validator],
      { account: creator.account },
    )
    const [event] = await gf.getEvents(hash, gf.sources, 'SourcePublished')
    return (event as { sourceId: number }).sourceId
  }
  const deterministic = await publish(true)
  const opaque = await publish(false)
  const validator = await publish(true, 0, 600)
  const validated = await publish(false, validator)
  const provs = gf.providerWallets.slice(0, 7)
  for (const wallet of provs) {
    await gf.registerProvider(wallet, { sourceIds: [deterministic, opaque, validator, validated] })
  }
  const client = gf.clients[0] as Wallet
  await gf.deposit(client, grid(10_000))
  return { ...gf, client, provs, sources_: { deterministic, opaque, validator, validated } }
}
type World = Awaited<ReturnType<typeof deployFailures>>

const load = () => networkHelpers.loadFixture(deployFailures)
const netOf = (payment: bigint) => payment - (payment * PROTOCOL_FEE_BPS) / BPS
const balanceOf = (w: World, wallet: Wallet) => w.market.read.balanceOf([wallet.account.address])
const failureFee = (M * BigInt(FAILURE_FEE_BPS)) / BPS

async function submit(w: World, sourceId: number, overrides: Record<string, unknown> = {}) {
  return w.submitTask(w.client, await w.defaultTaskParams(sourceId, overrides as never))
}

/**
 * Claims as `provider`, lets `runSec` pass and hands in `digest` (runtime `runSec`), sealed as providers hand
 * results in (sealOf: a failure digest is its own seal); returns the receipt.
 */
async function deliver(w: World, provider: Wallet, taskId: bigint, digest: Hex, runSec = 60) {
  await w.market.write.claimTask([taskId], { account: provider.account })
  await networkHelpers.time.increase(runSec)
  const hash = await w.market.write.submitResult(
    [taskId, sealOf(taskId, digest), LOGS_CID, RECEIPT_CID, runSec],
    {
      account: provider.account,
    },
  )
  return w.publicClient.waitForTransactionReceipt({ hash })
}

/**
 * Joins the open audit round as each of `auditors`, then each commits to and reveals its digest (the plain digest:
 * the market seals an auditor's).
 */
async function audit(w: World, taskId: bigint, runs: readonly [Wallet, Hex][]) {
  const opened = await w.market.read.getAudit([taskId])
  if ((await w.publicClient.getBlockNumber()) < BigInt(opened.seedBlock) + 1n) await networkHelpers.mine(1)
  for (const [auditor] of runs) await w.market.write.joinAudit([taskId], { account: auditor.account })
  await networkHelpers.time.increaseTo(opened.joinDeadline + 1)
  const saltOf = (wallet: Wallet) => keccak256(toHex(`salt ${taskId} ${wallet.account.address}`))
  for (const [wallet, digest] of runs) {
    const c = commitment(taskId, wallet.account.address, digest, saltOf(wallet))
    await w.market.write.commitResult([taskId, c], { account: wallet.account })
  }
  for (const [wallet, digest] of runs) {
    await w.market.write.revealResult([taskId, digest, saltOf(wallet), LOGS_CID, RECEIPT_CID, 60], {
      account: wallet.account,
    })
  }
}

describe('TaskMarket: failure is a result', () => {
  it('a failed fixed-price run is paid the failure fee, never slashed, and counted as a failed run', async () => {
    const w = await load()
    const [provider] = w.provs as [Wallet]
    const taskId = await submit(w, w.sources_.opaque)
    const clientBefore = await balanceOf(w, w.client)
    const providerBefore = await balanceOf(w, provider)
    const stakeBefore = await w.staking.read.stakeOf([provider.account.address])

    const receipt = await deliver(w, provider, taskId, failureDigest(Kind.Exited, 2))
    const [submitted] = await w.getEvents(receipt.transactionHash, w.market, 'ResultSubmitted')
    // A failure digest is not sealed: the event carries the failure itself, for anyone to read its kind.
    assert.equal(sealOf(taskId, failureDigest(Kind.Exited, 2)), failureDigest(Kind.Exited, 2))
    assert.equal(submitted?.resultDigest, failureDigest(Kind.Exited, 2), 'the event carries the failure')

    const task = await w.market.read.getTask([taskId])
    assert.equal(task.status, TaskStatus.Completed)
    assert.equal(task.failed, true)
    assert.equal((await balanceOf(w, provider)) - providerBefore, netOf(failureFee))
    // The client paid the failure fee out of the escrow of M and got the rest back: it ends below where it
    // started (the escrow left its balance at submission), never above.
    assert.equal((await balanceOf(w, w.client)) - clientBefore, M - failureFee)
    const stakeAfter = await w.staking.read.stakeOf([provider.account.address])
    assert.equal(stakeAfter.staked, stakeBefore.staked, 'not slashed')
    assert.equal(stakeAfter.locked, 0n, 'collateral released')
    const record = await w.providers.read.getReputation([provider.account.address])
    assert.equal(record.failedRuns, 1)
    assert.equal(record.completed, 0)
    assert.equal(record.failed, 0, 'a reported failure is not a no-show')
    await w.checkInvariants()
  })

  it('a failed metered run is billed the runtime it used', async () => {
    const w = await load()
    const [provider] = w.provs as [Wallet]
    const perSecond = grid('0.001')
    const taskId = await submit(w, w.sources_.opaque, { pricePerSecond: perSecond })
    const before = await balanceOf(w, provider)
    await deliver(w, provider, taskId, failureDigest(Kind.OutOfMemory), 500)
    assert.equal((await balanceOf(w, provider)) - before, netOf(perSecond * 500n))
    await w.checkInvariants()
  })

  it('a timeout is only believed once the runtime limit has passed since the claim', async () => {
    const w = await load()
    const [provider] = w.provs as [Wallet]
    const taskId = await submit(w, w.sources_.opaque)
    await w.market.write.claimTask([taskId], { account: provider.account })
    await networkHelpers.time.increase(LIMIT - 10)
    await assert.rejects(
      w.market.write.submitResult([taskId, failureDigest(Kind.TimedOut), LOGS_CID, RECEIPT_CID, LIMIT], {
        account: provider.account,
      }),
      /TaskMarketTimeoutTooEarly/,
    )
    await networkHelpers.time.increase(10)
    await w.market.write.submitResult([taskId, failureDigest(Kind.TimedOut), LOGS_CID, RECEIPT_CID, LIMIT], {
      account: provider.account,
    })
    assert.equal((await w.market.read.getTask([taskId])).failed, true)
    await w.checkInvariants()
  })

  it('a honeypot input that makes every honest run time out costs its client the failure fee, and pays it nothing', async () => {
    const w = await load()
    const [provider] = w.provs as [Wallet]
    const clientStart = await balanceOf(w, w.client)
    // Before: the provider, unable to finish, walked away and the client expired the task, collecting the
    // no-show slash. Now the provider reports the timeout within its claim, and there is nothing to expire.
    const taskId = await submit(w, w.sources_.opaque, {
      deadline: (await networkHelpers.time.latest()) + 2 * LIMIT,
    })
    await deliver(w, provider, taskId, failureDigest(Kind.TimedOut), LIMIT)
    await networkHelpers.time.increase(2 * LIMIT)
    await assert.rejects(
      w.market.write.expireTask([taskId], { account: w.client.account }),
      /TaskMarketWrongStatus/,
    )
    assert.equal((await balanceOf(w, w.client)) - clientStart, -failureFee, 'the client paid for its input')
    await w.checkInvariants()
  })

  it('digests that only look like failures (unknown kind, wrong mark) are outputs', async () => {
    const w = await load()
    const [provider] = w.provs as [Wallet]
    const wrongMark = `${failureDigest(Kind.Exited, 1).slice(0, -2)}01` as Hex
    const nonZeroMiddle = `0x0101${'00'.repeat(21)}0167663a6661696c00` as Hex
    for (const digest of [failureDigest(9), wrongMark, nonZeroMiddle]) {
      const before = await balanceOf(w, provider)
      const taskId = await submit(w, w.sources_.opaque)
      await deliver(w, provider, taskId, digest)
      assert.equal((await w.market.read.getTask([taskId])).failed, false, digest)
      assert.equal((await balanceOf(w, provider)) - before, netOf(M), `${digest} is paid as an output`)
    }
  })

  it('replicas that agree on a failure are each paid the failure fee; none is slashed', async () => {
    const w = await load()
    const [a, b] = w.provs as [Wallet, Wallet]
    const taskId = await submit(w, w.sources_.deterministic, { replicas: 2 })
    const digest = failureDigest(Kind.Exited, 1)
    const before = await Promise.all([balanceOf(w, a), balanceOf(w, b)])
    const saltOf = (wallet: Wallet) => keccak256(toHex(`salt ${wallet.account.address}`))
    // The seats are raced for (from the block after the block after the submission); they start when it ends.
    await mineToSeed(w, taskId)
    for (const wallet of [a, b]) await w.market.write.claimTask([taskId], { account: wallet.account })
    await endRace(w, taskId)
    await networkHelpers.time.increase(60)
    // Replicas commit to and reveal seals; a failure digest is its own seal.
    const seal = sealOf(taskId, digest)
    for (const wallet of [a, b]) {
      await w.market.write.commitResult(
        [taskId, commitment(taskId, wallet.account.address, seal, saltOf(wallet))],
        {
          account: wallet.account,
        },
      )
    }
    for (const wallet of [a, b]) {
      await w.market.write.revealResult([taskId, seal, saltOf(wallet), LOGS_CID, RECEIPT_CID, 60], {
        account: wallet.account,
      })
    }
    const task = await w.market.read.getTask([taskId])
    assert.equal(task.status, TaskStatus.Completed)
    assert.equal(task.failed, true)
    const after = await Promise.all([balanceOf(w, a), balanceOf(w, b)])
    assert.deepEqual(
      after.map((value, i) => value - (before[i] as bigint)),
      [netOf(failureFee), netOf(failureFee)],
    )
    await w.checkInvariants()
  })
})

describe('TaskMarket: failures are audited like outputs', () => {
  it('a "failure" that succeeds on re-run is a lie: overturned, the whole bond slashed, the failed run turned into an outvote', async () => {
    const w = await load()
    const [liar, auditor] = w.provs as [Wallet, Wallet]
    const taskId = await submit(w, w.sources_.deterministic)
    const bond = (await w.market.read.getTask([taskId])).collateral
    const stakeBefore = (await w.staking.read.stakeOf([liar.account.address])).staked
    const liarBefore = await balanceOf(w, liar)
    // Reported at once, without running: the failure fee for no work, unless the draw catches it.
    await deliver(w, liar, taskId, failureDigest(Kind.Exited, 1), 1)
    assert.equal((await w.market.read.getTask([taskId])).status, TaskStatus.Held)
    await releaseWithDraw(w, taskId, true)
    await audit(w, taskId, [[auditor, OUTPUT]])
    // Round 1 disagrees with the tag: two more auditors decide.
    const [, , second, third] = w.provs as Wallet[]
    await audit(w, taskId, [
      [second as Wallet, OUTPUT],
      [third as Wallet, OUTPUT],
    ])
    const result = await w.market.read.getAudit([taskId])
    assert.equal(result.verdict, Verdict.Overturned)
    assert.equal((await w.staking.read.stakeOf([liar.account.address])).staked, stakeBefore - bond)
    assert.equal(await balanceOf(w, liar), liarBefore, 'nothing paid')
    const record = await w.providers.read.getReputation([liar.account.address])
    assert.equal(record.failedRuns, 0)
    assert.equal(record.outvoted, 1)
    await w.checkInvariants()
  })

  it('a failure the auditor reproduces is upheld and paid the failure fee; the auditor is paid for a failed run too', async () => {
    const w = await load()
    const [provider, auditor] = w.provs as [Wallet, Wallet]
    const taskId = await submit(w, w.sources_.deterministic)
    const digest = failureDigest(Kind.OutOfMemory)
    const before = await Promise.all([balanceOf(w, provider), balanceOf(w, auditor)])
    await deliver(w, provider, taskId, digest)
    await releaseWithDraw(w, taskId, true)
    await audit(w, taskId, [[auditor, digest]])
    assert.equal((await w.market.read.getAudit([taskId])).verdict, Verdict.Upheld)
    const after = await Promise.all([balanceOf(w, provider), balanceOf(w, auditor)])
    assert.equal((after[0] as bigint) - (before[0] as bigint), netOf(failureFee))
    assert.equal((after[1] as bigint) - (before[1] as bigint), netOf(failureFee))
    assert.equal((await w.providers.read.getReputation([provider.account.address])).failedRuns, 1)
    await w.checkInvariants()
  })
})

describe('TaskMarket: validator sources', () => {
  it('a single result of a non-deterministic source with a validator is held for the audit draw', async () => {
    const w = await load()
    const taskId = await submit(w, w.sources_.validated)
    const task = await w.market.read.getTask([taskId])
    assert.equal(task.auditBps, 1_000, 'auditable: the protocol default')
    assert.equal(task.collateral, 9n * M, 'and bonded like any audited result')
    await deliver(w, w.provs[0] as Wallet, taskId, OUTPUT)
    assert.equal((await w.market.read.getTask([taskId])).status, TaskStatus.Held)
    // What auditors must find is the validator's pass, not the provider's (irreproducible) digest: the market
    // holds the tag of its seal.
    const [slot] = await w.market.read.getSlots([taskId])
    assert.equal(slot?.commitment, tagOf(sealOf(taskId, VALIDATION_PASSED)))
  })

  it('an auditor whose validator passes the result upholds it', async () => {
    const w = await load()
    const [provider, auditor] = w.provs as [Wallet, Wallet]
    const taskId = await submit(w, w.sources_.validated)
    const before = await balanceOf(w, provider)
    await deliver(w, provider, taskId, OUTPUT)
    await releaseWithDraw(w, taskId, true)
    await audit(w, taskId, [[auditor, VALIDATION_PASSED]])
    assert.equal((await w.market.read.getAudit([taskId])).verdict, Verdict.Upheld)
    assert.equal((await balanceOf(w, provider)) - before, netOf(M))
    await w.checkInvariants()
  })

  it('a result the validators reject is overturned and its provider slashed', async () => {
    const w = await load()
    const [provider, first, second, third] = w.provs as [Wallet, Wallet, Wallet, Wallet]
    const taskId = await submit(w, w.sources_.validated)
    const bond = (await w.market.read.getTask([taskId])).collateral
    const stakeBefore = (await w.staking.read.stakeOf([provider.account.address])).staked
    await deliver(w, provider, taskId, keccak256(toHex('garbage')))
    await releaseWithDraw(w, taskId, true)
    await audit(w, taskId, [[first, VALIDATION_REJECTED]])
    await audit(w, taskId, [
      [second, VALIDATION_REJECTED],
      [third, VALIDATION_REJECTED],
    ])
    assert.equal((await w.market.read.getAudit([taskId])).verdict, Verdict.Overturned)
    assert.equal((await w.staking.read.stakeOf([provider.account.address])).staked, stakeBefore - bond)
    await w.checkInvariants()
  })

  it('refuses a validator that is unknown, not deterministic, or slower than the source', async () => {
    const w = await load()
    const creator = w.others[0] as Wallet
    const publish = (deterministic: boolean, validator: number) =>
      w.sources.write.publish(
        [
          DEFAULT_IMAGE_DIGEST,
          DEFAULT_METADATA_CID,
          { ...DEFAULT_SOURCE_REQUIREMENTS, deterministic, maxRuntimeSec: 300 },
          0,
          0,
          0,
          validator,
        ],
        { account: creator.account },
      )
    await assert.rejects(publish(false, 99), /SourceRegistryInvalidValidator/)
    await assert.rejects(publish(false, w.sources_.opaque), /SourceRegistryInvalidValidator/)
    // The validator's limit (600 s) is longer than this source's (300 s): it would not fit the audit window.
    await assert.rejects(publish(false, w.sources_.validator), /SourceRegistryInvalidValidator/)
  })
})
