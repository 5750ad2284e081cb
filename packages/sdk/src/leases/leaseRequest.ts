import { type Address, zeroAddress } from 'viem'
import type { InvalidField } from '../errors/validation.js'
import * as s from '../internal/schemas.js'
import { type FieldsOutput, optional } from '../internal/validate.js'
import { formatAmount, type TokenInfo } from '../utils/amount.js'

/** The longest lease, its extensions included (the contract's MAX_DURATION: 365 days). */
export const maxLeaseDurationSec = 365 * 86_400
/** The largest penalty, in seconds of the lease's price (the contract's MAX_PENALTY_SEC: 7 days). */
export const maxLeasePenaltySec = 7 * 86_400
/** The latest a request may ask to be accepted by, from now (the contract's MAX_ACCEPT_WINDOW: 30 days). */
export const maxAcceptWindowSec = 30 * 86_400

const maxUint80 = 2n ** 80n - 1n
const maxUint96 = 2n ** 96n - 1n

/**
 * A lease request's fields (amounts parse to base units, durations to seconds).
 * @internal Shared by the request actions and the CLI.
 */
export const leaseRequestFields = (decimals: number) => ({
  sourceId: s.uint(32),
  maxPricePerSec: optional(s.positiveAmount(decimals)),
  maxPricePerHour: optional(s.positiveAmount(decimals)),
  duration: s.duration,
  deposit: s.positiveAmount(decimals),
  penalty: optional(s.duration),
  minUptimeBps: optional(s.uint(16, 10_000)),
  ackSigner: optional(s.address),
  acceptBy: optional(s.deadline),
})

/** A lease request as its fields parse. */
export type ValidLeaseRequestFields = FieldsOutput<ReturnType<typeof leaseRequestFields>>

/** The contract's `LeaseRequest`. */
export interface LeaseRequestArgs {
  sourceId: number
  maxPricePerSec: bigint
  duration: number
  deposit: bigint
  penaltySec: number
  minUptimeBps: number
  ackSigner: Address
  acceptBy: number
}

/**
 * The contract's `LeaseRequest` from parsed fields, or every rule the contract
 * would revert on, each with what to pass instead: one price (per second, or
 * per hour divided by 3600 and rounded down), a duration of at most 365 days,
 * a penalty of at most 7 days, an acceptance deadline within 30 days, and a
 * deposit that covers `ackGrace` of service at the maximum price (less could
 * not even be acknowledged before it ran out).
 * @internal Shared by the request actions and the CLI.
 */
export function toLeaseRequest(
  params: ValidLeaseRequestFields,
  { now, ackGrace, token }: { now: number; ackGrace: number; token: TokenInfo },
): { request: LeaseRequestArgs } | { invalid: InvalidField[] } {
  const invalid: InvalidField[] = []
  const perHour = params.maxPricePerHour
  if ((params.maxPricePerSec === undefined) === (perHour === undefined))
    invalid.push({ path: 'maxPricePerSec', message: 'pass either maxPricePerSec or maxPricePerHour' })
  const price = params.maxPricePerSec ?? (perHour === undefined ? 0n : perHour / 3_600n)
  if (perHour !== undefined && price === 0n)
    invalid.push({
      path: 'maxPricePerHour',
      message: `${formatAmount(perHour, token)} an hour is less than one base unit a second: pass more`,
    })
  if (price > maxUint80)
    invalid.push({ path: 'maxPricePerSec', message: 'is too large (at most 2^80 - 1 base units)' })
  if (params.duration === 0 || params.duration > maxLeaseDurationSec)
    invalid.push({ path: 'duration', message: 'must be from 1s to 365d (extensions included)' })
  const penaltySec = params.penalty ?? 0
  if (penaltySec > maxLeasePenaltySec)
    invalid.push({ path: 'penalty', message: 'must be at most 7d of the price' })
  if (params.deposit > maxUint96)
    invalid.push({ path: 'deposit', message: 'is too large (at most 2^96 - 1 base units)' })
  const needed = price * BigInt(ackGrace)
  if (price !== 0n && params.deposit < needed)
    invalid.push({
      path: 'deposit',
      message: `must cover ackGrace (${ackGrace}s) at the maximum price: at least ${formatAmount(needed, token)}`,
    })
  const acceptBy = params.acceptBy ?? 3_600
  const acceptAt = acceptBy instanceof Date ? Math.floor(acceptBy.getTime() / 1000) : now + acceptBy
  if (acceptAt <= now || acceptAt > now + maxAcceptWindowSec)
    invalid.push({
      path: 'acceptBy',
      message: 'must be in the future and at most 30 days away (e.g. 1h, 2d)',
    })
  if (invalid.length > 0) return { invalid }
  return {
    request: {
      sourceId: params.sourceId,
      maxPricePerSec: price,
      duration: params.duration,
      deposit: params.deposit,
      penaltySec,
      minUptimeBps: params.minUptimeBps ?? 0,
      ackSigner: params.ackSigner ?? zeroAddress,
      acceptBy: acceptAt,
    },
  }
}
