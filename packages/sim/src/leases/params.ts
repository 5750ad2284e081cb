/**
 * What the lease simulation models off chain, and the size of its world. The contract's own parameters
 * (`ackGrace`, `offlineAfter`, `responseWindow`, `claimWindow`, the fee) are read from the chain: they are the
 * LocalGridforge defaults, and the off-chain policies below are stated in their terms.
 */
export interface LeaseSimParams {
  /** Renters and providers of the lease world (the first of the task world's clients and providers). */
  renters: number
  providers: number
  /** Leases requested per run, spread over `arrivalSpanSec`. */
  leases: number
  arrivalSpanSec: number
  /** Lease durations, drawn uniformly, whole minutes. */
  minDurationSec: number
  maxDurationSec: number
  /** Price per second, drawn uniformly, in GRID. */
  minPricePerSec: number
  maxPricePerSec: number
  /** The penalty in seconds of the price, and the uptime threshold of every request. */
  penaltySec: number
  minUptimeBps: number
  /** Deposit beyond the whole lease's price, in seconds of the price (no lease runs out of deposit). */
  depositMarginSec: number
  /** The renter's software acknowledges served seconds this often. */
  ackIntervalSec: number
  /** The gateway stops serving when servedSec lags its own count by more than this many intervals. */
  lagToleranceIntervals: number
  /** The provider's agent redeems the latest acknowledgement this often (and at once on a report, and at the end). */
  redeemEverySec: number
  /** Seconds after an event an agent acts on it (a report answered, a silence ended, a lease settled). */
  reactionSec: number
  /** The provider's running cost of a served second, as a fraction of the price (saved while down). */
  costFraction: number
  /** The renter's value of a served second, as a multiple of the price. */
  valueMultiple: number
  /** The offline provider goes down at a time drawn uniformly in this part of the lease. */
  offlineFrom: number
  offlineTo: number
  /** The last-period renter stops acknowledging this many intervals before the lease's end. */
  lastPeriodIntervals: number
  /** The under-reporting renter acknowledges this fraction less than it was served. */
  underReportFraction: number
}

export const defaultLeaseSimParams: LeaseSimParams = {
  renters: 4,
  providers: 3,
  leases: 16,
  arrivalSpanSec: 4 * 3600,
  minDurationSec: 2 * 3600,
  maxDurationSec: 8 * 3600,
  minPricePerSec: 0.0005,
  maxPricePerSec: 0.002,
  penaltySec: 3600,
  minUptimeBps: 9500,
  depositMarginSec: 600,
  ackIntervalSec: 60,
  lagToleranceIntervals: 2,
  redeemEverySec: 3 * 3600,
  reactionSec: 5,
  costFraction: 0.6,
  valueMultiple: 1.5,
  offlineFrom: 0.2,
  offlineTo: 0.8,
  lastPeriodIntervals: 2,
  underReportFraction: 0.02,
}

/** The contract's lease parameters a lease keeps (ILeaseMarket `LeaseParams`), read from the chain. */
export interface LeaseRules {
  protocolFeeBps: number
  ackGrace: number
  offlineAfter: number
  responseWindow: number
  claimWindow: number
}
