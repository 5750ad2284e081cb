import { describe, expect, test } from 'vitest'
import { encodeJson } from './encodeJson.js'
import { InvalidJsonContentError, InvalidJsonValueError } from './errors.js'
import { getJson } from './getJson.js'
import { memoryStore } from './memoryStore.js'

const json = (value: unknown) => new TextDecoder().decode(encodeJson(value))

describe('encodeJson', () => {
  test('sorted keys at every level, no whitespace', () => {
    expect(json({ b: [{ z: 1, y: 2 }], a: 'x', c: { e: true, d: null } })).toBe(
      '{"a":"x","b":[{"y":2,"z":1}],"c":{"d":null,"e":true}}',
    )
    expect(json([3, 'two', false])).toBe('[3,"two",false]')
    expect(json('s')).toBe('"s"')
  })

  test('keys sort by UTF-16 code units (RFC 8785 order), strings and numbers as JSON.stringify writes them', () => {
    expect(json({ é: 1, z: 2, Z: 3, '10': 4, '2': 5 })).toBe('{"10":4,"2":5,"Z":3,"z":2,"é":1}')
    expect(json({ s: 'line\n"quote"\u2028', n: [1e21, 0.1, -0, 5e-7] })).toBe(
      `{"n":[1e+21,0.1,0,5e-7],"s":${JSON.stringify('line\n"quote"\u2028')}}`,
    )
  })

  test('UTF-8 bytes', () => {
    expect(Array.from(encodeJson('ą'))).toEqual([0x22, 0xc4, 0x85, 0x22])
  })

  test('toJSON is honoured and undefined properties are left out', () => {
    expect(json({ at: new Date(0), skip: undefined })).toBe('{"at":"1970-01-01T00:00:00.000Z"}')
  })

  test.each([
    [{ a: 1n }, '/a', 'bigint'],
    [{ a: [1, Number.NaN] }, '/a/1', 'NaN'],
    [{ a: Number.POSITIVE_INFINITY }, '/a', 'Infinity'],
    [[undefined], '/0', 'undefined'],
    [undefined, '', 'undefined'],
    [{ f: () => 1 }, '/f', 'function'],
    [{ 'a/b': new Map() }, '/a~1b', 'not a plain object'],
    [{ bytes: new Uint8Array(1) }, '/bytes', 'not a plain object'],
  ])('refuses %o at %j', (value, pointer, reason) => {
    const error = (() => {
      try {
        encodeJson(value)
      } catch (e) {
        return e
      }
    })() as InvalidJsonValueError
    expect(error).toBeInstanceOf(InvalidJsonValueError)
    expect(error.pointer).toBe(pointer)
    expect(error.message).toContain(reason)
  })

  test('refuses cycles but accepts shared references', () => {
    const shared = { x: 1 }
    expect(json({ a: shared, b: shared })).toBe('{"a":{"x":1},"b":{"x":1}}')
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    expect(() => encodeJson(cyclic)).toThrow(/cycle/)
  })
})

describe('getJson', () => {
  test('content that is not JSON or not UTF-8', async () => {
    const store = memoryStore()
    const notJson = await store.put(new TextEncoder().encode('{nope'))
    await expect(getJson(store, notJson)).rejects.toBeInstanceOf(InvalidJsonContentError)
    const notUtf8 = await store.put(new Uint8Array([0x22, 0xff, 0x22]))
    await expect(getJson(store, notUtf8)).rejects.toBeInstanceOf(InvalidJsonContentError)
  })

  test('a document over maxBytes is refused', async () => {
    const store = memoryStore()
    const cid = await store.putJson({ data: 'x'.repeat(1000) })
    await expect(getJson(store, cid, { maxBytes: 100 })).rejects.toThrow(/more than maxBytes \(100 bytes\)/)
  })
})
