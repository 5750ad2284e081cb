import type { Address } from 'viem'

/** The contract's `LeaseStatus` names, by enum value. `Active` includes a lease past its end but not settled. */
export const leaseStatuses = ['None', 'Requested', 'Active', 'Settled'] as const

/** Where a lease is in its life. */
export type LeaseStatus = (typeof leaseStatuses)[number]

/** The contract's `EndReason` names, by enum value. */
export const leaseEndReasons = [
  'None',
  'Cancelled',
  'NotAccepted',
  'ClosedByRenter',
  'OutOfDeposit',
  'ProviderNotice',
  'ProviderOffline',
  'Expired',
  'RenterSilent',
] as const

/** Why a lease ended (`'None'` while it runs with no fixed end). */
export type LeaseEndReason = (typeof leaseEndReasons)[number]

/** A lease as `getLease` reads it: statuses as names, amounts in base units, times in Unix seconds. */
export interface Lease {
  leaseId: bigint
  renter: Address
  /** The zero address while requested. */
  provider: Address
  /** Signs usage acknowledgements for the renter (the renter itself when it named none). */
  ackSigner: Address
  sourceId: number
  status: LeaseStatus
  /** Set when the end is fixed (a close, a notice, an unanswered report) or at settlement. */
  reason: LeaseEndReason
  /** The version of the lease parameters (ackGrace, offlineAfter…) the lease keeps. */
  paramsVersion: number
  minUptimeBps: number
  penaltySec: number
  /** The request's maximum price until accepted, then the accepted price, per second in base units. */
  pricePerSec: bigint
  /** Escrow left: the deposit and top-ups less what was paid. */
  deposit: bigint
  /** Acceptance time (0 while requested). */
  startedAt: number
  /** The latest the lease runs; while requested, the requested duration in seconds. */
  endsAt: number
  /** While requested: the time a provider must accept by (0 otherwise). */
  acceptBy: number
  /** Seconds of service acknowledged and redeemed. */
  servedSec: number
  /** `at` of the latest redeemed acknowledgement (0: none yet). */
  lastProofAt: number
  /** When the renter reported the provider offline (0: no report pending). */
  reportedAt: number
}
