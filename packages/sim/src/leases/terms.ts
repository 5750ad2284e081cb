/**
 * The leases of a run, drawn from the seed: who rents from whom, when, for how long and at what price. Every
 * number is keyed by the lease's index (`draw(seed, 'lease', i, …)`), so the honest run and a deviating run of a
 * seed rent the same leases and their difference is the strategy's effect.
 */
import { draw, drawBetween } from '../random.js'
import type { LeaseSimParams } from './params.js'

export interface LeaseTerms {
  index: number
  /** Indexes into the world's renters and providers. */
  renter: number
  provider: number
  /** Seconds after the run's start at which the renter requests it (the provider accepts at once). */
  arrival: number
  /** Whole minutes. */
  durationSec: number
  /** GRID per second, rounded to 1e-9 GRID (so it is exact in wei). */
  pricePerSec: number
  /** When the offline provider would go down, in seconds after the start (whole seconds). */
  downAt: number
}

export function drawLeases(params: LeaseSimParams, seed: number): LeaseTerms[] {
  return Array.from({ length: params.leases }, (_, index) => {
    const minutes = Math.round(
      drawBetween(params.minDurationSec / 60, params.maxDurationSec / 60, seed, 'lease', index, 'duration'),
    )
    const durationSec = minutes * 60
    return {
      index,
      // Every renter and every provider takes part: round robin, offset by the seed.
      renter: (index + Math.floor(draw(seed, 'lease-renters') * params.renters)) % params.renters,
      provider: (index + Math.floor(draw(seed, 'lease-providers') * params.providers)) % params.providers,
      arrival: 60 + Math.round(draw(seed, 'lease', index, 'arrival') * params.arrivalSpanSec),
      durationSec,
      pricePerSec:
        Math.round(
          drawBetween(params.minPricePerSec, params.maxPricePerSec, seed, 'lease', index, 'price') * 1e9,
        ) / 1e9,
      downAt: Math.round(
        drawBetween(params.offlineFrom, params.offlineTo, seed, 'lease', index, 'down') * durationSec,
      ),
    }
  })
}

/** A price in GRID per second, in wei (exact: prices are whole nano-GRID). */
export function priceWei(pricePerSec: number): bigint {
  return BigInt(Math.round(pricePerSec * 1e9)) * 1_000_000_000n
}
