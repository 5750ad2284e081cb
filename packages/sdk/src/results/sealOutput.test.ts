import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { decode } from '@ipld/dag-pb'
import { CID } from 'multiformats/cid'
import * as raw from 'multiformats/codecs/raw'
import * as sha2 from 'multiformats/hashes/sha2'
import { type Hex, zeroHash } from 'viem'
import { afterAll, describe, expect, it } from 'vitest'
import { InvalidParametersError } from '../errors/validation.js'
import type { ContentStore } from '../storage/ContentStore.js'
import { parseCid } from '../storage/cid.js'
import { computeCid, computeDirectoryCid } from '../storage/computeCid.js'
import { fsStore } from '../storage/fsStore.js'
import { getBytes } from '../storage/getBytes.js'
import { memoryStore } from '../storage/memoryStore.js'
import { resultDigest, UnsupportedResultCidError } from '../tasks/commitment.js'
import { sealResult } from '../tasks/seal.js'
import { carHeader } from './bundle.js'
import { CHUNK_SIZE, HEADER_SIZE, sealStream } from './envelope.js'
import {
  BlockWritesUnsupportedError,
  InvalidResultKeyError,
  InvalidSealedOutputError,
  NotASealedOutputError,
  SealedBlockMismatchError,
  SealedOutputKeyError,
  SealedOutputMismatchError,
  SealedOutputTamperedError,
  SealedOutputTruncatedError,
  UnsupportedSealedOutputError,
} from './errors.js'
import { isSealedOutput } from './isSealedOutput.js'
import { openOutput } from './openOutput.js'
import { resultKeyFromSecret } from './resultKey.js'
import { sealOutput } from './sealOutput.js'

const client = resultKeyFromSecret(`0x${'11'.repeat(32)}`)
const stranger = resultKeyFromSecret(`0x${'22'.repeat(32)}`)
const text = (value: string) => new TextEncoder().encode(value)
/** Bytes that do not repeat within a chunk (so that no two blocks are alike). */
const bytesOf = (size: number, seed = 1) =>
  new Uint8Array(size).map((_, i) => (Math.imul(i + seed, 2654435761) >>> 24) & 0xff)

const roots: string[] = []
afterAll(() => Promise.all(roots.map((root) => rm(root, { recursive: true, force: true }))))

/** An fsStore in a fresh temporary directory. */
async function diskStore(): Promise<ContentStore> {
  const root = await mkdtemp(path.join(tmpdir(), 'gridforge-results-'))
  roots.push(root)
  return fsStore({ root })
}

/** The envelope's bytes, copied into `to` as the client fetches it (the same CID). */
async function carry(from: ContentStore, to: ContentStore, cid: string): Promise<string> {
  const copied = await to.put(await getBytes(from, cid))
  expect(copied).toBe(cid)
  return copied
}

/** Stores `bytes` as a new envelope in `store` (a tampered one gets a CID of its own). */
const putEnvelope = (store: ContentStore, bytes: Uint8Array) => store.put(bytes)

async function collect(source: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = []
  for await (const chunk of source) chunks.push(chunk)
  const out = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0))
  let offset = 0
  for (const chunk of chunks) {
    out.set(chunk, offset)
    offset += chunk.byteLength
  }
  return out
}

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes
}

/** An envelope of arbitrary bundle bytes, as a provider could write one (sealed to `client`). */
async function envelopeOf(bundle: Uint8Array, resultKey: Hex = client.publicKey): Promise<Uint8Array> {
  return collect(sealStream(once(bundle), resultKey))
}

const varint = (value: number) => {
  const bytes: number[] = []
  while (value >= 0x80) {
    bytes.push((value & 0x7f) | 0x80)
    value >>>= 7
  }
  bytes.push(value)
  return bytes
}

/** A bundle section: varint(length) ‖ CID ‖ bytes. */
const section = (cid: string, bytes: Uint8Array) => {
  const cidBytes = parseCid(cid).bytes
  return Uint8Array.from([...varint(cidBytes.length + bytes.length), ...cidBytes, ...bytes])
}

const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0))
  let offset = 0
  for (const part of parts) {
    out.set(part, offset)
    offset += part.byteLength
  }
  return out
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error('expected a rejection')
}

