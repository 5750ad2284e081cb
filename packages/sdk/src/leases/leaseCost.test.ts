import { zeroAddress } from 'viem'
import { describe, expect, it } from 'vitest'
import type { Lease } from '../types/lease.js'
import { leaseCost } from './leaseCost.js'

const price = 10n ** 15n // 0.001 GRID a second
const startedAt = 1_800_000_000
const lease: Lease = {
  leaseId: 7n,
  renter: zeroAddress,
  provider: zeroAddress,
  ackSigner: zeroAddress,
  sourceId: 1,
  status: 'Active',
  reason: 'None',
  paramsVersion: 1,
  minUptimeBps: 0,
  penaltySec: 0,
  pricePerSec: price,
  deposit: 10n * 10n ** 18n, // 10,000 s of service
  startedAt,
  endsAt: startedAt + 86_400,
  acceptBy: 0,
  servedSec: 0,
  lastProofAt: 0,
  reportedAt: 0,
}

describe('leaseCost', () => {
  it('counts every elapsed second as accrued, the redeemed ones as paid', () => {
    // 600 s in, 540 s redeemed (the deposit already paid them: 10 - 0.54 GRID left).
    const cost = leaseCost(
      { ...lease, servedSec: 540, deposit: lease.deposit - 540n * price },
      { now: startedAt + 600, ackGrace: 300 },
    )
    expect(cost).toMatchObject({
      elapsedSec: 600,
      accrued: 600n * price,
      paid: 540n * price,
      unpaid: 60n * price,
      depositLeft: lease.deposit - 600n * price,
      fundedUntil: startedAt + 10_000,
      endsAt: startedAt + 10_000,
      secondsLeft: 9_400,
      lowDeposit: false,
      ended: false,
    })
  })

  it('flags a deposit that runs out within ackGrace, and the end when it has', () => {
    expect(leaseCost(lease, { now: startedAt + 9_800, ackGrace: 300 }).lowDeposit).toBe(true)
    const ended = leaseCost(lease, { now: startedAt + 20_000, ackGrace: 300 })
    expect(ended).toMatchObject({ elapsedSec: 10_000, unpaid: lease.deposit, depositLeft: 0n, ended: true })
  })

  it('ends at the end time when the deposit lasts longer', () => {
    const short = { ...lease, endsAt: startedAt + 1_000 }
    expect(leaseCost(short, { now: startedAt + 5_000, ackGrace: 300 })).toMatchObject({
      endsAt: startedAt + 1_000,
      elapsedSec: 1_000,
      depositLeft: lease.deposit - 1_000n * price,
      ended: true,
    })
  })

  it('costs nothing while requested', () => {
    expect(
      leaseCost(
        { ...lease, status: 'Requested', startedAt: 0, endsAt: 7_200 },
        { now: startedAt, ackGrace: 300 },
      ),
    ).toMatchObject({ accrued: 0n, unpaid: 0n, depositLeft: lease.deposit, endsAt: 0, ended: false })
  })
})
