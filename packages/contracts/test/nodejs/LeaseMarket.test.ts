import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { network } from 'hardhat'
import { getAddress, hashTypedData } from 'viem'
import { deployGridforge, type Gridforge, grid } from './helpers/fixture.js'
import {
  checkLeaseInvariant,
  EndReason,
  LEASE_PARAMS,
  LeaseStatus,
  leaseSetup,
  PRICE,
  SESSION_KEY,
} from './helpers/leases.js'

const connection = await network.create()
const { viem, networkHelpers } = connection

/** The default request's penalty: an hour of the price, locked from the provider's stake. */
const COLLATERAL = PRICE * 3_600n
const FEE_BPS = BigInt(LEASE_PARAMS.protocolFeeBps)
/** What the provider nets from `seconds` of service. */
const net = (seconds: number) => (PRICE * BigInt(seconds) * (10_000n - FEE_BPS)) / 10_000n

async function setup() {
  const gf = await networkHelpers.loadFixture(deployGridforge)
  return { gf, ...(await leaseSetup(gf)) }
}

async function tokenOf(gf: Gridforge, who: { account: { address: `0x${string}` } }) {
  return gf.token.read.balanceOf([who.account.address])
}

describe('LeaseMarket: request, accept, pay by the second', () => {
  it('signs acknowledgements the way the contract hashes them (EIP-712 Usage)', async () => {
    const { gf, chainId } = await setup()
    const digest = hashTypedData({
      domain: { name: 'Gridforge LeaseMarket', version: '1', chainId, verifyingContract: gf.leases.address },
      types: {
        Usage: [
          { name: 'leaseId', type: 'uint256' },
          { name: 'servedSec', type: 'uint40' },
          { name: 'at', type: 'uint40' },
        ],
      },
      primaryType: 'Usage',
      message: { leaseId: 7n, servedSec: 60, at: 1_000 },
    })
    assert.equal(await gf.leases.read.usageDigest([7n, 60, 1_000]), digest)
  })

  it('closes early with the unspent deposit back at once and the rest to the provider, to the wei', async () => {
    const { gf, renter, provider, request, accept, redeem, at } = await setup()
    const before = await tokenOf(gf, renter)
    const id = await request()
    assert.equal(await tokenOf(gf, renter), before - grid(10))
    const t0 = await accept(id)
    assert.equal((await gf.staking.read.stakeOf([provider.account.address])).locked, COLLATERAL)

    await at(t0 + 600)
    await redeem(id, 600, t0 + 600)
    assert.equal(await gf.leases.read.balanceOf([provider.account.address]), net(600))

    // The renter closes at 1,000 s: it gets back everything but the 400 s not yet proven, at once.
    await at(t0 + 1_000)
    const hash = gf.leases.write.closeLease([id], { account: renter.account })
    const [ended] = await gf.getEvents(hash, gf.leases, 'LeaseEnded')
    assert.equal(ended?.reason, EndReason.ClosedByRenter)
    assert.equal(ended?.refunded, grid(10) - PRICE * 1_000n)
    assert.equal(await tokenOf(gf, renter), before - PRICE * 1_000n)
    await checkLeaseInvariant(gf)

    // Its last acknowledgement, redeemed by the provider, settles the lease.
    await at(t0 + 1_010)
    const settled = gf.getEvents(redeem(id, 1_000, t0 + 1_000), gf.leases, 'LeaseSettled')
    const [event] = await settled
    assert.equal(event?.reason, EndReason.ClosedByRenter)
    assert.equal(event?.uptimeBps, 10_000)
    assert.equal(event?.penalty, 0n)
    assert.equal(await gf.leases.read.balanceOf([provider.account.address]), net(1_000))
    assert.equal(await gf.leases.read.feesAccrued(), PRICE * 1_000n - net(1_000))
    assert.equal(await gf.leases.read.balanceOf([renter.account.address]), 0n)
    assert.deepEqual(await gf.staking.read.stakeOf([provider.account.address]).then((s) => s.locked), 0n)
    const record = await gf.leases.read.recordOf([provider.account.address])
    assert.equal(record.accepted, 1)
    assert.equal(record.completed, 1)
    assert.equal(record.servedSec, 1_000n)
    assert.equal(record.leasedSec, 1_000n)
    await checkLeaseInvariant(gf)

    // The provider withdraws; fees go to the task market's treasury.
    const earned = net(1_000)
    const providerTokens = await tokenOf(gf, provider)
    await gf.leases.write.withdrawTo([provider.account.address, earned], { account: provider.account })
    assert.equal(await tokenOf(gf, provider), providerTokens + earned)
    const treasuryTokens = await gf.token.read.balanceOf([gf.treasury])
    await gf.leases.write.releaseFees()
    assert.equal(await gf.token.read.balanceOf([gf.treasury]), treasuryTokens + PRICE * 1_000n - earned)
    await checkLeaseInvariant(gf)
  })

  it('requests and tops up with permits: one signature, no approve transaction', async () => {
    const { gf, renter, sourceId, accept } = await setup()
    const now = await networkHelpers.time.latest()
    const request = {
      sourceId,
      maxPricePerSec: PRICE,
      duration: 3_600,
      deposit: grid(5),
      penaltySec: 0,
      minUptimeBps: 0,
      ackSigner: SESSION_KEY.address,
      acceptBy: now + 600,
    }
    const hash = gf.leases.write.requestLeaseWithPermit(
      [request, await gf.signPermit(renter, gf.leases.address, grid(5))],
      { account: renter.account },
    )
    const [event] = await gf.getEvents(hash, gf.leases, 'LeaseRequested')
    const id = event!.leaseId
    await accept(id)
    await gf.leases.write.topUpWithPermit(
      [id, grid(2), await gf.signPermit(renter, gf.leases.address, grid(2))],
      {
        account: renter.account,
      },
    )
    assert.equal((await gf.leases.read.getLease([id])).deposit, grid(7))
    assert.equal(await gf.token.read.allowance([renter.account.address, gf.leases.address]), 0n)
    await checkLeaseInvariant(gf)
  })

  it('accepts at a price below the maximum and locks that price times the penalty', async () => {
    const { gf, provider, request, accept } = await setup()
    const id = await request({ maxPricePerSec: PRICE * 2n })
    await viem.assertions.revertWithCustomErrorWithArgs(
      gf.leases.write.acceptLease([id, PRICE * 3n], { account: provider.account }),
      gf.leases,
      'LeaseMarketPriceAboveMax',
      [PRICE * 3n, PRICE * 2n],
    )
    await accept(id, PRICE)
    const lease = await gf.leases.read.getLease([id])
    assert.equal(lease.pricePerSec, PRICE)
    assert.equal(lease.status, LeaseStatus.Active)
    assert.equal((await gf.staking.read.stakeOf([provider.account.address])).locked, COLLATERAL)
  })

  it('runs out of deposit with its reason, unless topped up; anyone settles after the claim window', async () => {
    const { gf, renter, provider, request, accept, redeem, at } = await setup()
    const id = await request()
    const t0 = await accept(id)
    // 10 GRID at 0.001 GRID/s: 10,000 s.
    assert.deepEqual(await gf.leases.read.leaseEnd([id]), [t0 + 10_000, EndReason.None])
    await gf.token.write.approve([gf.leases.address, grid('3.6')], { account: renter.account })
    await gf.leases.write.topUp([id, grid('3.6')], { account: renter.account })
    assert.deepEqual(await gf.leases.read.leaseEnd([id]), [t0 + 13_600, EndReason.None])

    // Redeemed by the provider before the end (after it, the provider's redemption settles the lease).
    await at(t0 + 13_599)
    await redeem(id, 13_000, t0 + 13_000)
    await networkHelpers.mine()
    assert.deepEqual(await gf.leases.read.leaseEnd([id]), [t0 + 13_600, EndReason.OutOfDeposit])
    // Topping up after the end is refused: the lease is over.
    await gf.token.write.approve([gf.leases.address, grid(1)], { account: renter.account })
    await viem.assertions.revertWithCustomErrorWithArgs(
      gf.leases.write.topUp([id, grid(1)], { account: renter.account }),
      gf.leases,
      'LeaseMarketEnded',
      [id, t0 + 13_600],
    )
    // Not the renter before the claim window has passed; anyone after.
    await viem.assertions.revertWithCustomErrorWithArgs(
      gf.leases.write.settleLease([id], { account: renter.account }),
      gf.leases,
      'LeaseMarketClaimWindowOpen',
      [id, t0 + 13_600 + LEASE_PARAMS.claimWindow],
    )
    await at(t0 + 13_600 + LEASE_PARAMS.claimWindow)
    const [event] = await gf.getEvents(
      gf.leases.write.settleLease([id], { account: gf.others[0]!.account }),
      gf.leases,
      'LeaseSettled',
    )
    assert.equal(event?.reason, EndReason.OutOfDeposit)
    // 600 s not acknowledged within 13,600 s: under the 2 × ackGrace + 5 % tolerance, no penalty.
    assert.equal(event?.penalty, 0n)
    assert.equal(event?.refunded, PRICE * 600n)
    assert.equal(await gf.leases.read.balanceOf([provider.account.address]), net(13_000))
    assert.equal(await gf.leases.read.balanceOf([renter.account.address]), PRICE * 600n)
    await checkLeaseInvariant(gf)
  })

  it('extends, expires, and settles with the provider’s last acknowledgement', async () => {
    const { gf, renter, request, accept, redeem, at } = await setup()
    const id = await request({ duration: 3_600, deposit: grid(20) })
    const t0 = await accept(id)
    await gf.leases.write.extend([id, 1_800], { account: renter.account })
    assert.equal((await gf.leases.read.getLease([id])).endsAt, t0 + 5_400)
    await at(t0 + 5_500)
    const [event] = await gf.getEvents(redeem(id, 5_400, t0 + 5_400), gf.leases, 'LeaseSettled')
    assert.equal(event?.reason, EndReason.Expired)
    assert.equal(event?.refunded, grid(20) - PRICE * 5_400n)
    assert.equal(await gf.leases.read.balanceOf([renter.account.address]), grid(20) - PRICE * 5_400n)
    await checkLeaseInvariant(gf)
  })

  it('lets the provider leave only with a notice, paid until it ends', async () => {
    const { gf, renter, provider, request, accept, redeem, at } = await setup()
    const id = await request()
    const t0 = await accept(id)
    await at(t0 + 100)
    await gf.leases.write.giveNotice([id], { account: provider.account })
    assert.deepEqual(await gf.leases.read.leaseEnd([id]), [t0 + 100 + 3_600, EndReason.ProviderNotice])
    await viem.assertions.revertWithCustomErrorWithArgs(
      gf.leases.write.extend([id, 60], { account: renter.account }),
      gf.leases,
      'LeaseMarketEndFixed',
      [id, EndReason.ProviderNotice],
    )
    await at(t0 + 3_800)
    const [event] = await gf.getEvents(redeem(id, 3_700, t0 + 3_700), gf.leases, 'LeaseSettled')
    assert.equal(event?.reason, EndReason.ProviderNotice)
    assert.equal(event?.penalty, 0n)
    assert.equal(await gf.leases.read.balanceOf([provider.account.address]), net(3_700))
    await checkLeaseInvariant(gf)
  })
})