describe.each([
  ['memoryStore', async () => memoryStore()],
  ['fsStore', diskStore],
])('sealOutput and openOutput through %s', (_, makeStore) => {
  it('round-trips a file: the client gets the same bytes under the same CID', async () => {
    const [provider, reader] = [await makeStore(), await makeStore()]
    const bytes = text('HELLO GRIDFORGE\n')
    const output = await provider.put(bytes)
    const { cid: envelope } = await sealOutput(provider, { cid: output, resultKey: client.publicKey })
    expect(envelope).not.toBe(output)
    expect(await isSealedOutput(provider, { cid: envelope })).toBe(true)
    expect(await isSealedOutput(provider, { cid: output })).toBe(false)

    await carry(provider, reader, envelope)
    expect(await reader.has(output)).toBe(false)
    const opened = await openOutput(reader, { cid: envelope, secretKey: client.secretKey })
    expect(opened).toEqual({ cid: output, digest: resultDigest(output) })
    // The output CID is the plain import's.
    expect(opened.cid).toBe(await computeCid(bytes))
    expect(await getBytes(reader, opened.cid)).toEqual(bytes)
  })

  it('round-trips a directory with nested files, an empty folder and a symlink', async () => {
    const [provider, reader] = [await makeStore(), await makeStore()]
    const entries = () => [
      { path: 'result.json', content: text('{"ok":true}') },
      { path: 'frames/0001.png', content: bytesOf(300_000, 1) },
      { path: 'frames/0002.png', content: bytesOf(300_000, 1) },
      { path: 'frames/deep/er/notes.txt', content: text('nested') },
      { path: 'empty', type: 'directory' as const },
      { path: 'latest', type: 'symlink' as const, target: 'frames/0002.png' },
    ]
    const output = await provider.putDirectory(entries())
    expect(output).toBe(await computeDirectoryCid(entries()))
    const { cid: envelope } = await sealOutput(provider, { cid: output, resultKey: client.publicKey })
    expect(await isSealedOutput(provider, { cid: output })).toBe(false)
    await carry(provider, reader, envelope)

    const { cid } = await openOutput(reader, { cid: envelope, secretKey: client.secretKey })
    expect(cid).toBe(output)
    expect((await reader.ls(cid)).map((entry) => [entry.name, entry.type])).toEqual([
      ['empty', 'directory'],
      ['frames', 'directory'],
      ['latest', 'symlink'],
      ['result.json', 'file'],
    ])
    expect(await getBytes(reader, cid, { path: 'frames/deep/er/notes.txt' })).toEqual(text('nested'))
    const frame = await getBytes(reader, cid, { path: 'frames/0002.png' })
    expect(Buffer.from(frame).equals(bytesOf(300_000, 1))).toBe(true)
    expect(await getBytes(reader, cid, { path: 'result.json' })).toEqual(text('{"ok":true}'))
  })

  it('seals an output of several chunks and checks it against the seal on chain', async () => {
    const [provider, reader] = [await makeStore(), await makeStore()]
    // 2.5 MiB: ten 256 KiB leaves, a bundle of three 1 MiB chunks.
    const bytes = bytesOf(2.5 * 1024 * 1024, 7)
    const output = await provider.put(bytes)
    const { cid: envelope } = await sealOutput(provider, { cid: output, resultKey: client.publicKey })
    const sealed = await getBytes(provider, envelope)
    expect(sealed.byteLength).toBeGreaterThan(HEADER_SIZE + 2 * (CHUNK_SIZE + 16))
    expect(sealed.byteLength).toBeLessThan(HEADER_SIZE + 3 * (CHUNK_SIZE + 16))
    await carry(provider, reader, envelope)

    const seal = sealResult({ taskId: 42n, digest: resultDigest(output) })
    const opened = await openOutput(reader, { cid: envelope, secretKey: client.secretKey, taskId: 42n, seal })
    expect(opened.cid).toBe(output)
    // (Compared as a whole: toEqual walks megabytes byte by byte.)
    expect(Buffer.from(await getBytes(reader, output)).equals(bytes)).toBe(true)
    // Another task's seal of the same output is not this one's.
    const error = await rejection(
      openOutput(reader, {
        cid: envelope,
        secretKey: client.secretKey,
        taskId: 43n,
        seal,
      }),
    )
    expect(error).toBeInstanceOf(SealedOutputMismatchError)
    expect((error as SealedOutputMismatchError).shortMessage).toContain('is not the one on chain')
  })
})

