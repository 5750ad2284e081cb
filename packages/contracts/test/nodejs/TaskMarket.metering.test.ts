/**
 * Audits measure the runtime a metered single-provider result bills (issue 14, items 1 and 5): the metering
 * inflater of `pnpm sim` billed up to the source's limit because nothing checked the runtime it reported. Every
 * scenario checks the money to the wei, then that the cheat's expected gain over honest billing is not positive
 * at the task's audit probability, then the market's accounting invariant.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { network } from 'hardhat'
import { getAddress, type Hex, keccak256, toHex } from 'viem'
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
import { releaseWithDraw } from './helpers/market.js'

const connection = await network.create()
const { networkHelpers } = connection

const BPS = 10_000n
const PROTOCOL_FEE_BPS = 500n
const M = grid(10)
/** 0.005 GRID a second: M buys 2,000 s, inside the sources' 3,600 s limit. */
const RATE = grid('0.005')
/** The protocol's default audit probability (10 %) and the bond it sizes: (1/p − 1) × M. */
const P = 1_000n
const BOND = 9n * M
const HONEST = keccak256(toHex('the output every honest run produces'))
/** What an auditor of a validated source reveals when the validator passes the result. */
const VALIDATION_PASSED = keccak256(toHex('gridforge.validation.passed'))
const RESULT_CID = 'bafybeihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku'
const RECEIPT_CID = 'bafkreiebc4vu2vbf6qjwjx3s4e3eooypl3mj6vxpfldxd3xlzj4sdcvhwa'
const Verdict = { Upheld: 3 } as const

/** A deterministic source, a validator and a validated (non-deterministic) source; seven providers on all. */
async function deployMetering() {
  const gf = await deployGridforge(connection)
  const creator = gf.others[0] as Wallet
  const publish = async (deterministic: boolean, validator = 0) => {
    const hash = await gf.sources.write.publish(
      [
        DEFAULT_IMAGE_DIGEST,
        DEFAULT_METADATA_CID,
        { ...DEFAULT_SOURCE_REQUIREMENTS, deterministic, maxRuntimeSec: 3_600 },
        0,
        0,
        0,
        validator,
      ],
      { account: creator.account },
    )
    const [event] = await gf.getEvents(hash, gf.sources, 'SourcePublished')
    return (event as { sourceId: number }).sourceId
  }
  const deterministic = await publish(true)
  const validator = await publish(true)
  const validated = await publish(false, validator)
  const provs = gf.providerWallets.slice(0, 7)
  for (const wallet of provs)
    await gf.registerProvider(wallet, { sourceIds: [deterministic, validator, validated] })
  const client = gf.clients[0] as Wallet
  await gf.deposit(client, grid(10_000))
  return { ...gf, client, provs, sources_: { deterministic, validated } }
}
type World = Awaited<ReturnType<typeof deployMetering>>

const load = () => networkHelpers.loadFixture(deployMetering)
const netOf = (payment: bigint) => payment - (payment * PROTOCOL_FEE_BPS) / BPS

/** Submits a metered task on `sourceId` (default: the deterministic source), audited with the default p. */
async function submitMetered(w: World, sourceId = w.sources_.deterministic) {
  return w.submitTask(w.client, await w.defaultTaskParams(sourceId, { pricePerSecond: RATE }))
}

/** Claims `taskId` as `provider`, lets `elapsed` seconds pass and hands in the honest output billing `billed` s. */
async function deliver(w: World, provider: Wallet, taskId: bigint, elapsed: number, billed: number) {
  await w.market.write.claimTask([taskId], { account: provider.account })
  await networkHelpers.time.increase(elapsed)
  await w.market.write.submitResult([taskId, sealOf(taskId, HONEST), RESULT_CID, RECEIPT_CID, billed], {
    account: provider.account,
  })
}

