import { describe, expect, test } from 'vitest'
import { computeCid, computeDirectoryCid } from './computeCid.js'
import {
  ContentNotFoundError,
  ContentTooLargeError,
  InvalidCidError,
  InvalidPathError,
  NotADirectoryError,
  NotAFileError,
  PathNotFoundError,
  UnsupportedCidError,
} from './errors.js'
import { getBytes } from './getBytes.js'
import { getJson } from './getJson.js'
import { memoryStore } from './memoryStore.js'

const text = (value: string) => new TextEncoder().encode(value)
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes)

/** `size` bytes of a repeating pattern, produced 100 000 bytes at a time (never whole). */
async function* generated(size: number): AsyncGenerator<Uint8Array> {
  for (let offset = 0; offset < size; offset += 100_000) {
    const chunk = new Uint8Array(Math.min(100_000, size - offset))
    for (let i = 0; i < chunk.length; i++) chunk[i] = ((offset + i) * 7) % 256
    yield chunk
  }
}

function pattern(size: number): Uint8Array {
  const bytes = new Uint8Array(size)
  for (let i = 0; i < size; i++) bytes[i] = (i * 7) % 256
  return bytes
}

describe('memoryStore', () => {
  test('bytes round-trip, with the CID computeCid gives', async () => {
    const store = memoryStore()
    const cid = await store.put(text('hello world'))
    expect(cid).toBe('bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e')
    expect(decode(await getBytes(store, cid))).toBe('hello world')
    const empty = await store.put(new Uint8Array())
    expect(await getBytes(store, empty)).toEqual(new Uint8Array())
    expect(await store.has(cid)).toBe(true)
    expect(await store.has(await computeCid(text('other')))).toBe(false)
  })

  test('a multi-MiB stream round-trips block by block', async () => {
    const store = memoryStore()
    const size = 5 * 1024 * 1024 + 123
    const cid = await store.put(generated(size))
    expect(cid).toBe(await computeCid(pattern(size)))
    const chunks: number[] = []
    for await (const chunk of store.get(cid)) chunks.push(chunk.byteLength)
    // One chunk per 256 KiB leaf, in order.
    expect(chunks.length).toBe(Math.ceil(size / 262_144))
    expect(chunks.every((length) => length <= 262_144)).toBe(true)
    expect(Buffer.compare(await getBytes(store, cid), pattern(size))).toBe(0)
  })

  test('stored blocks are copies: changing the input afterwards changes nothing', async () => {
    const store = memoryStore()
    const input = text('mutable')
    const cid = await store.put(input)
    input.fill(0)
    expect(decode(await getBytes(store, cid))).toBe('mutable')
    const read = await getBytes(store, cid)
    read.fill(0)
    expect(decode(await getBytes(store, cid))).toBe('mutable')
  })

  test('JSON: deterministic bytes, equal values give equal CIDs', async () => {
    const store = memoryStore()
    const a = await store.putJson({ b: 1, a: { d: [1, 'x'], c: null } })
    const b = await store.putJson({ a: { c: null, d: [1, 'x'] }, b: 1 })
    expect(a).toBe(b)
    expect(decode(await getBytes(store, a))).toBe('{"a":{"c":null,"d":[1,"x"]},"b":1}')
    expect(await getJson(store, a)).toEqual({ a: { c: null, d: [1, 'x'] }, b: 1 })
  })

  test('a nested directory: ls, get by path, has', async () => {
    const store = memoryStore()
    const cid = await store.putDirectory([
      { path: 'receipt.json', content: text('{"ok":true}') },
      { path: 'outputs/logs/run.log', content: generated(600_000) },
      { path: 'outputs/result.bin', content: text('result') },
      { path: 'outputs/empty', type: 'directory' },
      { path: 'latest', type: 'symlink', target: 'outputs/result.bin' },
    ])
    expect(cid).toBe(
      await computeDirectoryCid([
        { path: 'outputs/result.bin', content: text('result') },
        { path: 'outputs/logs/run.log', content: pattern(600_000) },
        { path: 'latest', type: 'symlink', target: 'outputs/result.bin' },
        { path: 'receipt.json', content: text('{"ok":true}') },
        { path: 'outputs/empty', type: 'directory' },
      ]),
    )

    const root = await store.ls(cid)
    expect(root.map(({ name, type }) => [name, type])).toEqual([
      ['latest', 'symlink'],
      ['outputs', 'directory'],
      ['receipt.json', 'file'],
    ])
    expect(root[0]?.size).toBe('outputs/result.bin'.length)
    expect(root[2]).toMatchObject({ size: 11, cid: await computeCid(text('{"ok":true}')) })

    const outputs = await store.ls(cid, { path: 'outputs' })
    expect(outputs.map(({ name, type, size }) => [name, type, type === 'directory' ? 'dir' : size])).toEqual([
      ['empty', 'directory', 'dir'],
      ['logs', 'directory', 'dir'],
      ['result.bin', 'file', 6],
    ])
    expect(await store.ls(cid, { path: 'outputs/empty' })).toEqual([])

    expect(decode(await getBytes(store, cid, { path: 'outputs/result.bin' }))).toBe('result')
    expect(
      Buffer.compare(await getBytes(store, cid, { path: '/outputs/logs/run.log' }), pattern(600_000)),
    ).toBe(0)
    expect(await getJson(store, cid, { path: 'receipt.json' })).toEqual({ ok: true })
    expect(await store.has(cid)).toBe(true)
  })

  test('typed errors for wrong paths and wrong kinds', async () => {
    const store = memoryStore()
    const cid = await store.putDirectory([
      { path: 'a/file.txt', content: text('x') },
      { path: 'link', type: 'symlink', target: 'a/file.txt' },
    ])
    await expect(getBytes(store, cid)).rejects.toBeInstanceOf(NotAFileError)
    await expect(getBytes(store, cid, { path: 'a' })).rejects.toThrow(/is a directory, not a file/)
    await expect(getBytes(store, cid, { path: 'link' })).rejects.toThrow(/is a symlink, not a file/)
    await expect(getBytes(store, cid, { path: 'a/missing' })).rejects.toBeInstanceOf(PathNotFoundError)
    await expect(getBytes(store, cid, { path: 'a/file.txt/deeper' })).rejects.toBeInstanceOf(
      NotADirectoryError,
    )
    await expect(getBytes(store, cid, { path: 'a/../a/file.txt' })).rejects.toBeInstanceOf(InvalidPathError)
    await expect(store.ls(cid, { path: 'a/file.txt' })).rejects.toBeInstanceOf(NotADirectoryError)
  })

  test('maxBytes: refused from the declared size before any byte is read, exact size allowed', async () => {
    const store = memoryStore()
    const cid = await store.put(pattern(1_000_000))
    const received: Uint8Array[] = []
    const error = await (async () => {
      for await (const chunk of store.get(cid, { maxBytes: 999_999 })) received.push(chunk)
    })().catch((e) => e)
    expect(error).toBeInstanceOf(ContentTooLargeError)
    expect(error.maxBytes).toBe(999_999)
    expect(error.shortMessage).toContain('1000000 bytes')
    expect(received).toEqual([])
    expect((await getBytes(store, cid, { maxBytes: 1_000_000 })).byteLength).toBe(1_000_000)
    await expect(getBytes(store, cid, { maxBytes: -1 })).rejects.toThrow(/maxBytes/)
  })

  test('CIDs: bad input, unsupported codecs and hashes, missing blocks, other bases', async () => {
    const store = memoryStore()
    const error = await getBytes(store, 'not-a-cid').catch((e) => e)
    expect(error).toBeInstanceOf(InvalidCidError)
    expect(error.input).toBe('not-a-cid')
    expect(error.shortMessage).toBe('Invalid CID "not-a-cid"')
    await expect(store.has('')).rejects.toBeInstanceOf(InvalidCidError)
    await expect(store.ls('x'.repeat(10_000))).rejects.toBeInstanceOf(InvalidCidError)
    // dag-cbor is not UnixFS.
    await expect(
      getBytes(store, 'bafyreihdb57fdysx5h35urvxz64ros7zvywshber7id6t6c6fek37jgyfe'),
    ).rejects.toBeInstanceOf(UnsupportedCidError)
    const cid = await store.put(text('hello'))
    // blake2b-256 cannot be verified here.
    await expect(
      getBytes(store, 'bafykbzacea6h5nvlblvak5jhj7m7ku5sp7u2roo3lbembab3a6tnvmuzgcqas'),
    ).rejects.toBeInstanceOf(UnsupportedCidError)
    // The same CID in base36 and base58btc reads the same block.
    const { CID } = await import('multiformats/cid')
    const { base36 } = await import('multiformats/bases/base36')
    const { base58btc } = await import('multiformats/bases/base58')
    const parsed = CID.parse(cid)
    expect(decode(await getBytes(store, parsed.toString(base36)))).toBe('hello')
    expect(decode(await getBytes(store, parsed.toString(base58btc)))).toBe('hello')
    await expect(getBytes(store, await computeCid(text('absent')))).rejects.toBeInstanceOf(
      ContentNotFoundError,
    )
  })

  test('identity CIDs read without the store', async () => {
    const store = memoryStore()
    // UnixFS spec, "Well-Known UnixFS CIDs": empty raw block inlined.
    expect(await getBytes(store, 'bafkqaaa')).toEqual(new Uint8Array())
    expect(await store.has('bafkqaaa')).toBe(true)
  })

  test('an aborted signal stops reads and writes with its reason', async () => {
    const store = memoryStore()
    const cid = await store.put(pattern(600_000))
    const controller = new AbortController()
    const reason = new Error('stop')
    controller.abort(reason)
    await expect(getBytes(store, cid, { signal: controller.signal })).rejects.toBe(reason)
    await expect(store.put(generated(600_000), { signal: controller.signal })).rejects.toBe(reason)
  })
})