describe('LeaseMarket: the uptime guarantee', () => {
  it('a provider that stops serving: the renter stops paying at the last proof, is refunded and gets the penalty', async () => {
    const { gf, renter, provider, request, accept, redeem, at } = await setup()
    const id = await request()
    const t0 = await accept(id)
    await at(t0 + 600)
    await redeem(id, 600, t0 + 600)
    // The agent dies. The renter may report once the last proof is offlineAfter old.
    await at(t0 + 1_499)
    await viem.assertions.revertWithCustomErrorWithArgs(
      gf.leases.write.reportOffline([id], { account: renter.account }),
      gf.leases,
      'LeaseMarketServiceRecent',
      [id, t0 + 600, t0 + 1_500],
    )
    await at(t0 + 1_500)
    await gf.leases.write.reportOffline([id], { account: renter.account })
    await viem.assertions.revertWithCustomErrorWithArgs(
      gf.leases.write.settleLease([id]),
      gf.leases,
      'LeaseMarketAnswerWindowOpen',
      [id, t0 + 2_100],
    )
    await at(t0 + 2_101)
    const stakedBefore = (await gf.staking.read.stakeOf([provider.account.address])).staked
    const [event] = await gf.getEvents(gf.leases.write.settleLease([id]), gf.leases, 'LeaseSettled')
    assert.equal(event?.reason, EndReason.ProviderOffline)
    assert.equal(event?.endedAt, t0 + 600)
    assert.equal(event?.penalty, COLLATERAL)
    assert.equal(event?.refunded, grid(10) - PRICE * 600n)
    assert.equal(
      await gf.leases.read.balanceOf([renter.account.address]),
      grid(10) - PRICE * 600n + COLLATERAL,
    )
    const stake = await gf.staking.read.stakeOf([provider.account.address])
    assert.equal(stake.staked, stakedBefore - COLLATERAL)
    assert.equal(stake.locked, 0n)
    assert.equal((await gf.leases.read.recordOf([provider.account.address])).failed, 1)
    await checkLeaseInvariant(gf)
  })

  it('a provider still serving answers a report with a recent acknowledgement', async () => {
    const { gf, renter, request, accept, redeem, at } = await setup()
    const id = await request()
    const t0 = await accept(id)
    await at(t0 + 900)
    await gf.leases.write.reportOffline([id], { account: renter.account })
    await at(t0 + 950)
    const [answered] = await gf.getEvents(redeem(id, 940, t0 + 940), gf.leases, 'OfflineReportAnswered')
    assert.equal(answered?.at, t0 + 940)
    assert.equal((await gf.leases.read.getLease([id])).reportedAt, 0)
    await viem.assertions.revertWithCustomErrorWithArgs(
      gf.leases.write.settleLease([id]),
      gf.leases,
      'LeaseMarketNotEnded',
      [id, t0 + 10_000],
    )
  })

  it('an acknowledgement older than the report window does not answer it', async () => {
    const { gf, renter, request, accept, redeem, at } = await setup()
    const id = await request()
    const t0 = await accept(id)
    await at(t0 + 2_000)
    await gf.leases.write.reportOffline([id], { account: renter.account })
    // 100 s: more than offlineAfter (900 s) before the report.
    await at(t0 + 2_010)
    await redeem(id, 100, t0 + 100)
    assert.equal((await gf.leases.read.getLease([id])).reportedAt, t0 + 2_000)
    await at(t0 + 2_601)
    const [event] = await gf.getEvents(gf.leases.write.settleLease([id]), gf.leases, 'LeaseSettled')
    assert.equal(event?.reason, EndReason.ProviderOffline)
    assert.equal(event?.endedAt, t0 + 100)
    await checkLeaseInvariant(gf)
  })

  it('misses the uptime threshold: the penalty goes to the renter; within the tolerance it does not', async () => {
    for (const [outage, penalized] of [
      [1_500, true],
      [1_100, false],
    ] as const) {
      const { gf, renter, provider, request, accept, redeem, at } = await setup()
      const id = await request({ duration: 10_000, deposit: grid(20) })
      const t0 = await accept(id)
      // The renter's software counted `outage` seconds without service.
      await at(t0 + 10_001)
      const [event] = await gf.getEvents(redeem(id, 10_000 - outage, t0 + 10_000), gf.leases, 'LeaseSettled')
      assert.equal(event?.reason, EndReason.Expired)
      assert.equal(event?.uptimeBps, ((10_000 - outage) * 10_000) / 10_000)
      assert.equal(event?.penalty, penalized ? COLLATERAL : 0n, `outage ${outage}`)
      const record = await gf.leases.read.recordOf([provider.account.address])
      assert.equal(record.failed, penalized ? 1 : 0)
      assert.equal(record.completed, penalized ? 0 : 1)
      assert.equal(
        await gf.leases.read.balanceOf([renter.account.address]),
        grid(20) - PRICE * BigInt(10_000 - outage) + (penalized ? COLLATERAL : 0n),
      )
      await checkLeaseInvariant(gf)
    }
  })

  it('a provider cannot dodge the threshold by redeeming an acknowledgement from before its outage', async () => {
    const { gf, provider, request, accept, redeem, at } = await setup()
    const id = await request({ duration: 10_000, deposit: grid(20) })
    const t0 = await accept(id)
    await at(t0 + 5_000)
    await redeem(id, 5_000, t0 + 5_000)
    // An outage after 5,000 s: the provider settles with only the old acknowledgement.
    await at(t0 + 10_001)
    const [event] = await gf.getEvents(
      gf.leases.write.settleLease([id], { account: provider.account }),
      gf.leases,
      'LeaseSettled',
    )
    assert.equal(event?.uptimeBps, 5_000)
    assert.equal(event?.penalty, COLLATERAL)
    await checkLeaseInvariant(gf)
  })
})

