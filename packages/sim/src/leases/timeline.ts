/**
 * One lease's off-chain life, second by second: whether the provider serves, the acknowledgements the renter's
 * software signs, the gateway's cut-off, and the on-chain actions each side's agent takes in answer. Pure: the
 * run sends the actions as real transactions, and a revert there means this model broke a rule of the contract.
 *
 * The provider's gateway and agent (provider-kit's policy): the gateway stops serving a renter whose latest
 * acknowledgement is older than `ackGrace / 2` or whose `servedSec` lags the gateway's own count by more than
 * `lagToleranceIntervals` intervals; the agent ends the lease for silence with the latest acknowledgement once it
 * is `ackGrace` old, redeems the latest every `redeemEverySec`, at once when an offline report arrives, and after
 * the end (which settles).
 */
import type { LeaseRules, LeaseSimParams } from './params.js'
import type { LeaseTerms } from './terms.js'

export type ProviderPlay = 'honest' | 'offline'
export type RenterPlay = 'honest' | 'last-period' | 'under-reporting' | 'reporting'

/** `Usage(leaseId, servedSec, at)`, `at` in seconds after the lease's start. */
export interface Ack {
  at: number
  servedSec: number
}

/** An on-chain action, `at` seconds after the lease's start. */
export type LeaseAction =
  | { at: number; by: 'provider'; kind: 'redeem'; ack: Ack }
  /** Without an acknowledgement: the last proof on chain stands for it (an empty signature). */
  | { at: number; by: 'provider'; kind: 'endForSilence'; ack: Ack | undefined }
  | { at: number; by: 'renter'; kind: 'report' }
  | { at: number; by: 'provider' | 'renter'; kind: 'settle' }

export type EndReasonName = 'Expired' | 'ProviderOffline' | 'RenterSilent'

export interface LeaseTimeline {
  actions: LeaseAction[]
  /** Seconds the renter was actually served. */
  servedSec: number
  /** Seconds paid for: the lease's `servedSec` on chain at settlement. */
  redeemedSec: number
  /** The lease's end (seconds after the start) and its reason, as the contract will record them. */
  end: number
  reason: EndReasonName
  /** Whether the provider's collateral pays the penalty (the contract's rule, applied to the model's figures). */
  penalty: boolean
  /** When the gateway stopped serving the renter (undefined: it never did). */
  cutAt: number | undefined
  reports: number
  reportsAnswered: number
}

export interface LeasePlays {
  provider: ProviderPlay
  renter: RenterPlay
}

