/**
 * What a sealed output holds once decrypted: its DAG as a CARv1 stream (the format of
 * `ipfs dag export`): a header naming the root, then every block of the DAG once, each as
 * `varint(length) ‖ CID ‖ bytes`, the root first and the rest in depth-first order. A decrypted
 * bundle is a CAR file any IPFS tool imports.
 * @internal
 */
import * as dagPb from '@ipld/dag-pb'
import { CID } from 'multiformats/cid'
import { DAG_PB_CODE, inlineBlock, MAX_BLOCK_SIZE, toHex, verifyBlock } from '../storage/blocks.js'
import type { ContentStore } from '../storage/ContentStore.js'
import { assertUnixfsCid } from '../storage/dag.js'
import { BlockTooLargeError, ContentVerificationError, InvalidDagError } from '../storage/errors.js'
import { resultCidProblem } from '../tasks/commitment.js'
import { InvalidSealedOutputError, SealedBlockMismatchError } from './errors.js'

const ascii = (text: string) => Array.from(text, (char) => char.charCodeAt(0))

/** The dag-cbor map `{ roots: [CID], version: 1 }` up to the root's tagged bytes (keys in dag-cbor order). */
const headerStart = [0xa2, 0x65, ...ascii('roots'), 0x81, 0xd8, 0x2a]
const headerEnd = [0x67, ...ascii('version'), 0x01]
/** A section is a block and its CID: a CID is far shorter than this. */
const MAX_SECTION = MAX_BLOCK_SIZE + 1024
const MAX_HEADER = 1024

function varint(value: number): number[] {
  const bytes: number[] = []
  let rest = value
  while (rest >= 0x80) {
    bytes.push((rest % 0x80) | 0x80)
    rest = Math.floor(rest / 0x80)
  }
  bytes.push(rest)
  return bytes
}

/** The CBOR head of a byte string of `length` bytes. */
function byteStringHead(length: number): number[] {
  if (length < 24) return [0x40 + length]
  if (length < 256) return [0x58, length]
  return [0x59, length >> 8, length & 0xff]
}

/** The CARv1 header naming `root`, with its length before it. */
export function carHeader(root: CID): Uint8Array {
  const tagged = [0x00, ...root.bytes]
  const header = [...headerStart, ...byteStringHead(tagged.length), ...tagged, ...headerEnd]
  return Uint8Array.from([...varint(header.length), ...header])
}

/** A multihash as a map key: blocks are the same block whatever the CID's version. */
const keyOf = (cid: CID) => toHex(cid.multihash.bytes)

/**
 * The bundle of the DAG rooted at `root`, streamed: its header, then each block read from
 * `store` (verified against its CID) once, the root first. Identity CIDs hold their block and
 * are left out.
 */
export async function* writeBundle(
  store: Pick<ContentStore, 'getBlock'>,
  root: CID,
  signal?: AbortSignal | undefined,
): AsyncGenerator<Uint8Array> {
  yield carHeader(root)
  const seen = new Set<string>()
  // Depth first, in link order: the next block to write is on top.
  const stack: CID[] = [root]
  while (stack.length > 0) {
    signal?.throwIfAborted()
    const cid = stack.pop() as CID
    assertUnixfsCid(cid)
    const key = keyOf(cid)
    if (seen.has(key) || inlineBlock(cid) !== undefined) continue
    seen.add(key)
    const bytes = await store.getBlock(cid.toString(), { signal })
    yield Uint8Array.from([...varint(cid.bytes.byteLength + bytes.byteLength), ...cid.bytes])
    yield bytes
    if (cid.code === DAG_PB_CODE) {
      let links: dagPb.PBLink[]
      try {
        links = dagPb.decode(bytes).Links
      } catch (cause) {
        throw new InvalidDagError({ cid: cid.toString(), reason: 'the block is not valid dag-pb', cause })
      }
      for (let i = links.length - 1; i >= 0; i--) stack.push((links[i] as dagPb.PBLink).Hash)
    }
  }
}

/** Pulls bytes from a stream of pieces, as many as asked for. */
class Reader {
  #source: AsyncIterator<Uint8Array>
  #piece: Uint8Array = new Uint8Array(0)
  #done = false

  constructor(source: AsyncIterable<Uint8Array>) {
    this.#source = source[Symbol.asyncIterator]()
  }

  /** Whether every byte was read. */
  async atEnd(): Promise<boolean> {
    while (this.#piece.byteLength === 0 && !this.#done) {
      const next = await this.#source.next()
      if (next.done === true) this.#done = true
      else this.#piece = next.value
    }
    return this.#piece.byteLength === 0
  }