describe('LeaseMarket: renters who do not pay', () => {
  it('a renter that withholds acknowledgements to earn the penalty gets nothing: the provider ends for silence first', async () => {
    const { gf, renter, provider, request, accept, redeem, ack, at } = await setup()
    const id = await request()
    const t0 = await accept(id)
    await at(t0 + 600)
    await redeem(id, 600, t0 + 600)
    // Last acknowledgement at 1,200 s; the renter goes quiet and reports at the first moment it may.
    const lastAck = await ack(id, 1_200, t0 + 1_200)
    await at(t0 + 1_500)
    await gf.leases.write.reportOffline([id], { account: renter.account })
    // The provider's agent ends for silence ackGrace after the last acknowledgement; that answers the report.
    await at(t0 + 1_501)
    const hash = gf.leases.write.endForSilence([id, 1_200, t0 + 1_200, lastAck], {
      account: provider.account,
    })
    const [event] = await gf.getEvents(hash, gf.leases, 'LeaseSettled')
    assert.equal(event?.reason, EndReason.RenterSilent)
    assert.equal(event?.endedAt, t0 + 1_200)
    assert.equal(event?.penalty, 0n)
    assert.equal(await gf.leases.read.balanceOf([renter.account.address]), grid(10) - PRICE * 1_200n)
    assert.equal(await gf.leases.read.balanceOf([provider.account.address]), net(1_200))
    assert.equal((await gf.staking.read.stakeOf([provider.account.address])).locked, 0n)
    const record = await gf.leases.read.recordOf([provider.account.address])
    assert.equal(record.endedForSilence, 1)
    assert.equal(record.failed, 0)
    await checkLeaseInvariant(gf)
  })

  it('a renter that never acknowledges is ended from the start, before it could report', async () => {
    const { gf, renter, provider, request, accept, at } = await setup()
    const id = await request()
    const t0 = await accept(id)
    await at(t0 + 299)
    await viem.assertions.revertWithCustomErrorWithArgs(
      gf.leases.write.endForSilence([id, 0, 0, '0x'], { account: provider.account }),
      gf.leases,
      'LeaseMarketAckNotLapsed',
      [id, t0, t0 + 300],
    )
    await at(t0 + 300)
    const [event] = await gf.getEvents(
      gf.leases.write.endForSilence([id, 0, 0, '0x'], { account: provider.account }),
      gf.leases,
      'LeaseSettled',
    )
    assert.equal(event?.reason, EndReason.RenterSilent)
    assert.equal(event?.penalty, 0n)
    assert.equal(await gf.leases.read.balanceOf([renter.account.address]), grid(10))
    await checkLeaseInvariant(gf)
  })

  it('a provider reported offline cannot escape by calling its renter silent with an old acknowledgement', async () => {
    const { gf, renter, provider, request, accept, ack, at } = await setup()
    const id = await request()
    const t0 = await accept(id)
    const old = await ack(id, 100, t0 + 100)
    await at(t0 + 2_000)
    await gf.leases.write.reportOffline([id], { account: renter.account })
    await viem.assertions.revertWithCustomErrorWithArgs(
      gf.leases.write.endForSilence([id, 100, t0 + 100, old], { account: provider.account }),
      gf.leases,
      'LeaseMarketReportPending',
      [id, t0 + 2_000],
    )
  })

  it('a renter closing before the provider redeems loses nothing it owes: the provider has the claim window', async () => {
    const { gf, renter, provider, request, accept, redeem, at } = await setup()
    const id = await request()
    const t0 = await accept(id)
    await at(t0 + 3_000)
    await gf.leases.write.closeLease([id], { account: renter.account })
    // The renter cannot settle it before the provider had its window, nor redeem an early ack to settle it.
    await viem.assertions.revertWithCustomErrorWithArgs(
      gf.leases.write.settleLease([id], { account: renter.account }),
      gf.leases,
      'LeaseMarketClaimWindowOpen',
      [id, t0 + 3_000 + LEASE_PARAMS.claimWindow],
    )
    await at(t0 + 3_010)
    await redeem(id, 100, t0 + 100, renter)
    assert.equal((await gf.leases.read.getLease([id])).status, LeaseStatus.Active)
    await at(t0 + 3_500)
    await redeem(id, 2_990, t0 + 2_990)
    const lease = await gf.leases.read.getLease([id])
    assert.equal(lease.status, LeaseStatus.Settled)
    assert.equal(await gf.leases.read.balanceOf([provider.account.address]), net(2_990))
    await checkLeaseInvariant(gf)
  })
})

