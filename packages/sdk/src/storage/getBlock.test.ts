import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as dagPb from '@ipld/dag-pb'
import { UnixFS } from 'ipfs-unixfs'
import { base32 } from 'multiformats/bases/base32'
import { CID } from 'multiformats/cid'
import * as raw from 'multiformats/codecs/raw'
import { identity } from 'multiformats/hashes/identity'
import { sha256 } from 'multiformats/hashes/sha2'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { ContentStore } from './ContentStore.js'
import { computeCid } from './computeCid.js'
import { ContentNotFoundError, ContentVerificationError, InvalidCidError } from './errors.js'
import { fsStore } from './fsStore.js'
import { memoryStore } from './memoryStore.js'

const text = (value: string) => new TextEncoder().encode(value)
/** 600,000 bytes: three 256 KiB raw leaves under one dag-pb node. */
const large = new Uint8Array(600_000).map((_, i) => (Math.imul(i, 2654435761) >>> 24) & 0xff)

let root: string
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'gridforge-getblock-'))
})
afterAll(async () => {
  await rm(root, { recursive: true, force: true })
})

const stores: [string, () => ContentStore][] = [
  ['memoryStore', () => memoryStore()],
  ['fsStore', () => fsStore({ root })],
]

describe.each(stores)('%s getBlock', (_name, open) => {
  test('returns the raw bytes of a leaf and the encoded node of a file, each hashing to its CID', async () => {
    const store = open()
    const leaf = await store.put(text('one block'))
    expect(new TextDecoder().decode(await store.getBlock(leaf))).toBe('one block')

    const file = await store.put(large)
    const node = await store.getBlock(file)
    const cid = CID.parse(file)
    expect(cid.code).toBe(dagPb.code)
    expect((await sha256.digest(node)).digest).toEqual(cid.multihash.digest)
    const decoded = dagPb.decode(node)
    expect(UnixFS.unmarshal(decoded.Data as Uint8Array).fileSize()).toBe(600_000n)
    expect(decoded.Links).toHaveLength(3)
    // The leaves are the file's bytes, 256 KiB at a time, in order.
    const leaves = await Promise.all(decoded.Links.map((link) => store.getBlock(link.Hash.toString())))
    expect(leaves.map((bytes) => bytes.byteLength)).toEqual([262_144, 262_144, 75_712])
    expect(Buffer.concat(leaves).equals(large)).toBe(true)
  })

  test('returns a directory node whose links name its entries', async () => {
    const store = open()
    const directory = await store.putDirectory([
      { path: 'a.txt', content: text('a') },
      { path: 'sub/b.txt', content: text('b') },
    ])
    const decoded = dagPb.decode(await store.getBlock(directory))
    expect(UnixFS.unmarshal(decoded.Data as Uint8Array).type).toBe('directory')
    expect(decoded.Links.map((link) => link.Name)).toEqual(['a.txt', 'sub'])
  })

  test('reads the block of a CIDv0 or another base by its multihash', async () => {
    const store = open()
    const file = CID.parse(await store.put(large))
    const v0 = file.toV0().toString()
    expect(v0).toMatch(/^Qm/)
    expect(await store.getBlock(v0)).toEqual(await store.getBlock(file.toString()))
  })

  test('inlines identity CIDs without a lookup', async () => {
    const cid = CID.createV1(raw.code, identity.digest(text('inline')))
    expect(new TextDecoder().decode(await open().getBlock(cid.toString()))).toBe('inline')
    // The empty identity CID, the trustless gateway's probe.
    expect(await open().getBlock('bafkqaaa')).toEqual(new Uint8Array())
  })

  test('throws ContentNotFoundError for a block it lacks and InvalidCidError for a non-CID', async () => {
    const store = open()
    const missing = await computeCid(text('never stored here'))
    await expect(store.getBlock(missing)).rejects.toThrow(ContentNotFoundError)
    await expect(store.getBlock('not-a-cid')).rejects.toThrow(InvalidCidError)
  })

  test('honours an aborted signal', async () => {
    const store = open()
    const cid = await store.put(text('abort'))
    const controller = new AbortController()
    controller.abort(new Error('stopped'))
    await expect(store.getBlock(cid, { signal: controller.signal })).rejects.toThrow('stopped')
  })
})

test('fsStore getBlock refuses a block damaged on disk', async () => {
  const store = fsStore({ root })
  const cid = await store.put(text('will be damaged'))
  const name = base32.baseEncode(CID.parse(cid).multihash.bytes)
  await writeFile(join(root, 'blocks', name.slice(-3, -1), name), text('other bytes'))
  await expect(store.getBlock(cid)).rejects.toThrow(ContentVerificationError)
})

describe.each(stores)('%s putBlock', (_name, open) => {
  test('stores a block under its CID, so that a DAG copied block by block keeps its CID', async () => {
    const source = memoryStore()
    const file = await source.put(large)
    const target = open()
    const links = dagPb.decode(await source.getBlock(file)).Links.map((link) => link.Hash.toString())
    for (const cid of [file, ...links]) await target.putBlock?.(cid, await source.getBlock(cid))
    const bytes: Uint8Array[] = []
    for await (const chunk of target.get(file)) bytes.push(chunk)
    expect(Buffer.concat(bytes).equals(large)).toBe(true)
  })

  test('refuses bytes that do not hash to the CID, and CIDs that are not UnixFS', async () => {
    const store = open()
    const leaf = await computeCid(text('right'))
    await expect(store.putBlock?.(leaf, text('wrong'))).rejects.toBeInstanceOf(ContentVerificationError)
    expect(await store.has(leaf)).toBe(false)
    await expect(store.putBlock?.('not a cid', text('x'))).rejects.toBeInstanceOf(InvalidCidError)
    // An identity CID holds its block: nothing to store, and it is there.
    const inline = CID.createV1(raw.code, identity.digest(text('tiny'))).toString()
    await store.putBlock?.(inline, text('tiny'))
    expect(await store.has(inline)).toBe(true)
  })
})
