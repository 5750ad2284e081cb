/**
 * The store server as a trustless gateway: raw blocks and CARs that a client checks on its own,
 * every block hashed against its CID (multiformats) and every CAR parsed with @ipld/car.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import {
  ContentNotFoundError,
  computeCid,
  gatewayReader,
  getBytes,
  getJson,
  kuboStore,
} from '@gridforge/sdk/storage'
import { CarReader } from '@ipld/car'
import * as dagPb from '@ipld/dag-pb'
import { base32 } from 'multiformats/bases/base32'
import { CID } from 'multiformats/cid'
import { sha256 } from 'multiformats/hashes/sha2'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type StoreServer, startStoreServer } from '../../../demo/storeServer.js'

const text = (value: string) => new TextEncoder().encode(value)
/** 600,000 bytes: three 256 KiB raw leaves under one dag-pb root. */
const large = new Uint8Array(600_000).map((_, i) => (Math.imul(i, 2654435761) >>> 24) & 0xff)
const RAW = 'application/vnd.ipld.raw'
const CAR = 'application/vnd.ipld.car'

let root: string
let server: StoreServer
let kubo: ReturnType<typeof kuboStore>
/** A multi-block file and a directory holding it, stored through the Kubo RPC side. */
let file: string
let directory: string

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'gridforge-store-gateway-'))
  server = await startStoreServer({ root })
  kubo = kuboStore({ url: server.url })
  file = await kubo.put(large)
  directory = await kubo.putDirectory([
    { path: 'big.bin', content: large },
    { path: 'same/a.txt', content: text('twice') },
    { path: 'same/b.txt', content: text('twice') },
    { path: 'notes/readme.txt', content: text('hello gateway') },
    { path: 'empty', type: 'directory' },
    { path: 'latest', type: 'symlink', target: 'big.bin' },
  ])
})

afterAll(async () => {
  await server?.stop()
  if (root !== undefined) await rm(root, { recursive: true, force: true })
})

/** Hashes `bytes` and compares with the CID's multihash, as any trustless client does. */
async function verified(cid: CID, bytes: Uint8Array): Promise<boolean> {
  expect(cid.multihash.code).toBe(sha256.code)
  const digest = await sha256.digest(bytes)
  return Buffer.from(digest.bytes).equals(Buffer.from(cid.multihash.bytes))
}

async function car(cid: string, query = '', accept = CAR) {
  const response = await fetch(`${server.url}/ipfs/${cid}${query}`, { headers: { accept } })
  expect(response.status).toBe(200)
  const reader = await CarReader.fromBytes(new Uint8Array(await response.arrayBuffer()))
  const blocks: { cid: CID; bytes: Uint8Array }[] = []
  for await (const block of reader.blocks()) blocks.push(block)
  for (const block of blocks) expect(await verified(block.cid, block.bytes), `block ${block.cid}`).toBe(true)
  return { response, roots: (await reader.getRoots()).map(String), blocks }
}

/** Every CID a dag-pb block links to. */
const linksOf = (block: { cid: CID; bytes: Uint8Array }) =>
  block.cid.code === dagPb.code ? dagPb.decode(block.bytes).Links.map((link) => link.Hash.toString()) : []

