import { describe, expect, it } from 'vitest'
import { defaultLeaseSimParams as params } from './params.js'
import { drawLeases, type LeaseTerms, priceWei } from './terms.js'
import { type LeasePlays, playLease } from './timeline.js'

/** LocalGridforge's lease parameters. */
const rules = {
  protocolFeeBps: 500,
  ackGrace: 300,
  offlineAfter: 900,
  responseWindow: 600,
  claimWindow: 3600,
}
const terms: LeaseTerms = {
  index: 0,
  renter: 0,
  provider: 0,
  arrival: 60,
  durationSec: 4 * 3600,
  pricePerSec: 0.001,
  downAt: 5000,
}
const play = (plays: Partial<LeasePlays>) =>
  playLease(terms, { provider: 'honest', renter: 'honest', ...plays }, params, rules)

describe('playLease', () => {
  it('honest on both sides: served and paid to the end, redeemed every few hours and after the end', () => {
    const lease = play({})
    expect(lease).toMatchObject({
      servedSec: 14_400,
      redeemedSec: 14_400,
      end: 14_400,
      reason: 'Expired',
      penalty: false,
      cutAt: undefined,
      reports: 0,
    })
    expect(lease.actions).toEqual([
      { at: 10_800, by: 'provider', kind: 'redeem', ack: { at: 10_800, servedSec: 10_800 } },
      { at: 14_405, by: 'provider', kind: 'redeem', ack: { at: 14_400, servedSec: 14_400 } },
    ])
  })

  it('an offline provider is paid up to its last acknowledgement, reported, and pays the penalty', () => {
    const lease = play({ provider: 'offline' })
    // Down at 5000 s: the last acknowledgement is at 4980 s; the renter reports offlineAfter after it.
    expect(lease).toMatchObject({
      servedSec: 5000,
      redeemedSec: 4980,
      end: 4980,
      reason: 'ProviderOffline',
      penalty: true,
      reports: 1,
      reportsAnswered: 0,
    })
    expect(lease.actions).toEqual([
      { at: 5000, by: 'provider', kind: 'redeem', ack: { at: 4980, servedSec: 4980 } },
      { at: 5880, by: 'renter', kind: 'report' },
      { at: 5880 + 600 + 30, by: 'renter', kind: 'settle' },
    ])
  })

  it('a renter that stops acknowledging before the end keeps the service it did not pay for, at most the gateway’s tolerance', () => {
    const lease = play({ renter: 'last-period' })
    expect(lease).toMatchObject({ servedSec: 14_400, redeemedSec: 14_280, reason: 'Expired', penalty: false })
    expect(lease.servedSec - lease.redeemedSec).toBe(2 * 60)
    // Stopping earlier: the gateway cuts it off once the lag passes 2 intervals (before its acknowledgement is
    // ackGrace / 2 old), and the agent ends the lease for silence ackGrace after it.
    const early = playLease(
      terms,
      { provider: 'honest', renter: 'last-period' },
      { ...params, lastPeriodIntervals: 30 },
      rules,
    )
    expect(early).toMatchObject({ redeemedSec: 12_600, end: 12_600, reason: 'RenterSilent', cutAt: 12_721 })
    expect(early.servedSec - early.redeemedSec).toBe(121)
    expect(early.actions.at(-1)).toEqual({
      at: 12_600 + 300 + 5,
      by: 'provider',
      kind: 'endForSilence',
      ack: { at: 12_600, servedSec: 12_600 },
    })
  })

  it('an under-reporting renter is cut off once its acknowledgements lag by the tolerance, and ended for silence', () => {
    const lease = play({ renter: 'under-reporting' })
    expect(lease.reason).toBe('RenterSilent')
    expect(lease.penalty).toBe(false)
    const cutAt = lease.cutAt as number
    // 2% of what it was served, plus the interval since its last acknowledgement, passed 2 intervals.
    expect(cutAt).toBeGreaterThan((2 * 60 - 59) / 0.02)
    expect(cutAt).toBeLessThan((2 * 60) / 0.02 + 60)
    expect(lease.servedSec).toBe(cutAt)
    expect(lease.servedSec - lease.redeemedSec).toBeLessThanOrEqual(2 * 60 + 1)
  })

  it('a renter that reports whenever it may is answered every time and the provider pays no penalty', () => {
    const lease = play({ renter: 'reporting' })
    expect(lease).toMatchObject({ reason: 'Expired', penalty: false, redeemedSec: 14_400 })
    expect(lease.reports).toBeGreaterThan(10)
    expect(lease.reportsAnswered).toBe(lease.reports)
    const reports = lease.actions.filter((a) => a.kind === 'report')
    const answers = lease.actions.filter((a) => a.kind === 'redeem')
    // Each report comes offlineAfter after the last proof, and is answered reactionSec later.
    for (const report of reports)
      expect(answers.some((a) => a.at === report.at + params.reactionSec)).toBe(true)
  })
})

describe('drawLeases', () => {
  it('draws the same leases for a seed, different ones for another', () => {
    expect(drawLeases(params, 7)).toEqual(drawLeases(params, 7))
    expect(drawLeases(params, 7)).not.toEqual(drawLeases(params, 8))
  })

  it('draws whole-minute durations and nano-GRID prices within bounds, and gives every renter and provider leases', () => {
    const leases = drawLeases(params, 3)
    expect(leases).toHaveLength(params.leases)
    for (const lease of leases) {
      expect(lease.durationSec % 60).toBe(0)
      expect(lease.durationSec).toBeGreaterThanOrEqual(params.minDurationSec)
      expect(lease.durationSec).toBeLessThanOrEqual(params.maxDurationSec)
      expect(priceWei(lease.pricePerSec) % 1_000_000_000n).toBe(0n)
      expect(lease.downAt).toBeGreaterThanOrEqual(params.offlineFrom * lease.durationSec - 1)
      expect(lease.downAt).toBeLessThanOrEqual(params.offlineTo * lease.durationSec + 1)
    }
    expect(new Set(leases.map((l) => l.renter)).size).toBe(params.renters)
    expect(new Set(leases.map((l) => l.provider)).size).toBe(params.providers)
  })
})