describe('LeaseMarket: acknowledgements the renter did not make are refused', () => {
  it('refuses other signers, other leases, the future, more service than time, going backwards, after the end', async () => {
    const { gf, provider, renter, request, accept, redeem, ack, at } = await setup()
    const id = await request()
    const other = await request()
    const t0 = await accept(id)
    await accept(other)
    const signer = getAddress(SESSION_KEY.address)
    await at(t0 + 100)
    // Signed by the provider's own wallet.
    const forged = await provider.signTypedData({
      domain: {
        name: 'Gridforge LeaseMarket',
        version: '1',
        chainId: await gf.publicClient.getChainId(),
        verifyingContract: gf.leases.address,
      },
      types: {
        Usage: [
          { name: 'leaseId', type: 'uint256' },
          { name: 'servedSec', type: 'uint40' },
          { name: 'at', type: 'uint40' },
        ],
      },
      primaryType: 'Usage',
      message: { leaseId: id, servedSec: 50, at: t0 + 50 },
    })
    await viem.assertions.revertWithCustomErrorWithArgs(
      gf.leases.write.redeemUsage([id, 50, t0 + 50, forged], { account: provider.account }),
      gf.leases,
      'LeaseMarketBadSignature',
      [id, signer],
    )
    // Signed for the other lease.
    const forOther = await ack(other, 50, t0 + 50)
    await viem.assertions.revertWithCustomErrorWithArgs(
      gf.leases.write.redeemUsage([id, 50, t0 + 50, forOther], { account: provider.account }),
      gf.leases,
      'LeaseMarketBadSignature',
      [id, signer],
    )
    for (const [served, when] of [
      [50, t0 + 500], // in the future
      [80, t0 + 60], // more service than time
    ] as const) {
      await viem.assertions.revertWithCustomErrorWithArgs(
        redeem(id, served, when),
        gf.leases,
        'LeaseMarketBadUsage',
        [id, served, when],
      )
    }
    await redeem(id, 60, t0 + 60)
    for (const [served, when] of [
      [50, t0 + 90], // fewer seconds than already redeemed
      [60, t0 + 59], // older than the last
    ] as const) {
      await viem.assertions.revertWithCustomErrorWithArgs(
        redeem(id, served, when),
        gf.leases,
        'LeaseMarketBadUsage',
        [id, served, when],
      )
    }
    // After the renter closed, nothing past the close counts.
    await at(t0 + 200)
    await gf.leases.write.closeLease([id], { account: renter.account })
    await at(t0 + 300)
    await viem.assertions.revertWithCustomErrorWithArgs(
      redeem(id, 250, t0 + 250),
      gf.leases,
      'LeaseMarketBadUsage',
      [id, 250, t0 + 250],
    )
  })
})