describe('the store server as a trustless gateway', () => {
  it('serves a raw block by Accept or ?format=raw, with the gateway headers', async () => {
    const leaf = await kubo.put(text('one block'))
    for (const [query, accept] of [
      ['?format=raw', undefined],
      ['', RAW],
    ] as const) {
      const response = await fetch(`${server.url}/ipfs/${leaf}${query}`, {
        headers: accept === undefined ? {} : { accept },
      })
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe(RAW)
      expect(response.headers.get('x-content-type-options')).toBe('nosniff')
      expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${leaf}.bin"`)
      expect(response.headers.get('content-length')).toBe('9')
      expect(response.headers.get('etag')).toBe(`"${leaf}.raw"`)
      const bytes = new Uint8Array(await response.arrayBuffer())
      expect(await verified(CID.parse(leaf), bytes)).toBe(true)
      expect(new TextDecoder().decode(bytes)).toBe('one block')
    }
  })

  it('serves the root of a multi-block file as its dag-pb node, and each leaf by its own CID', async () => {
    const response = await fetch(`${server.url}/ipfs/${file}?format=raw`)
    const node = new Uint8Array(await response.arrayBuffer())
    expect(await verified(CID.parse(file), node)).toBe(true)
    const leaves = dagPb.decode(node).Links.map((link) => link.Hash)
    expect(leaves).toHaveLength(3)
    const parts: Uint8Array[] = []
    for (const leaf of leaves) {
      const bytes = new Uint8Array(
        await (await fetch(`${server.url}/ipfs/${leaf}`, { headers: { accept: RAW } })).arrayBuffer(),
      )
      expect(await verified(leaf, bytes)).toBe(true)
      parts.push(bytes)
    }
    expect(Buffer.concat(parts).equals(large)).toBe(true)
  })

  it('serves a CARv1 of a multi-block file: the root, then every leaf in order', async () => {
    const { response, roots, blocks } = await car(file)
    expect(response.headers.get('content-type')).toBe(`${CAR}; version=1; order=dfs; dups=n`)
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${file}.car"`)
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    expect(roots).toEqual([file])
    expect(blocks.map((block) => block.cid.toString())).toEqual([
      file,
      ...linksOf(blocks[0] as { cid: CID; bytes: Uint8Array }),
    ])
    expect(Buffer.concat(blocks.slice(1).map((block) => block.bytes)).equals(large)).toBe(true)
    // ?format=car says the same as the Accept header.
    const byQuery = await car(file, '?format=car', '*/*')
    expect(byQuery.blocks.map((block) => block.cid.toString())).toEqual(
      blocks.map((block) => block.cid.toString()),
    )
  })

  it('serves a CARv1 of a whole directory: every block once, every link inside the CAR', async () => {
    const { roots, blocks } = await car(directory)
    expect(roots).toEqual([directory])
    expect(blocks[0]?.cid.toString()).toBe(directory)
    const cids = blocks.map((block) => block.cid.toString())
    expect(new Set(cids).size).toBe(cids.length)
    // Complete: the DAG closes over the CAR's blocks (nothing missing, nothing unrelated).
    const reachable = new Set([directory])
    for (const block of blocks) for (const link of linksOf(block)) reachable.add(link)
    expect([...reachable].sort()).toEqual([...cids].sort())
    // root, big.bin (1 + 3 leaves), empty, latest, notes, notes/readme.txt, same, 'twice' (one block for a.txt and b.txt)
    expect(blocks).toHaveLength(11)
    expect(cids).toContain(await computeCid(text('hello gateway')))
  })

  it('narrows the CAR with dag-scope and repeats shared blocks with dups=y', async () => {
    const cidsOf = (blocks: { cid: CID }[]) => blocks.map((block) => block.cid.toString())
    expect(cidsOf((await car(directory, '?dag-scope=entity')).blocks)).toEqual([directory])
    expect(cidsOf((await car(directory, '?dag-scope=block')).blocks)).toEqual([directory])
    expect((await car(file, '?dag-scope=block')).blocks).toHaveLength(1)
    expect((await car(file, '?dag-scope=entity')).blocks).toHaveLength(4)

    const twice = await computeCid(text('twice'))
    const count = (blocks: { cid: CID }[]) => blocks.filter((block) => block.cid.toString() === twice).length
    const once = await car(directory, '', `${CAR}; version=1; order=dfs; dups=n`)
    expect(count(once.blocks)).toBe(1)
    const repeated = await car(directory, '', `${CAR}; version=1; order=dfs; dups=y`)
    expect(repeated.response.headers.get('content-type')).toBe(`${CAR}; version=1; order=dfs; dups=y`)
    expect(count(repeated.blocks)).toBe(2)
  })

  it('answers the identity probe bafkqaaa', async () => {
    const raw = await fetch(`${server.url}/ipfs/bafkqaaa?format=raw`)
    expect(raw.status).toBe(200)
    expect((await raw.arrayBuffer()).byteLength).toBe(0)
    const probe = await car('bafkqaaa', '?format=car')
    expect(probe.roots).toEqual(['bafkqaaa'])
    expect(probe.blocks).toEqual([])
  })

  it('is read by the SDK gatewayReader, block by block, verified', async () => {
    const gateway = gatewayReader({ url: server.url })
    expect(Buffer.from(await getBytes(gateway, file)).equals(large)).toBe(true)
    expect(new TextDecoder().decode(await getBytes(gateway, directory, { path: 'notes/readme.txt' }))).toBe(
      'hello gateway',
    )
    expect((await gateway.ls(directory)).map((entry) => entry.name)).toEqual([
      'big.bin',
      'empty',
      'latest',
      'notes',
      'same',
    ])
    const json = await kubo.putJson({ receipt: 'from the agent' })
    expect(await getJson(gateway, json)).toEqual({ receipt: 'from the agent' })
    expect(await gateway.has(json)).toBe(true)
    const missing = await computeCid(text('never stored'))
    expect(await gateway.has(missing)).toBe(false)
    await expect(getBytes(gateway, missing)).rejects.toThrow(ContentNotFoundError)
  })

  it('answers HEAD with the headers and no body', async () => {
    const response = await fetch(`${server.url}/ipfs/${file}?format=car`, { method: 'HEAD' })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe(`${CAR}; version=1; order=dfs; dups=n`)
    expect((await response.arrayBuffer()).byteLength).toBe(0)
  })

  it('answers 404 for a missing CID, 400 for a bad one, and the spec codes for the rest', async () => {
    const missing = await computeCid(text('not here'))
    const status = async (url: string, init?: RequestInit) =>
      (await fetch(`${server.url}${url}`, init)).status
    expect(await status(`/ipfs/${missing}?format=raw`)).toBe(404)
    expect(await status(`/ipfs/${missing}?format=car`)).toBe(404)
    expect(
      await status(`/ipfs/${missing}?format=raw`, { headers: { 'cache-control': 'only-if-cached' } }),
    ).toBe(412)
    const bad = await fetch(`${server.url}/ipfs/not-a-cid?format=raw`)
    expect(bad.status).toBe(400)
    expect(bad.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    expect(await bad.text()).toMatch(/invalid CID "not-a-cid"/)
    expect(await status('/ipfs/%E0%A4%A?format=raw')).toBe(400)
    // Strict trustless: no deserialized responses.
    expect(await status(`/ipfs/${file}`)).toBe(400)
    expect(await status(`/ipfs/${file}`, { headers: { accept: 'text/html' } })).toBe(400)
    expect(await status(`/ipfs/${file}?format=dag-json`)).toBe(400)
    expect(await status(`/ipfs/${file}`, { headers: { accept: `${CAR}; version=2` } })).toBe(406)
    expect(await status(`/ipfs/${file}?format=car&dag-scope=everything`)).toBe(400)
    expect(await status(`/ipfs/${directory}/big.bin?format=raw`)).toBe(400)
    expect(await status(`/ipfs/${file}?format=raw`, { method: 'POST' })).toBe(405)
  })

  it('allows GET from pages on 127.0.0.1 and localhost only (CORS)', async () => {
    const allowed = await fetch(`${server.url}/ipfs/${file}?format=raw`, {
      headers: { origin: 'http://localhost:5173' },
    })
    expect(allowed.status).toBe(200)
    expect(allowed.headers.get('access-control-allow-origin')).toBe('http://localhost:5173')
    expect(allowed.headers.get('access-control-expose-headers')).toContain('Content-Disposition')
    expect(allowed.headers.get('vary')).toBe('Accept, Origin')
    const preflight = await fetch(`${server.url}/ipfs/${file}`, {
      method: 'OPTIONS',
      headers: { origin: 'http://127.0.0.1:4173', 'access-control-request-method': 'GET' },
    })
    expect(preflight.headers.get('access-control-allow-methods')).toContain('GET')
    const foreign = await fetch(`${server.url}/ipfs/${file}?format=raw`, {
      headers: { origin: 'https://example.com' },
    })
    expect(foreign.status).toBe(403)
  })
})

describe('a block missing below the root', () => {
  it('cuts the CAR short instead of sending a complete-looking one', async () => {
    const damagedRoot = await mkdtemp(path.join(tmpdir(), 'gridforge-store-gateway-damaged-'))
    await using damaged = await startStoreServer({ root: damagedRoot })
    try {
      const cid = await kuboStore({ url: damaged.url }).put(large)
      // Remove the last leaf the way a disk loses a file: fsStore's documented layout,
      // <root>/blocks/<xy>/<base32 multihash>.
      const node = await damaged.store.getBlock(cid)
      const last = dagPb.decode(node).Links.at(-1)?.Hash as CID
      const name = base32.baseEncode(last.multihash.bytes)
      await rm(path.join(damagedRoot, 'blocks', name.slice(-3, -1), name))

      const response = await fetch(`${damaged.url}/ipfs/${cid}?format=car`)
      expect(response.status).toBe(200)
      await expect(response.arrayBuffer()).rejects.toThrow()
      // The root and the other blocks are still served one by one.
      expect((await fetch(`${damaged.url}/ipfs/${cid}?format=raw`)).status).toBe(200)
      expect((await fetch(`${damaged.url}/ipfs/${last}?format=raw`)).status).toBe(404)
    } finally {
      await rm(damagedRoot, { recursive: true, force: true })
    }
  })
})
