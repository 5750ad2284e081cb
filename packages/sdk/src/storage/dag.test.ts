import type { PBLink } from '@ipld/dag-pb'
import * as dagPb from '@ipld/dag-pb'
import { UnixFS } from 'ipfs-unixfs'
import { CID } from 'multiformats/cid'
import { sha256 } from 'multiformats/hashes/sha2'
import { describe, expect, test } from 'vitest'
import { createBlockContentStore } from './blockContentStore.js'
import {
  BlockTooLargeError,
  ContentNotFoundError,
  ContentVerificationError,
  InvalidDagError,
} from './errors.js'
import { getBytes } from './getBytes.js'

// Hand-made DAGs that hash correctly but lie: the reader must refuse them with typed errors.

type Block = { cid: CID; bytes: Uint8Array }

async function raw(bytes: Uint8Array): Promise<Block> {
  return { cid: CID.createV1(0x55, await sha256.digest(bytes)), bytes }
}

async function pb(data: Uint8Array | undefined, links: PBLink[] = []): Promise<Block> {
  const bytes = dagPb.encode(dagPb.prepare({ ...(data === undefined ? {} : { Data: data }), Links: links }))
  return { cid: CID.createV1(0x70, await sha256.digest(bytes)), bytes }
}

const file = (children: Block[], blockSizes: bigint[]) =>
  pb(
    new UnixFS({ type: 'file', blockSizes }).marshal(),
    children.map((child) => ({ Hash: child.cid, Tsize: child.bytes.byteLength })),
  )

const directory = (entries: Record<string, Block>) =>
  pb(
    new UnixFS({ type: 'directory' }).marshal(),
    Object.entries(entries).map(([Name, child]) => ({
      Name,
      Hash: child.cid,
      Tsize: child.bytes.byteLength,
    })),
  )

/** A store over given blocks; `served` maps a CID to other bytes to serve for it. */
function storeOf(blocks: Block[], served = new Map<string, Uint8Array>(), requests: AbortSignal[] = []) {
  const map = new Map(blocks.map((block) => [block.cid.toString(), block.bytes]))
  return createBlockContentStore({
    description: 'test source',
    async getBlock(cid, options) {
      if (options.signal !== undefined) requests.push(options.signal)
      const bytes = served.get(cid.toString()) ?? map.get(cid.toString())
      if (bytes === undefined) throw new ContentNotFoundError({ cid: cid.toString(), source: 'test source' })
      return bytes
    },
    async hasBlock(cid) {
      return map.has(cid.toString())
    },
  })
}

const text = (value: string) => new TextEncoder().encode(value)