describe('openOutput refuses what it cannot trust', () => {
  /** An output of three chunks, sealed to the client in its own store. */
  async function sealedOutput(size = 2.5 * 1024 * 1024) {
    const store = memoryStore()
    const output = await store.put(bytesOf(size, 3))
    const { cid } = await sealOutput(store, { cid: output, resultKey: client.publicKey })
    return { store, output, envelope: cid, bytes: await getBytes(store, cid) }
  }

  it('refuses another key before decrypting, and writes nothing', async () => {
    const { store, envelope, output } = await sealedOutput(1000)
    const reader = memoryStore()
    await carry(store, reader, envelope)
    const error = await rejection(openOutput(reader, { cid: envelope, secretKey: stranger.secretKey }))
    expect(error).toBeInstanceOf(SealedOutputKeyError)
    expect(error).toMatchObject({ sealedTo: client.publicKey, publicKey: stranger.publicKey })
    expect((error as SealedOutputKeyError).metaMessages[0]).toContain('the account that submitted the task')
    expect(await reader.has(output)).toBe(false)
  })

  it('detects a flipped byte anywhere: in a chunk or in the header', async () => {
    const { store, bytes } = await sealedOutput()
    const flip = async (at: number) => {
      const copy = bytes.slice()
      copy[at] = (copy[at] as number) ^ 0x01
      return openOutput(store, { cid: await putEnvelope(store, copy), secretKey: client.secretKey })
    }
    expect(await rejection(flip(HEADER_SIZE + 10))).toMatchObject({
      name: 'SealedOutputTamperedError',
      chunk: 0,
    })
    expect(await rejection(flip(HEADER_SIZE + CHUNK_SIZE + 16 + 5))).toMatchObject({ chunk: 1 })
    expect(await rejection(flip(bytes.byteLength - 1))).toMatchObject({ chunk: 2 })
    // The ephemeral key and the nonce prefix are bound into the key: every chunk fails.
    expect(await rejection(flip(9))).toBeInstanceOf(SealedOutputTamperedError)
    expect(await rejection(flip(HEADER_SIZE - 1))).toBeInstanceOf(SealedOutputTamperedError)
    // The recipient key names someone else: not this key's envelope.
    expect(await rejection(flip(9 + 32))).toBeInstanceOf(SealedOutputKeyError)
    expect(await rejection(flip(8))).toBeInstanceOf(UnsupportedSealedOutputError)
    expect(await rejection(flip(0))).toBeInstanceOf(NotASealedOutputError)
  })

  it('detects chunks moved or dropped', async () => {
    const { store, bytes } = await sealedOutput()
    const chunk = (index: number) =>
      bytes.subarray(HEADER_SIZE + index * (CHUNK_SIZE + 16), HEADER_SIZE + (index + 1) * (CHUNK_SIZE + 16))
    const header = bytes.subarray(0, HEADER_SIZE)
    const open = async (envelope: Uint8Array) =>
      rejection(openOutput(store, { cid: await putEnvelope(store, envelope), secretKey: client.secretKey }))
    expect(await open(concat(header, chunk(1), chunk(0), chunk(2)))).toMatchObject({ chunk: 0 })
    // The middle chunk dropped: the last one is not where it belongs.
    expect(await open(concat(header, chunk(0), chunk(2)))).toMatchObject({ chunk: 1 })
  })

  it('names a truncated envelope: cut after a chunk, inside the header or with no chunk', async () => {
    const { store, bytes } = await sealedOutput()
    const cut = async (length: number) =>
      rejection(
        openOutput(store, {
          cid: await putEnvelope(store, bytes.slice(0, length)),
          secretKey: client.secretKey,
        }),
      )
    const afterTwo = await cut(HEADER_SIZE + 2 * (CHUNK_SIZE + 16))
    expect(afterTwo).toBeInstanceOf(SealedOutputTruncatedError)
    expect((afterTwo as SealedOutputTruncatedError).shortMessage).toContain(
      'it ends after chunk 1, which is not its last',
    )
    expect(await cut(HEADER_SIZE + CHUNK_SIZE + 16)).toBeInstanceOf(SealedOutputTruncatedError)
    expect(await cut(HEADER_SIZE)).toBeInstanceOf(SealedOutputTruncatedError)
    expect(await cut(40)).toBeInstanceOf(SealedOutputTruncatedError)
    // Cut inside a chunk: that chunk no longer authenticates.
    expect(await cut(HEADER_SIZE + CHUNK_SIZE + 16 + 1000)).toBeInstanceOf(SealedOutputTamperedError)
  })

  it('refuses a block swapped for another and a block left out, though the envelope is authentic', async () => {
    const store = memoryStore()
    const [left, right] = [bytesOf(300_000, 5), bytesOf(300_000, 6)]
    const output = await store.putDirectory([
      { path: 'a.bin', content: left },
      { path: 'b.bin', content: right },
    ])
    const [a, b] = (await store.ls(output)).map((entry) => entry.cid) as [string, string]
    const leaves = async (file: string) =>
      decode(await store.getBlock(file)).Links.map((link) => link.Hash.toString())
    const block = async (cid: string) => section(cid, await store.getBlock(cid))
    const blocksOf = async (file: string) => [
      await block(file),
      ...(await Promise.all((await leaves(file)).map(block))),
    ]
    const root = parseCid(output)
    // The root, then a.bin (its node and two leaves), then b.bin.
    const all = [await block(output), ...(await blocksOf(a)), ...(await blocksOf(b))]
    expect(all).toHaveLength(7)

    // The whole DAG, sealed by hand: it opens.
    const fresh = memoryStore()
    const honest = await putEnvelope(fresh, await envelopeOf(concat(carHeader(root), ...all)))
    expect((await openOutput(fresh, { cid: honest, secretKey: client.secretKey })).cid).toBe(output)

    // a.bin's first leaf carries b.bin's first leaf's bytes.
    const [aLeaf] = await leaves(a)
    const [bLeaf] = await leaves(b)
    const swapped = [...all]
    swapped[2] = section(aLeaf as string, await store.getBlock(bLeaf as string))
    const reader = memoryStore()
    const mismatch = await rejection(
      openOutput(reader, {
        cid: await putEnvelope(reader, await envelopeOf(concat(carHeader(root), ...swapped))),
        secretKey: client.secretKey,
      }),
    )
    expect(mismatch).toBeInstanceOf(SealedBlockMismatchError)
    expect(mismatch).toMatchObject({ block: aLeaf })
    expect(await reader.has(aLeaf as string)).toBe(false)

    // b.bin's blocks left out: the output is incomplete.
    const missing = await rejection(
      openOutput(store, {
        cid: await putEnvelope(store, await envelopeOf(concat(carHeader(root), ...all.slice(0, -2)))),
        secretKey: client.secretKey,
      }),
    )
    expect(missing).toBeInstanceOf(InvalidSealedOutputError)
    expect((missing as InvalidSealedOutputError).shortMessage).toContain('is missing from it')

    // Not a bundle at all.
    const garbage = await rejection(
      openOutput(store, {
        cid: await putEnvelope(store, await envelopeOf(text('not a CAR'))),
        secretKey: client.secretKey,
      }),
    )
    expect(garbage).toBeInstanceOf(InvalidSealedOutputError)
  })

  it('tells a sealed output from anything else', async () => {
    const store = memoryStore()
    const plain = await store.put(text('GFSEAL: almost'))
    const folder = await store.putDirectory([{ path: 'x', content: text('x') }])
    expect(await isSealedOutput(store, { cid: plain })).toBe(false)
    expect(await isSealedOutput(store, { cid: folder })).toBe(false)
    expect(await rejection(openOutput(store, { cid: plain, secretKey: client.secretKey }))).toBeInstanceOf(
      NotASealedOutputError,
    )
    expect(await rejection(openOutput(store, { cid: folder, secretKey: client.secretKey }))).toMatchObject({
      name: 'NotASealedOutputError',
      shortMessage: `${folder} is not a sealed output: it is a folder`,
    })
  })

  it('needs a store that takes blocks, and both taskId and seal or neither', async () => {
    const { store, envelope, output } = await sealedOutput(100)
    const readOnly: ContentStore = { ...store, putBlock: undefined }
    expect(
      await rejection(openOutput(readOnly, { cid: envelope, secretKey: client.secretKey })),
    ).toBeInstanceOf(BlockWritesUnsupportedError)
    const error = await rejection(
      openOutput(store, { cid: envelope, secretKey: client.secretKey, taskId: 1n }),
    )
    expect(error).toBeInstanceOf(InvalidParametersError)
    expect((error as InvalidParametersError).fields.map((field) => field.path)).toEqual(['seal'])
    expect(await store.has(output)).toBe(true)
  })
})

describe('sealOutput refuses', () => {
  it('a task without a result key, and keys that are no X25519 public keys', async () => {
    const store = memoryStore()
    const output = await store.put(text('x'))
    expect(await rejection(sealOutput(store, { cid: output, resultKey: zeroHash }))).toBeInstanceOf(
      InvalidResultKeyError,
    )
    // A point of small order (here 1): no shared secret.
    const small = `0x01${'00'.repeat(31)}` as Hex
    expect(await rejection(sealOutput(store, { cid: output, resultKey: small }))).toBeInstanceOf(
      InvalidResultKeyError,
    )
  })

  it('an output that cannot be a result', async () => {
    const store = memoryStore()
    expect(
      await rejection(sealOutput(store, { cid: 'bafkreiaaaa', resultKey: client.publicKey })),
    ).toBeInstanceOf(InvalidParametersError)
    // A sha2-512 CID is content, but not a result the market can compare.
    const sha512 = CID.create(1, raw.code, await sha2.sha512.digest(text('x'))).toString()
    expect(await rejection(sealOutput(store, { cid: sha512, resultKey: client.publicKey }))).toBeInstanceOf(
      UnsupportedResultCidError,
    )
  })
})
