import { InvalidJsonValueError, type InvalidJsonValueErrorType } from './errors.js'

export type EncodeJsonErrorType = InvalidJsonValueErrorType

const MAX_DEPTH = 512

/**
 * Encodes a value as deterministic JSON bytes, the form `putJson` stores, so that equal values
 * always give the same bytes and the same CID:
 *
 * - object keys sorted by UTF-16 code units (the order of RFC 8785, JSON Canonicalization Scheme),
 * - no whitespace, UTF-8, numbers and strings written as `JSON.stringify` writes them,
 * - `toJSON()` is honoured (a `Date` becomes its ISO string), object properties that are
 *   `undefined` are left out, as `JSON.stringify` does.
 *
 * Values JSON cannot represent faithfully throw {@link InvalidJsonValueError} naming where they
 * are: `bigint`, `NaN`/`Infinity`, functions, symbols, `undefined` at the root or in an array,
 * `Map`/`Set`/typed arrays and other non-plain objects, and cycles.
 *
 * @example
 * import { encodeJson } from '@gridforge/sdk/storage'
 *
 * new TextDecoder().decode(encodeJson({ b: 1, a: [true, null] }))
 * // '{"a":[true,null],"b":1}'
 */
export function encodeJson(value: unknown): Uint8Array {
  return new TextEncoder().encode(stringify(value, '', new Set(), 0))
}

function stringify(value: unknown, pointer: string, ancestors: Set<object>, depth: number): string {
  if (depth > MAX_DEPTH)
    throw new InvalidJsonValueError({ pointer, reason: `nested deeper than ${MAX_DEPTH} levels` })
  if (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as { toJSON?: unknown }).toJSON === 'function'
  )
    value = (value as { toJSON: (key: string) => unknown }).toJSON(
      pointer.slice(pointer.lastIndexOf('/') + 1),
    )

  switch (typeof value) {
    case 'string':
      return JSON.stringify(value)
    case 'boolean':
      return value ? 'true' : 'false'
    case 'number':
      if (!Number.isFinite(value))
        throw new InvalidJsonValueError({ pointer, reason: `${value} is not a JSON number` })
      return JSON.stringify(value)
    case 'bigint':
      throw new InvalidJsonValueError({ pointer, reason: 'bigint has no JSON form (write it as a string)' })
    case 'undefined':
      throw new InvalidJsonValueError({ pointer, reason: 'undefined has no JSON form (use null)' })
    case 'function':
    case 'symbol':
      throw new InvalidJsonValueError({ pointer, reason: `a ${typeof value} has no JSON form` })
  }
  if (value === null) return 'null'

  const object = value as object
  if (ancestors.has(object))
    throw new InvalidJsonValueError({ pointer, reason: 'the value contains a cycle' })
  ancestors.add(object)
  try {
    if (Array.isArray(object)) {
      const items = object.map((item, index) => stringify(item, `${pointer}/${index}`, ancestors, depth + 1))
      return `[${items.join(',')}]`
    }
    const prototype = Object.getPrototypeOf(object)
    if (prototype !== Object.prototype && prototype !== null)
      throw new InvalidJsonValueError({
        pointer,
        reason: `${Object.prototype.toString.call(object)} is not a plain object`,
      })
    const members: string[] = []
    for (const key of Object.keys(object).sort()) {
      const member = (object as Record<string, unknown>)[key]
      if (member === undefined) continue
      const path = `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`
      members.push(`${JSON.stringify(key)}:${stringify(member, path, ancestors, depth + 1)}`)
    }
    return `{${members.join(',')}}`
  } finally {
    ancestors.delete(object)
  }
}