describe('reading untrusted DAGs', () => {
  test('bytes that do not hash to the CID: ContentVerificationError with both digests', async () => {
    const good = await raw(text('good'))
    const evil = text('evil')
    const error = await getBytes(
      storeOf([good], new Map([[good.cid.toString(), evil]])),
      good.cid.toString(),
    ).catch((e) => e)
    expect(error).toBeInstanceOf(ContentVerificationError)
    expect(error.cid).toBe(good.cid.toString())
    expect(error.source).toBe('test source')
    expect(error.expectedDigest).toBe(Buffer.from(good.cid.multihash.digest).toString('hex'))
    expect(error.actualDigest).toBe(Buffer.from((await sha256.digest(evil)).digest).toString('hex'))
  })

  test('a wrong leaf deep in a file is caught when reached, after the good bytes before it', async () => {
    const a = await raw(text('aaaa'))
    const b = await raw(text('bbbb'))
    const root = await file([a, b], [4n, 4n])
    const received: string[] = []
    const error = await (async () => {
      for await (const chunk of storeOf([a, b, root], new Map([[b.cid.toString(), text('BBBB')]])).get(
        root.cid.toString(),
      ))
        received.push(new TextDecoder().decode(chunk))
    })().catch((e) => e)
    expect(received).toEqual(['aaaa'])
    expect(error).toBeInstanceOf(ContentVerificationError)
    expect(error.cid).toBe(b.cid.toString())
  })

  test('a block over 2 MiB is refused before hashing', async () => {
    const big = await raw(new Uint8Array(2 * 1024 * 1024 + 1))
    await expect(getBytes(storeOf([big]), big.cid.toString())).rejects.toBeInstanceOf(BlockTooLargeError)
  })

  test('block sizes that lie', async () => {
    const leaf = await raw(text('abc'))
    const lying = await file([leaf], [5n])
    await expect(getBytes(storeOf([leaf, lying]), lying.cid.toString())).rejects.toThrow(
      /block 0 holds 3 bytes, the node declares 5/,
    )
    const miscounted = await file([leaf], [3n, 3n])
    const error = await getBytes(storeOf([leaf, miscounted]), miscounted.cid.toString()).catch((e) => e)
    expect(error).toBeInstanceOf(InvalidDagError)
    expect(error.message).toContain('1 links but 2 block sizes')
  })

  test('nodes that are not UnixFS', async () => {
    const noData = await pb(undefined)
    await expect(getBytes(storeOf([noData]), noData.cid.toString())).rejects.toThrow(/no UnixFS data/)
    const garbage = { cid: CID.createV1(0x70, await sha256.digest(text('x'))), bytes: text('x') }
    await expect(getBytes(storeOf([garbage]), garbage.cid.toString())).rejects.toThrow(/not valid dag-pb/)
    const notUnixfs = await pb(new Uint8Array([0xff, 0xff, 0xff]))
    await expect(getBytes(storeOf([notUnixfs]), notUnixfs.cid.toString())).rejects.toBeInstanceOf(
      InvalidDagError,
    )
  })

  test('a file link to a directory', async () => {
    const dir = await directory({})
    const root = await file([dir], [0n])
    await expect(getBytes(storeOf([dir, root]), root.cid.toString())).rejects.toThrow(
      /link 0 points to a directory/,
    )
  })

  test('a DAG deeper than 64 levels', async () => {
    const blocks: Block[] = [await raw(text('x'))]
    for (let i = 0; i < 70; i++) blocks.push(await file([blocks[blocks.length - 1] as Block], [1n]))
    const root = blocks[blocks.length - 1] as Block
    await expect(getBytes(storeOf(blocks), root.cid.toString())).rejects.toThrow(/too deep/)
  })

  test('directory entries that could escape a folder', async () => {
    const leaf = await raw(text('x'))
    for (const name of ['..', '.', 'a/b', '']) {
      const dir = await directory({ [name]: leaf })
      const store = storeOf([leaf, dir])
      await expect(store.ls(dir.cid.toString())).rejects.toThrow(/directory entry name/)
      await expect(getBytes(store, dir.cid.toString(), { path: 'x' })).rejects.toBeInstanceOf(InvalidDagError)
    }
  })

  test('a HAMT with a fanout that is not a power of two', async () => {
    const shard = await pb(
      new UnixFS({ type: 'hamt-sharded-directory', fanout: 3n, hashType: 0x22n }).marshal(),
    )
    await expect(storeOf([shard]).ls(shard.cid.toString())).rejects.toThrow(/fanout 3/)
  })

  test('a reader that stops early cancels the blocks fetched ahead', async () => {
    const leaves = await Promise.all(Array.from({ length: 20 }, (_, i) => raw(new Uint8Array(10).fill(i))))
    const root = await file(
      leaves,
      leaves.map(() => 10n),
    )
    const requests: AbortSignal[] = []
    const store = storeOf([...leaves, root], new Map(), requests)
    for await (const chunk of store.get(root.cid.toString())) {
      expect(chunk[0]).toBe(0)
      break
    }
    const leafRequests = requests.slice(1)
    expect(leafRequests.length).toBeGreaterThan(1)
    expect(leafRequests.length).toBeLessThan(20)
    expect(leafRequests.every((signal) => signal.aborted)).toBe(true)
  })
})