describe('LeaseMarket: an ack signer whose answer could change', () => {
  it('accepts ECDSA signatures only: a contract named as signer cannot take back what it acknowledged', async () => {
    const { gf, provider, request, accept, at } = await setup()
    const signer = await viem.deployContract('ToggleSigner', [])
    const id = await request({ ackSigner: signer.address })
    const t0 = await accept(id)
    await at(t0 + 100)
    // The contract answers "valid" to anything, yet no signature passes: acknowledgements must be a key's.
    await viem.assertions.revertWithCustomErrorWithArgs(
      gf.leases.write.redeemUsage([id, 50, t0 + 50, `0x${'11'.repeat(65)}`], { account: provider.account }),
      gf.leases,
      'LeaseMarketBadSignature',
      [id, getAddress(signer.address)],
    )
  })
})

describe('LeaseMarket: who may accept', () => {
  it('refuses the renter, unregistered, unsubscribed, paused, under-equipped and under-staked providers', async () => {
    const { gf, renter, sourceId, request } = await setup()
    const id = await request()
    const [unregistered, unsubscribed, paused, small, understaked] = gf.providerWallets.slice(1, 6)
    await gf.registerProvider(unsubscribed!)
    await gf.registerProvider(paused!, { sourceIds: [sourceId] })
    await gf.providers.write.pause({ account: paused!.account })
    await gf.registerProvider(small!, { sourceIds: [sourceId], capabilities: { vramMiB: 8_192 } })
    await gf.registerProvider(understaked!, { sourceIds: [sourceId] })

    await viem.assertions.revertWithCustomErrorWithArgs(
      gf.leases.write.acceptLease([id, PRICE], { account: renter.account }),
      gf.leases,
      'LeaseMarketRenterCannotAccept',
      [id],
    )
    for (const [wallet, reason] of [
      [unregistered, 'not registered'],
      [unsubscribed, 'not subscribed to the source'],
      [paused, 'paused'],
      [small, "below the source's requirements"],
    ] as const) {
      await viem.assertions.revertWithCustomErrorWithArgs(
        gf.leases.write.acceptLease([id, PRICE], { account: wallet!.account }),
        gf.leases,
        'LeaseMarketNotEligible',
        [getAddress(wallet!.account.address), sourceId, reason],
      )
    }
    // The minimum stake holds at every acceptance: raised above what a registered provider holds, it bars it.
    await gf.providers.write.setMinProviderStake([grid(2_000)])
    await viem.assertions.revertWithCustomErrorWithArgs(
      gf.leases.write.acceptLease([id, PRICE], { account: understaked!.account }),
      gf.leases,
      'LeaseMarketNotEligible',
      [getAddress(understaked!.account.address), sourceId, 'stake below the minimum'],
    )
  })

  it('needs the collateral free in stake, and a request that has not expired', async () => {
    const { gf, provider, request, accept } = await setup()
    // 7 days of penalty at 0.01 GRID/s is 6,048 GRID: more than the 1,000 staked.
    const big = await request({ maxPricePerSec: PRICE * 10n, penaltySec: 7 * 24 * 3_600, deposit: grid(100) })
    await viem.assertions.revertWithCustomError(
      gf.leases.write.acceptLease([big, PRICE * 10n], { account: provider.account }),
      gf.staking,
      'StakingInsufficientAvailable',
    )
    const id = await request()
    await networkHelpers.time.increase(3_601)
    await viem.assertions.revertWithCustomError(accept(id), gf.leases, 'LeaseMarketRequestExpired')
  })
})

