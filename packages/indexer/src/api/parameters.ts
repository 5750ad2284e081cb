/**
 * Request parameters, each declared once: how it is read (with the 400 message
 * that names it and says what is allowed) and how the OpenAPI document
 * describes it. A route's parameters are a record of these; `readParameters`
 * reads them all and refuses any other query parameter.
 */
import { ParameterError } from './errors.js'
import type { JsonSchema } from './schemas.js'

export interface Parameter<value> {
  in: 'query' | 'path'
  description: string
  /** The JSON Schema of the raw string, for the OpenAPI document. */
  schema: JsonSchema
  required: boolean
  /** Reads the raw value (undefined when absent); throws a ParameterError naming `name`. */
  read(raw: string | undefined, name: string): value
}

/** The values a record of parameters reads to. */
export type ParameterValues<parameters extends Record<string, Parameter<unknown>>> = {
  [name in keyof parameters]: ReturnType<parameters[name]['read']>
}

/** What a request offers: its path parameters and its query string. */
export interface RequestParameters {
  path: Record<string, string>
  query: URLSearchParams
}

/** Reads every parameter of a route; refuses query parameters it does not declare, and repeated ones. */
export function readParameters<parameters extends Record<string, Parameter<unknown>>>(
  request: RequestParameters,
  parameters: parameters,
): ParameterValues<parameters> {
  const queryNames = Object.keys(parameters).filter((name) => parameters[name]?.in === 'query')
  for (const name of new Set(request.query.keys())) {
    if (!queryNames.includes(name))
      throw new ParameterError(
        name,
        queryNames.length === 0
          ? 'unknown parameter: this route takes no query parameters'
          : `unknown parameter: this route takes ${queryNames.join(', ')}`,
      )
    if (request.query.getAll(name).length > 1)
      throw new ParameterError(name, 'given more than once: give it once')
  }
  const values: Record<string, unknown> = {}
  for (const [name, parameter] of Object.entries(parameters)) {
    const raw = parameter.in === 'path' ? request.path[name] : (request.query.get(name) ?? undefined)
    values[name] = parameter.read(raw, name)
  }
  return values as ParameterValues<parameters>
}

/** A query parameter that is absent unless given. */
function optional<value>(
  description: string,
  schema: JsonSchema,
  read: (raw: string, name: string) => value,
): Parameter<value | undefined> {
  return {
    in: 'query',
    description,
    schema,
    required: false,
    read: (raw, name) => (raw === undefined ? undefined : read(raw, name)),
  }
}

const addressPattern = /^0x[0-9a-fA-F]{40}$/

/** An address (any case), read lowercased as the tables keep them. */
export function addressQuery(description: string): Parameter<`0x${string}` | undefined> {
  return optional(description, { type: 'string', pattern: addressPattern.source }, readAddress)
}

/** An address in the path. */
export function addressPath(description: string): Parameter<`0x${string}`> {
  return {
    in: 'path',
    description,
    schema: { type: 'string', pattern: addressPattern.source },
    required: true,
    read: (raw, name) => readAddress(raw ?? '', name),
  }
}

function readAddress(raw: string, name: string): `0x${string}` {
  if (!addressPattern.test(raw))
    throw new ParameterError(name, `expected an address (0x and 40 hex digits), got ${JSON.stringify(raw)}`)
  return raw.toLowerCase() as `0x${string}`
}

const uintPattern = /^(0|[1-9][0-9]*)$/

/** A whole number from `min` to `max` (bigint ids: task ids are uint256). */
function readWhole(raw: string, name: string, what: string, min: bigint, max: bigint): bigint {
  const value = uintPattern.test(raw) && raw.length <= 78 ? BigInt(raw) : undefined
  if (value === undefined || value < min || value > max)
    throw new ParameterError(name, `expected ${what}, got ${JSON.stringify(raw)}`)
  return value
}

const maxUint256 = 2n ** 256n - 1n
const maxUint32 = 2n ** 32n - 1n

/** A task id in the path (1 to 2^256 − 1). */
export function taskIdPath(description: string): Parameter<bigint> {
  return idPath(description, 'a task id')
}

/** A lease id in the path (1 to 2^256 − 1). */
export function leaseIdPath(description: string): Parameter<bigint> {
  return idPath(description, 'a lease id')
}

function idPath(description: string, what: string): Parameter<bigint> {
  return {
    in: 'path',
    description,
    schema: { type: 'string', pattern: '^[1-9][0-9]*$' },
    required: true,
    read: (raw, name) => readWhole(raw ?? '', name, `${what} (a whole number from 1)`, 1n, maxUint256),
  }
}

/** A source id in the path (1 to 2^32 − 1). */
export function sourceIdPath(description: string): Parameter<number> {
  return {
    in: 'path',
    description,
    schema: { type: 'string', pattern: '^[1-9][0-9]*$' },
    required: true,
    read: (raw, name) =>
      Number(readWhole(raw ?? '', name, 'a source id (a whole number from 1 to 4294967295)', 1n, maxUint32)),
  }
}

/** A source id in the query. */
export function sourceIdQuery(description: string): Parameter<number | undefined> {
  return optional(description, { type: 'string', pattern: '^[1-9][0-9]*$' }, (raw, name) =>
    Number(readWhole(raw, name, 'a source id (a whole number from 1 to 4294967295)', 1n, maxUint32)),
  )
}