/** Joins the open round as each auditor, then each runs, commits to and reveals `found` and its runtime. */
async function audit(w: World, taskId: bigint, runs: readonly [Wallet, number][], found: Hex = HONEST) {
  const open = await w.market.read.getAudit([taskId])
  if ((await w.publicClient.getBlockNumber()) < BigInt(open.seedBlock) + 1n) await networkHelpers.mine(1)
  for (const [auditor] of runs) await w.market.write.joinAudit([taskId], { account: auditor.account })
  // The seats are final after joining closes; each auditor runs, then commits (its runtime counts from its join).
  await networkHelpers.time.increaseTo(
    open.joinDeadline + 1 + Math.max(...runs.map(([, runtime]) => runtime)),
  )
  const saltOf = (wallet: Wallet) => keccak256(toHex(`salt ${taskId} ${wallet.account.address}`))
  for (const [wallet] of runs) {
    const c = commitment(taskId, wallet.account.address, found, saltOf(wallet))
    await w.market.write.commitResult([taskId, c], { account: wallet.account })
  }
  let last: Hex | undefined
  for (const [wallet, runtime] of runs) {
    last = await w.market.write.revealResult(
      [taskId, found, saltOf(wallet), RESULT_CID, RECEIPT_CID, runtime],
      {
        account: wallet.account,
      },
    )
  }
  return last as Hex
}

/**
 * What billing `billed` instead of `measured` seconds gains over honest billing in expectation, at audit
 * probability P: the excess when not drawn, (what the audited cheat got − what honest billing gets) when drawn.
 */
function expectedGain(excess: bigint, auditedDifference: bigint) {
  return ((BPS - P) * excess + P * auditedDifference) / BPS
}

