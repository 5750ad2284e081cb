import type { Lease } from '../types/lease.js'

/** A lease's cost meter at one moment; amounts in base units, times in Unix seconds. */
export interface LeaseCost {
  /** The moment the meter reads (the latest block's time). */
  now: number
  pricePerSec: bigint
  /** Seconds of the lease so far: from its start to now or its end, whichever is first. */
  elapsedSec: number
  /** What the elapsed seconds cost at the lease's price: the most the provider can be paid so far. */
  accrued: bigint
  /** Already paid to the provider: the redeemed acknowledgements' seconds × price. */
  paid: bigint
  /** Accrued but not redeemed yet: the provider may still claim it with a later acknowledgement. */
  unpaid: bigint
  /** The deposit beyond what is accrued: what would come back on a close now. */
  depositLeft: bigint
  /** When the deposit runs out at this price (0 while requested): the lease ends then unless topped up. */
  fundedUntil: number
  /** When the lease ends, as things stand: the earliest of its end time and `fundedUntil` (0 while requested). */
  endsAt: number
  /** Seconds until `endsAt` (0 once ended). */
  secondsLeft: number
  /** Whether the deposit runs out within `ackGrace`: top up now, or the lease ends for want of funds. */
  lowDeposit: boolean
  /** Whether `endsAt` has passed (or the lease is settled). */
  ended: boolean
}

/**
 * The cost meter of `lease` at `now`, the contract's own arithmetic
 * (`_endOf`, `closeLease`) done client-side: the renter pays only
 * acknowledged seconds, but every second up to now may still be acknowledged
 * and redeemed, so the meter counts them all.
 *
 * @example
 * leaseCost(lease, { now: 1_800_000_600, ackGrace: 300 }).depositLeft
 */
export function leaseCost(lease: Lease, { now, ackGrace }: { now: number; ackGrace: number }): LeaseCost {
  const price = lease.pricePerSec
  const paid = price * BigInt(lease.servedSec)
  if (lease.status !== 'Active') {
    const settled = lease.status === 'Settled'
    const elapsedSec = settled ? Math.max(0, lease.endsAt - lease.startedAt) : 0
    return {
      now,
      pricePerSec: price,
      elapsedSec,
      accrued: settled ? paid : 0n,
      paid: settled ? paid : 0n,
      unpaid: 0n,
      depositLeft: lease.deposit,
      fundedUntil: 0,
      endsAt: settled ? lease.endsAt : 0,
      secondsLeft: 0,
      lowDeposit: false,
      ended: settled,
    }
  }
  const fundedSec = price === 0n ? 0 : Number(lease.deposit / price)
  const fundedUntil = lease.startedAt + lease.servedSec + fundedSec
  const endsAt = Math.min(lease.endsAt, fundedUntil)
  const elapsedSec = Math.max(0, Math.min(now, endsAt) - lease.startedAt)
  const accrued = price * BigInt(elapsedSec)
  const owed = accrued > paid ? accrued - paid : 0n
  const unpaid = owed > lease.deposit ? lease.deposit : owed
  const secondsLeft = Math.max(0, endsAt - now)
  return {
    now,
    pricePerSec: price,
    elapsedSec,
    accrued,
    paid,
    unpaid,
    depositLeft: lease.deposit - unpaid,
    fundedUntil,
    endsAt,
    secondsLeft,
    lowDeposit: secondsLeft > 0 && fundedUntil - now < ackGrace,
    ended: secondsLeft === 0,
  }
}