/** Plays one lease of `terms` with `plays` under the contract's `rules`. */
export function playLease(
  terms: LeaseTerms,
  plays: LeasePlays,
  params: LeaseSimParams,
  rules: LeaseRules,
): LeaseTimeline {
  const duration = terms.durationSec
  const interval = params.ackIntervalSec
  const { ackGrace, offlineAfter, responseWindow, claimWindow } = rules
  const react = params.reactionSec
  const upUntil = plays.provider === 'offline' ? terms.downAt : Number.POSITIVE_INFINITY
  const acksUntil =
    plays.renter === 'last-period'
      ? duration - params.lastPeriodIntervals * interval
      : Number.POSITIVE_INFINITY
  const horizon = duration + claimWindow + responseWindow + 600

  const actions: LeaseAction[] = []
  let served = 0
  let cutAt: number | undefined
  /** The latest acknowledgement the gateway took (the provider holds it). */
  let latest: Ack | undefined
  /** The last proof of service on chain (the start until a redemption) and the seconds paid. */
  let proof = 0
  let redeemed = 0
  let reportedAt: number | undefined
  let reports = 0
  let reportsAnswered = 0
  let ended: { end: number; reason: EndReasonName } | undefined

  const serving = (t: number) => t <= duration && t <= upUntil && cutAt === undefined
  /** What a redemption of `ack` does on chain: pays up to it, proves service at its time, may answer a report. */
  const proven = (ack: Ack) => {
    proof = ack.at
    redeemed = ack.servedSec
    if (reportedAt !== undefined && ack.at + offlineAfter >= reportedAt) {
      reportedAt = undefined
      reportsAnswered++
    }
  }
  const redeem = (t: number, ack: Ack) => {
    actions.push({ at: t, by: 'provider', kind: 'redeem', ack })
    proven(ack)
  }

  for (let t = 1; ended === undefined; t++) {
    if (t > horizon) throw new Error(`sim: lease ${terms.index} did not settle by ${horizon} s`)
    // The second (t − 1, t] of service.
    if (serving(t)) served++
    // The renter's software acknowledges what it got (the gateway takes it while it serves).
    if (t % interval === 0 && serving(t) && t <= acksUntil) {
      const servedSec =
        plays.renter === 'under-reporting' ? Math.floor(served * (1 - params.underReportFraction)) : served
      latest = { at: t, servedSec }
    }
    // The gateway's cut-off.
    if (t < duration && t <= upUntil && cutAt === undefined) {
      const lag = served - (latest?.servedSec ?? 0)
      if (t - (latest?.at ?? 0) > ackGrace / 2 || lag > params.lagToleranceIntervals * interval) cutAt = t
    }

    // The provider's agent: the offline provider's redeems what it has as it goes down, then nothing.
    if (plays.provider === 'offline' && t === upUntil && latest !== undefined && latest.at > proof) {
      redeem(t, latest)
    }
    if (t <= upUntil) {
      if (t < duration && t % params.redeemEverySec === 0 && latest !== undefined && latest.at > proof) {
        redeem(t, latest)
      }
      if (reportedAt !== undefined && t === reportedAt + react && latest !== undefined) {
        if (latest.at + offlineAfter >= reportedAt) redeem(t, latest)
      }
      const silentSince = latest?.at ?? 0
      if (
        cutAt !== undefined &&
        t === silentSince + ackGrace + react &&
        silentSince + ackGrace < duration &&
        (reportedAt === undefined || silentSince + offlineAfter >= reportedAt)
      ) {
        actions.push({ at: t, by: 'provider', kind: 'endForSilence', ack: latest })
        if (latest !== undefined) proven(latest)
        ended = { end: silentSince, reason: 'RenterSilent' }
        break
      }
      if (t === duration + react && reportedAt === undefined) {
        if (latest !== undefined) redeem(t, latest)
        else actions.push({ at: t, by: 'provider', kind: 'settle' })
        ended = { end: duration, reason: 'Expired' }
        break
      }
    }

    // The renter: reports a provider that stopped serving (the reporting renter: whenever the rules allow),
    // and settles a report left unanswered.
    const wantsToReport = plays.renter === 'reporting' || t > upUntil + interval
    if (wantsToReport && reportedAt === undefined && t >= proof + offlineAfter && t < duration - 30) {
      actions.push({ at: t, by: 'renter', kind: 'report' })
      reportedAt = t
      reports++
    }
    if (reportedAt !== undefined && t === reportedAt + responseWindow + 30) {
      actions.push({ at: t, by: 'renter', kind: 'settle' })
      ended = { end: proof, reason: 'ProviderOffline' }
      break
    }
    if (t === duration + claimWindow + 30) {
      actions.push({ at: t, by: 'renter', kind: 'settle' })
      ended = { end: duration, reason: 'Expired' }
      break
    }
  }

  const { end, reason } = ended
  const downtime = end - redeemed
  const tolerance = 2 * ackGrace + (end * (10_000 - params.minUptimeBps)) / 10_000
  return {
    actions,
    servedSec: served,
    redeemedSec: redeemed,
    end,
    reason,
    penalty: reason === 'ProviderOffline' || (params.minUptimeBps !== 0 && downtime > Math.floor(tolerance)),
    cutAt,
    reports,
    reportsAnswered,
  }
}
