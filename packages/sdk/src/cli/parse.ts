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

/** Collects a repeatable option into an array. */
export function collect<value>(parse: (value: string) => value) {
  return (value: string, previous: value[] | undefined): value[] => [...(previous ?? []), parse(value)]
}

/** An amount in token units as the actions take it (validated there, with the field named). */
export function amount(value: string): Amount {
  return value as Amount
}
