/**
 * Seeded randomness keyed by what it decides, not by call order: `draw(seed, 'online', task, provider)`
 * gives the same number in every run of the same seed, whatever else happened before it. Runs that differ
 * in one participant's strategy therefore see the same arrivals, runtimes and availability, and the
 * difference of their payoffs is the strategy's effect, not noise.
 */
import { keccak256, toHex } from 'viem'

/** A number in [0, 1) determined by `seed` and `key`. */
export function draw(seed: number, ...key: readonly (string | number)[]): number {
  const hash = keccak256(toHex(`${seed}|${key.join('|')}`))
  // 52 bits: exactly representable as a double.
  return Number(BigInt(hash.slice(0, 15)) & ((1n << 52n) - 1n)) / 2 ** 52
}

/** A number in [min, max) determined by `seed` and `key`. */
export function drawBetween(
  min: number,
  max: number,
  seed: number,
  ...key: readonly (string | number)[]
): number {
  return min + (max - min) * draw(seed, ...key)
}

/** An exponentially distributed number with mean `mean`, determined by `seed` and `key`. */
export function drawExponential(mean: number, seed: number, ...key: readonly (string | number)[]): number {
  return -mean * Math.log(1 - draw(seed, ...key))
}
