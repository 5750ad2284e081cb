import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { base32 } from 'multiformats/bases/base32'
import { CID } from 'multiformats/cid'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { computeCid, computeDirectoryCid } from './computeCid.js'
import { ContentNotFoundError, ContentVerificationError } from './errors.js'
import { fsStore } from './fsStore.js'
import { getBytes } from './getBytes.js'
import { getJson } from './getJson.js'

const text = (value: string) => new TextEncoder().encode(value)
const MiB = 1024 * 1024

/** Byte `i` of the test data: a multiplicative hash, so that no two 256 KiB blocks are equal. */
const byteAt = (i: number) => (Math.imul(i, 2654435761) >>> 24) & 0xff

/** `size` bytes produced 64 KiB at a time; `onChunk` sees how far the producer got. */
async function* generated(size: number, onChunk?: (produced: number) => Promise<void> | void) {
  for (let offset = 0; offset < size; offset += 65_536) {
    const chunk = new Uint8Array(Math.min(65_536, size - offset))
    for (let i = 0; i < chunk.length; i++) chunk[i] = byteAt(offset + i)
    await onChunk?.(offset + chunk.length)
    yield chunk
  }
}

function pattern(size: number): Uint8Array {
  const bytes = new Uint8Array(size)
  for (let i = 0; i < size; i++) bytes[i] = byteAt(i)
  return bytes
}

/** Every block file under `<root>/blocks`. */
async function blockFiles(root: string): Promise<string[]> {
  const files: string[] = []
  for (const shard of await readdir(join(root, 'blocks')).catch(() => [])) {
    for (const name of await readdir(join(root, 'blocks', shard)))
      files.push(join(root, 'blocks', shard, name))
  }
  return files
}

function blockFile(root: string, cid: string): string {
  const name = base32.baseEncode(CID.parse(cid).multihash.bytes)
  return join(root, 'blocks', name.slice(-3, -1), name)
}

let root: string
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'gridforge-fsstore-'))
})
afterEach(async () => {
  await rm(root, { recursive: true, force: true })
})

describe('fsStore', () => {
  test('round-trips bytes, JSON and a nested directory; survives a new instance', async () => {
    const store = fsStore({ root })
    const hello = await store.put(text('hello world'))
    expect(hello).toBe('bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e')
    const doc = await store.putJson({ b: 2, a: 1 })
    const dir = await store.putDirectory([
      { path: 'in/data.bin', content: generated(700_000) },
      { path: 'in/deeper/note.txt', content: text('note') },
      { path: 'readme', content: text('hi') },
    ])
    expect(dir).toBe(
      await computeDirectoryCid([
        { path: 'in/data.bin', content: pattern(700_000) },
        { path: 'in/deeper/note.txt', content: text('note') },
        { path: 'readme', content: text('hi') },
      ]),
    )

    const reopened = fsStore({ root })
    expect(new TextDecoder().decode(await getBytes(reopened, hello))).toBe('hello world')
    expect(await getJson(reopened, doc)).toEqual({ a: 1, b: 2 })
    expect((await reopened.ls(dir)).map((entry) => entry.name)).toEqual(['in', 'readme'])
    expect(await reopened.ls(dir, { path: 'in' })).toMatchObject([
      { name: 'data.bin', type: 'file', size: 700_000 },
      { name: 'deeper', type: 'directory' },
    ])
    expect(Buffer.compare(await getBytes(reopened, dir, { path: 'in/data.bin' }), pattern(700_000))).toBe(0)
    expect(new TextDecoder().decode(await getBytes(reopened, dir, { path: 'in/deeper/note.txt' }))).toBe(
      'note',
    )
    expect(await reopened.has(dir)).toBe(true)
    expect(await reopened.has(await computeCid(text('absent')))).toBe(false)
  })

  test('one file per block, content-addressed, no temporary file left', async () => {
    const store = fsStore({ root })
    const cid = await store.put(text('x'))
    await store.put(text('x'))
    expect(await blockFiles(root)).toEqual([blockFile(root, cid)])
    expect(await readFile(blockFile(root, cid))).toEqual(Buffer.from('x'))
    expect(await readdir(join(root, 'tmp'))).toEqual([])
  })

  test('a block damaged on disk is detected and reported, never returned', async () => {
    const store = fsStore({ root })
    const cid = await store.put(text('precious data'))
    await writeFile(blockFile(root, cid), 'tampered data')
    const error = await getBytes(store, cid).catch((e) => e)
    expect(error).toBeInstanceOf(ContentVerificationError)
    expect(error.cid).toBe(cid)
    expect(error.source).toBe(`fs ${root}`)
    expect(error.metaMessages[0]).toMatch(/corrupted on disk: delete it/)

    // A truncated leaf inside a multi-block file is caught too.
    const big = await store.put(pattern(3 * 262_144))
    let leaf: string | undefined
    for (const file of await blockFiles(root)) if ((await stat(file)).size === 262_144) leaf = file
    await writeFile(leaf as string, (await readFile(leaf as string)).subarray(0, 1000))
    await expect(getBytes(store, big)).rejects.toBeInstanceOf(ContentVerificationError)

    // A missing block file is "not found".
    await rm(blockFile(root, cid))
    await expect(getBytes(store, cid)).rejects.toBeInstanceOf(ContentNotFoundError)
  })

  test('a 64 MiB stream goes in and out chunk by chunk, never whole', async () => {
    const store = fsStore({ root })
    const size = 64 * MiB
    // While the producer is still producing, blocks are already on disk.
    let blocksOnDiskBeforeTheEnd = 0
    const cid = await store.put(
      generated(size, async (produced) => {
        if (produced === size) blocksOnDiskBeforeTheEnd = (await blockFiles(root)).length
      }),
    )
    expect(blocksOnDiskBeforeTheEnd).toBeGreaterThan(200)
    expect(cid).toBe(await computeCid(generated(size)))

    // Reading: chunks of at most one block arrive as blocks are read. Once the first one is here,
    // removing every block file makes the read fail within the few blocks fetched ahead.
    const iterator = store.get(cid)[Symbol.asyncIterator]()
    const first = await iterator.next()
    expect(first.value?.byteLength).toBe(262_144)
    await rm(join(root, 'blocks'), { recursive: true })
    let received = 1
    const error = await (async () => {
      while (!(await iterator.next()).done) received++
    })().catch((e) => e)
    expect(error).toBeInstanceOf(ContentNotFoundError)
    expect(received).toBeLessThan(20)
  })

  test('a full read of the 64 MiB file matches what was written', async () => {
    const store = fsStore({ root })
    const size = 64 * MiB
    const cid = await store.put(generated(size))
    const expected = generated(size)[Symbol.asyncIterator]()
    let pending: Uint8Array = new Uint8Array()
    let total = 0
    let chunks = 0
    for await (const chunk of store.get(cid)) {
      chunks++
      total += chunk.byteLength
      let offset = 0
      while (offset < chunk.byteLength) {
        if (pending.byteLength === 0) pending = (await expected.next()).value as Uint8Array
        const n = Math.min(pending.byteLength, chunk.byteLength - offset)
        expect(Buffer.compare(chunk.subarray(offset, offset + n), pending.subarray(0, n))).toBe(0)
        pending = pending.subarray(n)
        offset += n
      }
    }
    expect(total).toBe(size)
    expect(chunks).toBe(256)
  })
})