describe('LeaseMarket: requests', () => {
  it('cancels in full at once before acceptance, and returns a request nobody accepted', async () => {
    const { gf, renter, request, at } = await setup()
    const before = await tokenOf(gf, renter)
    const cancelled = await request()
    await gf.leases.write.closeLease([cancelled], { account: renter.account })
    assert.equal(await tokenOf(gf, renter), before)
    assert.equal((await gf.leases.read.getLease([cancelled])).reason, EndReason.Cancelled)

    const now = await networkHelpers.time.latest()
    const unaccepted = await request({ acceptBy: now + 600 })
    await viem.assertions.revertWithCustomError(
      gf.leases.write.settleLease([unaccepted]),
      gf.leases,
      'LeaseMarketNotEnded',
    )
    await at(now + 601)
    await gf.leases.write.settleLease([unaccepted], { account: gf.others[0]!.account })
    assert.equal((await gf.leases.read.getLease([unaccepted])).reason, EndReason.NotAccepted)
    assert.equal(await gf.leases.read.balanceOf([renter.account.address]), grid(10))
    await checkLeaseInvariant(gf)
  })

  it('checks every request field, with errors that name the bound', async () => {
    const { gf, request } = await setup()
    await viem.assertions.revertWithCustomError(
      request({ maxPricePerSec: 0n }),
      gf.leases,
      'LeaseMarketZeroPrice',
    )
    await viem.assertions.revertWithCustomError(
      request({ duration: 0 }),
      gf.leases,
      'LeaseMarketDurationOutOfBounds',
    )
    await viem.assertions.revertWithCustomError(
      request({ penaltySec: 7 * 24 * 3_600 + 1 }),
      gf.leases,
      'LeaseMarketPenaltyTooLarge',
    )
    await viem.assertions.revertWithCustomError(
      request({ minUptimeBps: 10_001 }),
      gf.leases,
      'LeaseMarketUptimeOutOfBounds',
    )
    await viem.assertions.revertWithCustomError(
      request({ acceptBy: 1 }),
      gf.leases,
      'LeaseMarketAcceptByOutOfBounds',
    )
    // Less than one ackGrace of service at the maximum price.
    await viem.assertions.revertWithCustomErrorWithArgs(
      request({ deposit: PRICE * 299n }),
      gf.leases,
      'LeaseMarketDepositTooSmall',
      [PRICE * 299n, PRICE * 300n],
    )
    await gf.sources.write.deactivate([1])
    await viem.assertions.revertWithCustomErrorWithArgs(
      request(),
      gf.leases,
      'LeaseMarketSourceInactive',
      [1],
    )
  })

  it('keeps the parameters in force at the request for the whole lease', async () => {
    const { gf, renter, request, accept, at } = await setup()
    const id = await request()
    await gf.leases.write.setParams([{ ...LEASE_PARAMS, offlineAfter: 3_600 }])
    assert.equal((await gf.leases.read.params()).offlineAfter, 3_600)
    const t0 = await accept(id)
    // The old lease may still be reported at 900 s.
    await at(t0 + 900)
    await gf.leases.write.reportOffline([id], { account: renter.account })
    await viem.assertions.revertWithCustomErrorWithArgs(
      gf.leases.write.setParams([{ ...LEASE_PARAMS, offlineAfter: LEASE_PARAMS.ackGrace }]),
      gf.leases,
      'LeaseMarketParamOutOfBounds',
      ['offlineAfter', BigInt(LEASE_PARAMS.ackGrace)],
    )
    await viem.assertions.revertWithCustomError(
      gf.leases.write.setParams([LEASE_PARAMS], { account: renter.account }),
      gf.leases,
      'OwnableUnauthorizedAccount',
    )
  })
})