/** A source id in the query that must be given. */
export function requiredSourceIdQuery(description: string): Parameter<number> {
  return {
    in: 'query',
    description,
    schema: { type: 'string', pattern: '^[1-9][0-9]*$' },
    required: true,
    read: (raw, name) => {
      if (raw === undefined) throw new ParameterError(name, 'missing: give a source id')
      return Number(readWhole(raw, name, 'a source id (a whole number from 1 to 4294967295)', 1n, maxUint32))
    },
  }
}

const maxUint96 = 2n ** 96n - 1n
const amountWhat = (min: bigint) => `an amount in base units (a whole number from ${min} to ${maxUint96})`

/** An amount of token base units (wei) as a decimal string, up to 2^96 − 1 as the market keeps payments. */
export function amountQuery(description: string, min: bigint): Parameter<bigint | undefined> {
  return optional(description, { type: 'string', pattern: uintPattern.source }, (raw, name) =>
    readWhole(raw, name, amountWhat(min), min, maxUint96),
  )
}

/** An amount that must be given. */
export function requiredAmountQuery(description: string, min: bigint): Parameter<bigint> {
  return {
    in: 'query',
    description,
    schema: { type: 'string', pattern: uintPattern.source },
    required: true,
    read: (raw, name) => {
      if (raw === undefined) throw new ParameterError(name, `missing: give ${amountWhat(min)}`)
      return readWhole(raw, name, amountWhat(min), min, maxUint96)
    },
  }
}

/** A whole number from `min` to `max`, `fallback` when absent. */
export function wholeQuery(
  description: string,
  min: number,
  max: number,
  fallback: number,
): Parameter<number> {
  return {
    in: 'query',
    description,
    schema: { type: 'string', pattern: uintPattern.source, default: String(fallback) },
    required: false,
    read: (raw, name) =>
      raw === undefined
        ? fallback
        : Number(readWhole(raw, name, `a whole number from ${min} to ${max}`, BigInt(min), BigInt(max))),
  }
}

/** One or more of `values`, comma-separated. */
export function oneOrMoreOf<const value extends string>(
  description: string,
  values: readonly value[],
): Parameter<value[] | undefined> {
  return optional(
    description,
    { type: 'string', pattern: `^(${values.join('|')})(,(${values.join('|')}))*$` },
    (raw, name) => {
      const given = raw.split(',')
      const unknown = given.find((item) => !values.includes(item as value))
      if (unknown !== undefined)
        throw new ParameterError(
          name,
          `expected one or more of ${values.join(', ')} (comma-separated), got ${JSON.stringify(unknown)}`,
        )
      return [...new Set(given)] as value[]
    },
  )
}

/** One of `values`, `fallback` when absent. */
export function oneOf<const value extends string>(
  description: string,
  values: readonly value[],
  fallback: value,
): Parameter<value> {
  return {
    in: 'query',
    description,
    schema: { type: 'string', enum: [...values], default: fallback },
    required: false,
    read: (raw, name) => {
      if (raw === undefined) return fallback
      if (!values.includes(raw as value))
        throw new ParameterError(name, `expected one of ${values.join(', ')}, got ${JSON.stringify(raw)}`)
      return raw as value
    },
  }
}

/** `true` or `false`. */
export function booleanQuery(description: string): Parameter<boolean | undefined> {
  return optional(description, { type: 'string', enum: ['true', 'false'] }, (raw, name) => {
    if (raw !== 'true' && raw !== 'false')
      throw new ParameterError(name, `expected true or false, got ${JSON.stringify(raw)}`)
    return raw === 'true'
  })
}

/** The most items a page holds. */
export const maxLimit = 100
export const defaultLimit = 20

/** How many items a page holds: 1 to 100, 20 when absent. */
export const limit: Parameter<number> = {
  in: 'query',
  description: `How many items a page holds, 1 to ${maxLimit} (default ${defaultLimit}).`,
  schema: { type: 'string', pattern: '^[1-9][0-9]*$', default: String(defaultLimit) },
  required: false,
  read: (raw, name) =>
    raw === undefined
      ? defaultLimit
      : Number(readWhole(raw, name, `a whole number from 1 to ${maxLimit}`, 1n, BigInt(maxLimit))),
}

/**
 * An opaque cursor: the `nextCursor` of the previous page of the same list.
 * It wraps the sort key of the page's last item with the list's name, so a
 * cursor of another list (or a made-up one) is refused.
 */
export function cursor(list: string, key: RegExp): Parameter<string | undefined> {
  return optional(
    'Where the page starts: the `nextCursor` of the previous page (absent: the newest items).',
    { type: 'string' },
    (raw, name) => {
      const decoded = /^[A-Za-z0-9_-]+$/.test(raw) ? Buffer.from(raw, 'base64url').toString('utf8') : ''
      const [prefix, value] = [decoded.slice(0, list.length + 1), decoded.slice(list.length + 1)]
      if (prefix !== `${list}:` || !key.test(value))
        throw new ParameterError(
          name,
          `expected the nextCursor of a previous page of ${list}, got ${JSON.stringify(raw)}`,
        )
      return value
    },
  )
}

/** The cursor that starts the page after the one whose last sort key is `value`. */
export function encodeCursor(list: string, value: string): string {
  return Buffer.from(`${list}:${value}`, 'utf8').toString('base64url')
}