describe('TaskMarket: audits measure metered runtime', () => {
  it('billing beyond the tolerance of the audit loses the bond: round 1 escalates, the reruns measure it, the provider is paid what they measured', async () => {
    const w = await load()
    const [inflater, a1, a2, a3] = w.provs as [Wallet, Wallet, Wallet, Wallet]
    const clientBefore = await w.market.read.balanceOf([w.client.account.address])
    const treasuryBefore = await w.market.read.treasuryAccrued()
    const taskId = await submitMetered(w)
    assert.equal((await w.market.read.getTask([taskId])).collateral, BOND)
    // It ran 600 s, held the result and bills 1,500 s (the chain's elapsed-time cap lets it).
    await deliver(w, inflater, taskId, 1_500, 1_500)
    await releaseWithDraw(w, taskId, true)

    // Round 1: the auditor reproduces the output in 600 s: the runtime is 2.5 × that, so the audit escalates.
    await audit(w, taskId, [[a1, 600]])
    const escalated = await w.market.read.getAudit([taskId])
    assert.equal(escalated.round, 2)
    const hash = await audit(w, taskId, [
      [a2, 590],
      [a3, 640],
    ])

    const [resolved] = await w.getEvents(hash, w.market, 'AuditResolved')
    assert.equal(resolved?.verdict, Verdict.Upheld, 'the output was right')
    const [overstated] = await w.getEvents(hash, w.market, 'RuntimeOverstated')
    // The upper median of 600, 590 and 640.
    assert.deepEqual(overstated, {
      taskId,
      provider: getAddress(inflater.account.address),
      billedSec: 1_500,
      measuredSec: 600,
      forfeit: BOND,
    })
    const paid = 600n * RATE
    assert.equal(await w.market.read.balanceOf([inflater.account.address]), netOf(paid))
    const stake = await w.staking.read.stakeOf([inflater.account.address])
    assert.equal(stake.staked, grid(1_000) - BOND)
    assert.equal(stake.locked, 0n)
    assert.equal((await w.providers.read.getReputation([inflater.account.address])).outvoted, 1)
    // The three auditors are paid alike for their lower median runtime (600 s): the client pays one, the bond
    // the others; the client pays the runtime measured and gets half of what is left of the bond.
    const auditorPay = 600n * RATE
    const audits = await Promise.all([a1, a2, a3].map((a) => w.market.read.balanceOf([a.account.address])))
    assert.deepEqual(audits, [netOf(auditorPay), netOf(auditorPay), netOf(auditorPay)])
    const left = BOND - 2n * auditorPay
    assert.equal(
      await w.market.read.balanceOf([w.client.account.address]),
      clientBefore - paid - auditorPay + left / 2n,
    )
    assert.ok(
      (await w.market.read.treasuryAccrued()) - treasuryBefore >= left - left / 2n,
      'and the treasury the rest',
    )

    // Not drawn (90 %) it pockets 900 s more; drawn (10 %) it gets the measured pay and loses the bond.
    const excess = netOf(1_500n * RATE) - netOf(paid)
    assert.ok(expectedGain(excess, -BOND) < 0n, 'overstating the runtime loses in expectation')
    await w.checkInvariants()
  })

  it('within the tolerance: paid as billed, the excess ÷ p goes to the treasury, so billing more earns nothing in expectation', async () => {
    const w = await load()
    const [provider, auditor] = w.provs as [Wallet, Wallet]
    const taskId = await submitMetered(w)
    // Runs 600 s by its auditor's measure, bills 650 s: 8.3 % more, within the 10 % tolerance.
    await deliver(w, provider, taskId, 650, 650)
    await releaseWithDraw(w, taskId, true)
    const treasuryBefore = await w.market.read.treasuryAccrued()
    const hash = await audit(w, taskId, [[auditor, 600]])

    const [resolved] = await w.getEvents(hash, w.market, 'AuditResolved')
    assert.equal(resolved?.verdict, Verdict.Upheld, 'round 1 confirms it alone')
    const excessPay = 50n * RATE
    const fine = (excessPay * BPS) / P
    const [overstated] = await w.getEvents(hash, w.market, 'RuntimeOverstated')
    assert.equal(overstated?.forfeit, fine)
    assert.equal(overstated?.measuredSec, 600)
    const billedPay = 650n * RATE
    assert.equal(await w.market.read.balanceOf([provider.account.address]), netOf(billedPay))
    const stake = await w.staking.read.stakeOf([provider.account.address])
    assert.equal(stake.staked, grid(1_000) - fine)
    assert.equal(stake.locked, 0n)
    assert.equal((await w.providers.read.getReputation([provider.account.address])).outvoted, 0, 'not a lie')
    const fees = ((billedPay + 600n * RATE) * PROTOCOL_FEE_BPS) / BPS
    assert.ok(
      (await w.market.read.treasuryAccrued()) - treasuryBefore >= fine,
      'the fine goes to the treasury',
    )
    assert.ok((await w.market.read.treasuryAccrued()) - treasuryBefore <= fine + fees)

    // The excess net of the fee, every time; drawn, it also forfeits the fine.
    const excess = netOf(billedPay) - netOf(600n * RATE)
    assert.ok(expectedGain(excess, excess - fine) <= 0n, 'billing within the tolerance earns nothing either')
    await w.checkInvariants()
  })

  it('an auditor that reports a short runtime cannot cut the bill: the audit escalates and the upper median keeps the honest figure', async () => {
    const w = await load()
    const [provider, shortener, a2, a3] = w.provs as [Wallet, Wallet, Wallet, Wallet]
    const taskId = await submitMetered(w)
    await deliver(w, provider, taskId, 600, 600)
    await releaseWithDraw(w, taskId, true)
    await audit(w, taskId, [[shortener, 300]])
    assert.equal((await w.market.read.getAudit([taskId])).round, 2, 'one auditor alone cannot cut the bill')
    const hash = await audit(w, taskId, [
      [a2, 600],
      [a3, 610],
    ])
    const [resolved] = await w.getEvents(hash, w.market, 'AuditResolved')
    assert.equal(resolved?.verdict, Verdict.Upheld)
    // The upper median of 300, 600 and 610 is 600: what the provider billed.
    assert.deepEqual(await w.getEvents(hash, w.market, 'RuntimeOverstated'), [])
    assert.equal(await w.market.read.balanceOf([provider.account.address]), netOf(600n * RATE))
    assert.equal((await w.staking.read.stakeOf([provider.account.address])).staked, grid(1_000))
    await w.checkInvariants()
  })

  it('a validated source is not measured: its audits run the validator, whose runtime says nothing of the work', async () => {
    const w = await load()
    const [provider, auditor] = w.provs as [Wallet, Wallet]
    const taskId = await submitMetered(w, w.sources_.validated)
    await deliver(w, provider, taskId, 900, 900)
    await releaseWithDraw(w, taskId, true)
    const hash = await audit(w, taskId, [[auditor, 20]], VALIDATION_PASSED)
    const [resolved] = await w.getEvents(hash, w.market, 'AuditResolved')
    assert.equal(resolved?.verdict, Verdict.Upheld)
    assert.deepEqual(await w.getEvents(hash, w.market, 'RuntimeOverstated'), [])
    assert.equal(await w.market.read.balanceOf([provider.account.address]), netOf(900n * RATE))
    await w.checkInvariants()
  })
})