describe('Staking and the lease market', () => {
  it('names the lease market once, only a lease market on this staking, only by the owner', async () => {
    const { gf, provider } = await setup()
    assert.equal(getAddress(await gf.staking.read.leaseMarket()), getAddress(gf.leases.address))
    await viem.assertions.revertWithCustomErrorWithArgs(
      gf.staking.write.setLeaseMarket([gf.leases.address]),
      gf.staking,
      'StakingLeaseMarketAlreadySet',
      [getAddress(gf.leases.address)],
    )
    await viem.assertions.revertWithCustomError(
      gf.staking.write.setLeaseMarket([gf.leases.address], { account: provider.account }),
      gf.staking,
      'OwnableUnauthorizedAccount',
    )
    // Nobody but the two markets locks or slashes stake.
    await viem.assertions.revertWithCustomErrorWithArgs(
      gf.staking.write.slash([provider.account.address, 1n]),
      gf.staking,
      'StakingNotMarket',
      [getAddress(gf.owner.account.address)],
    )
  })

  it('refuses a lease market built on another staking contract', async () => {
    const { gf } = await setup()
    // A fresh Staking (owner = account 0) whose lease market would be the deployed one, built on gf.staking.
    const staking = await viem.deployContract('Staking', [
      gf.token.address,
      gf.market.address,
      gf.owner.account.address,
      7 * 24 * 3_600,
    ])
    await viem.assertions.revertWithCustomErrorWithArgs(
      staking.write.setLeaseMarket([gf.leases.address]),
      staking,
      'StakingNotLeaseMarket',
      [getAddress(gf.leases.address)],
    )
    await viem.assertions.revertWithCustomErrorWithArgs(
      staking.write.setLeaseMarket([gf.owner.account.address]),
      staking,
      'StakingNotLeaseMarket',
      [getAddress(gf.owner.account.address)],
    )
  })
})
