/**
 * Option values from the command line. Amounts, durations and CIDs pass
 * through as strings so the actions' own validation names the field; only what
 * the shell cannot express (ids as bigints, integers) is parsed here.
 */
import { InvalidArgumentError } from 'commander'
import type { Amount } from '../utils/amount.js'

/** A positive whole number as a bigint (task ids). */
export function parseId(value: string): bigint {
  if (!/^\d{1,78}$/.test(value) || BigInt(value) === 0n) {
    throw new InvalidArgumentError('expected a whole number from 1')
  }
  return BigInt(value)
}

/** A whole number from 0, as a number (source ids, counts, basis points). */
export function parseInteger(value: string): number {
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value))) {
    throw new InvalidArgumentError('expected a whole number')
  }
  return Number(value)
}

/**
 * A probability `0 < p ≤ 1` (`0.25`, `1`) as basis points (2500, 10000): what
 * `--audit` takes. It must be a whole number of basis points (steps of 0.0001).
 */
export function parseProbabilityBps(value: string): number {
  const probability =
    /^(0|1)?(\.\d+)?$/.test(value.trim()) && value.trim() !== '' ? Number(value) : Number.NaN
  const bps = probability * 10_000
  if (!(probability > 0 && probability <= 1)) {
    throw new InvalidArgumentError(
      'expected a probability above 0 and at most 1, e.g. 0.25 to audit a quarter of the results',
    )
  }
  if (Math.abs(bps - Math.round(bps)) > 1e-6) {
    throw new InvalidArgumentError('expected a probability in steps of 0.0001 (one basis point), e.g. 0.125')
  }
  return Math.round(bps)
}

/** Collects a repeatable option into an array. */
export function collect<value>(parse: (value: string) => value) {
  return (value: string, previous: value[] | undefined): value[] => [...(previous ?? []), parse(value)]
}

/** An amount in token units as the actions take it (validated there, with the field named). */
export function amount(value: string): Amount {
  return value as Amount
}
