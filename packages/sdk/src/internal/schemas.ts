import * as z from 'zod/mini'
import { parseAmount } from '../utils/amount.js'
import { parseCid } from '../utils/cid.js'
import { parseDuration } from '../utils/duration.js'

/**
 * A schema from a parse function that returns the value or why the input is
 * not one. Typed as taking `NonNullable<unknown>` (anything but undefined), so that inside
 * `z.object` the field is required unless wrapped in `z.optional`.
 */
function parsed<T>(
  parse: (input: unknown) => { value: T } | { error: string },
): z.ZodMiniType<T, NonNullable<unknown>> {
  return z.transform((input: unknown, context) => {
    const result = parse(input)
    if ('value' in result) return result.value
    context.issues.push({ code: 'custom', message: result.error, input })
    return z.NEVER
  }) as unknown as z.ZodMiniType<T, NonNullable<unknown>>
}

/** A CID string (CIDv1 base32). */
export const cid = /* @__PURE__ */ parsed<string>((input) => {
  const result = parseCid(input)
  return 'cid' in result ? { value: input as string } : result
})

/** An amount in token units (`'1.5'`) or base units (bigint), to base units. */
export const amount = (decimals: number) => parsed<bigint>((input) => parseAmount(input, decimals))

/** A non-zero amount. */
export const positiveAmount = (decimals: number) =>
  parsed<bigint>((input) => {
    const result = parseAmount(input, decimals)
    return 'value' in result && result.value === 0n ? { error: 'must be greater than zero' } : result
  })

/** A duration (`'30m'`, seconds) to seconds. */
export const duration = /* @__PURE__ */ parsed<number>((input) => {
  const seconds = parseDuration(input)
  return seconds === undefined
    ? { error: "pass a duration like '90s', '30m', '2h', '7d' or a number of seconds" }
    : { value: seconds }
})

/** A deadline: a Date, or a duration from now (resolved against the chain's clock later). */
export const deadline = /* @__PURE__ */ parsed<Date | number>((input) => {
  if (input instanceof Date) {
    return Number.isNaN(input.getTime())
      ? { error: 'the Date is invalid' }
      : { value: input as Date | number }
  }
  const seconds = parseDuration(input)
  return seconds === undefined
    ? { error: "pass a Date, or a duration like '30m', '2h', '7d'" }
    : { value: seconds as Date | number }
})

/** An unsigned integer of `bits` bits, as a number (ids, counts, basis points). */
export const uint = (bits: number, max = 2 ** bits - 1, min = 0) =>
  parsed<number>((input) => {
    const value = typeof input === 'bigint' ? Number(input) : input
    return typeof value === 'number' && Number.isSafeInteger(value) && value >= min && value <= max
      ? { value }
      : { error: `expected a whole number from ${min} to ${max}` }
  })

/** An address (0x + 40 hex digits). */
export const address = /* @__PURE__ */ parsed<`0x${string}`>((input) =>
  typeof input === 'string' && /^0x[0-9a-fA-F]{40}$/.test(input)
    ? { value: input as `0x${string}` }
    : { error: 'expected an address: 0x followed by 40 hex digits' },
)

/** 32 bytes as 0x-prefixed hex (a bytes32: a digest, a salt, an X25519 public key). */
export const bytes32 = /* @__PURE__ */ parsed<`0x${string}`>((input) =>
  typeof input === 'string' && /^0x[0-9a-fA-F]{64}$/.test(input)
    ? { value: input as `0x${string}` }
    : { error: 'expected 32 bytes as hex: 0x followed by 64 hex digits' },
)

/** A 65-byte ECDSA signature as 0x-prefixed hex (r, s, v). */
export const signature = /* @__PURE__ */ parsed<`0x${string}`>((input) =>
  typeof input === 'string' && /^0x[0-9a-fA-F]{130}$/.test(input)
    ? { value: input as `0x${string}` }
    : { error: 'expected a 65-byte signature: 0x followed by 130 hex digits' },
)

/** A task id: a positive bigint, safe integer or decimal string (as a CLI passes it), as a bigint. */
export const taskId = /* @__PURE__ */ z.transform((input: unknown, context) => {
  const value =
    typeof input === 'bigint'
      ? input
      : typeof input === 'number' && Number.isSafeInteger(input)
        ? BigInt(input)
        : typeof input === 'string' && /^\d{1,78}$/.test(input)
          ? BigInt(input)
          : undefined
  if (value !== undefined && value > 0n && value < 2n ** 256n) return value
  context.issues.push({ code: 'custom', message: 'expected a task id: a whole number from 1', input })
  return z.NEVER
})

/** A lease id: a positive bigint, safe integer or decimal string (as a CLI passes it), as a bigint. */
export const leaseId = /* @__PURE__ */ z.transform((input: unknown, context) => {
  const value =
    typeof input === 'bigint'
      ? input
      : typeof input === 'number' && Number.isSafeInteger(input)
        ? BigInt(input)
        : typeof input === 'string' && /^\d{1,78}$/.test(input)
          ? BigInt(input)
          : undefined
  if (value !== undefined && value > 0n && value < 2n ** 256n) return value
  context.issues.push({ code: 'custom', message: 'expected a lease id: a whole number from 1', input })
  return z.NEVER
})