  /** The next `count` bytes, or `undefined` when the stream ends first. */
  async bytes(count: number): Promise<Uint8Array | undefined> {
    const out = new Uint8Array(count)
    let filled = 0
    while (filled < count) {
      if (await this.atEnd()) return undefined
      const take = Math.min(count - filled, this.#piece.byteLength)
      out.set(this.#piece.subarray(0, take), filled)
      this.#piece = this.#piece.subarray(take)
      filled += take
    }
    return out
  }

  /** An unsigned LEB128 varint (at most 7 bytes), or `undefined` at the end or for a longer one. */
  async varint(): Promise<number | undefined> {
    let value = 0
    for (let shift = 0; shift < 49; shift += 7) {
      const [byte] = (await this.bytes(1)) ?? []
      if (byte === undefined) return undefined
      value += (byte & 0x7f) * 2 ** shift
      if ((byte & 0x80) === 0) return value
    }
    return undefined
  }

  async close(): Promise<void> {
    await this.#source.return?.()
  }
}

/** Parses the header {@link carHeader} writes, or returns `undefined`. */
function parseHeader(bytes: Uint8Array): CID | undefined {
  const expect = (at: number, expected: readonly number[]) =>
    expected.every((byte, index) => bytes[at + index] === byte)
  if (!expect(0, headerStart)) return undefined
  let at = headerStart.length
  const head = bytes[at]
  let length: number
  if (head !== undefined && head >= 0x40 && head < 0x58) {
    length = head - 0x40
    at += 1
  } else if (head === 0x58) {
    length = bytes[at + 1] ?? 0
    at += 2
  } else if (head === 0x59) {
    length = ((bytes[at + 1] ?? 0) << 8) | (bytes[at + 2] ?? 0)
    at += 3
  } else return undefined
  if (length < 2 || bytes[at] !== 0x00 || at + length + headerEnd.length !== bytes.byteLength)
    return undefined
  let root: CID
  try {
    root = CID.decode(bytes.subarray(at + 1, at + length))
  } catch {
    return undefined
  }
  return expect(at + length, headerEnd) ? root : undefined
}

/**
 * Reads a decrypted bundle: checks every block against its CID and hands it to `onBlock`
 * (in the bundle's order), then checks that the bundle held the whole DAG of its root. Returns
 * the root. `envelope` names the sealed output in errors.
 */
export async function readBundle(
  envelope: string,
  plaintext: AsyncIterable<Uint8Array>,
  onBlock: (cid: CID, bytes: Uint8Array) => Promise<void>,
  signal?: AbortSignal | undefined,
): Promise<CID> {
  const invalid = (reason: string, cause?: unknown) =>
    new InvalidSealedOutputError({ cid: envelope, reason, cause })
  const reader = new Reader(plaintext)
  try {
    const headerLength = await reader.varint()
    const header =
      headerLength === undefined || headerLength > MAX_HEADER ? undefined : await reader.bytes(headerLength)
    const root = header === undefined ? undefined : parseHeader(header)
    if (root === undefined) throw invalid('its bundle does not start with a CARv1 header naming one root')
    try {
      assertUnixfsCid(root)
    } catch (cause) {
      throw invalid(`its root ${root} is not a UnixFS CID`, cause)
    }
    // The output's digest is what is sealed on chain: a sha2-256 CIDv1, as resultDigest reads it.
    const problem = resultCidProblem(root.toString())
    if (problem !== undefined) throw invalid(`its root ${root} cannot be a result: ${problem}`)
    const seen = new Set<string>()
    const needed = new Map<string, CID>([[keyOf(root), root]])
    while (!(await reader.atEnd())) {
      signal?.throwIfAborted()
      const length = await reader.varint()
      if (length === undefined || length === 0 || length > MAX_SECTION)
        throw invalid(`a block section has a bad length (${length ?? 'unreadable'})`)
      const section = await reader.bytes(length)
      if (section === undefined) throw invalid('its bundle ends inside a block')
      let cid: CID
      let bytes: Uint8Array
      try {
        ;[cid, bytes] = CID.decodeFirst(section)
        assertUnixfsCid(cid)
      } catch (cause) {
        throw invalid('a block section does not start with a UnixFS CID', cause)
      }
      try {
        await verifyBlock(cid, bytes, `sealed output ${envelope}`)
      } catch (cause) {
        if (cause instanceof ContentVerificationError)
          throw new SealedBlockMismatchError({ cid: envelope, block: cid.toString(), cause })
        if (cause instanceof BlockTooLargeError)
          throw invalid(`block ${cid} is over ${MAX_BLOCK_SIZE} bytes`, cause)
        throw cause
      }
      const key = keyOf(cid)
      if (seen.has(key)) continue
      seen.add(key)
      if (cid.code === DAG_PB_CODE) {
        let links: dagPb.PBLink[]
        try {
          links = dagPb.decode(bytes).Links
        } catch (cause) {
          throw invalid(`block ${cid} is not valid dag-pb`, cause)
        }
        for (const { Hash } of links) if (inlineBlock(Hash) === undefined) needed.set(keyOf(Hash), Hash)
      }
      await onBlock(cid, bytes)
    }
    for (const [key, cid] of needed) {
      if (!seen.has(key) && inlineBlock(cid) === undefined)
        throw invalid(`block ${cid} of the output is missing from it`)
    }
    return root
  } finally {
    await reader.close()
  }
}
