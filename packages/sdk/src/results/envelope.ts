/**
 * The sealed-output envelope, version 1: a header, then the bundle (see bundle.ts) encrypted to
 * the client's X25519 key in chunks, with the STREAM construction (Hoang, Reyhanitabar, Rogaway
 * and Vizár, "Online Authenticated-Encryption and its Nonce-Reuse Misuse-Resistance"), as age does.
 *
 * | bytes | field                                                   |
 * | ----- | ------------------------------------------------------- |
 * | 8     | magic: `GFSEALED`                                       |
 * | 1     | version: 1                                              |
 * | 32    | ephemeral X25519 public key (fresh for every envelope)  |
 * | 32    | the recipient's X25519 public key (the task's resultKey) |
 * | 16    | nonce prefix (random)                                   |
 * | …     | chunks: XChaCha20-Poly1305 of 1 MiB of bundle (the last may be shorter), 16-byte tag each |
 *
 * The key is HKDF-SHA256 of the X25519 shared secret, salted with both public keys, with the
 * whole header in its info: a header changed in any byte gives another key, and every chunk fails.
 * Chunk `i`'s nonce is the prefix, `i` as 7 bytes big-endian and a byte that is 1 for the last
 * chunk only: a chunk moved elsewhere, a chunk dropped at the end and a stream cut at a chunk's
 * boundary all fail authentication (and the last case is told apart: truncated). Nothing needs
 * the whole output in memory: one chunk at a time is encrypted or decrypted.
 * @internal
 */
import { xchacha20poly1305 } from '@noble/ciphers/chacha.js'
import { x25519 } from '@noble/curves/ed25519.js'
import { hkdf } from '@noble/hashes/hkdf.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, type Hex, hexToBytes } from 'viem'
import { equalBytes } from '../storage/blocks.js'
import {
  InvalidResultKeyError,
  NotASealedOutputError,
  SealedOutputKeyError,
  SealedOutputTamperedError,
  SealedOutputTruncatedError,
  UnsupportedSealedOutputError,
} from './errors.js'

/** The first bytes of every envelope. */
export const MAGIC = /* @__PURE__ */ new TextEncoder().encode('GFSEALED')
/** The envelope version this SDK writes and reads. */
export const VERSION = 1
/** Bytes of bundle per chunk (the last chunk may hold fewer). */
export const CHUNK_SIZE = 1024 * 1024
/** The authentication tag after each chunk. */
const TAG_SIZE = 16
const KEY_SIZE = 32
const PREFIX_SIZE = 16
/** Magic, version, ephemeral key, recipient key, nonce prefix. */
export const HEADER_SIZE = MAGIC.length + 1 + KEY_SIZE + KEY_SIZE + PREFIX_SIZE
/** Chunks counted in 7 bytes: more than any output has. */
const MAX_CHUNKS = 2 ** 53

const info = /* @__PURE__ */ new TextEncoder().encode('gridforge sealed output v1')

interface Header {
  ephemeralKey: Uint8Array
  recipientKey: Uint8Array
  prefix: Uint8Array
  bytes: Uint8Array
}

function encodeHeader(ephemeralKey: Uint8Array, recipientKey: Uint8Array, prefix: Uint8Array): Uint8Array {
  const bytes = new Uint8Array(HEADER_SIZE)
  bytes.set(MAGIC, 0)
  bytes[MAGIC.length] = VERSION
  bytes.set(ephemeralKey, MAGIC.length + 1)
  bytes.set(recipientKey, MAGIC.length + 1 + KEY_SIZE)
  bytes.set(prefix, MAGIC.length + 1 + 2 * KEY_SIZE)
  return bytes
}

/** Whether `bytes` (at least the magic's length) start with the magic. */
export function hasMagic(bytes: Uint8Array): boolean {
  return bytes.byteLength >= MAGIC.length && equalBytes(bytes.subarray(0, MAGIC.length), MAGIC)
}

function chunkKey(shared: Uint8Array, header: Header): Uint8Array {
  const salt = new Uint8Array(2 * KEY_SIZE)
  salt.set(header.ephemeralKey, 0)
  salt.set(header.recipientKey, KEY_SIZE)
  const context = new Uint8Array(info.length + header.bytes.length)
  context.set(info, 0)
  context.set(header.bytes, info.length)
  return hkdf(sha256, shared, salt, context, KEY_SIZE)
}

function nonce(prefix: Uint8Array, counter: number, last: boolean): Uint8Array {
  const bytes = new Uint8Array(24)
  bytes.set(prefix, 0)
  let value = counter
  for (let i = 22; i >= PREFIX_SIZE; i--) {
    bytes[i] = value % 256
    value = Math.floor(value / 256)
  }
  bytes[23] = last ? 1 : 0
  return bytes
}

/**
 * Encrypts `plaintext` (any chunking) to `resultKey`: yields the header, then one sealed chunk
 * per 1 MiB. A full chunk is held back until more bytes come, so that the last one is known.
 */
export async function* sealStream(
  plaintext: AsyncIterable<Uint8Array>,
  resultKey: Hex,
  signal?: AbortSignal | undefined,
): AsyncGenerator<Uint8Array> {
  const recipientKey = hexToBytes(resultKey)
  if (recipientKey.every((byte) => byte === 0))
    throw new InvalidResultKeyError({ resultKey, reason: 'it is the zero hash: the task has no result key' })
  const { secretKey, publicKey: ephemeralKey } = x25519.keygen()
  let shared: Uint8Array
  try {
    shared = x25519.getSharedSecret(secretKey, recipientKey)
  } catch (cause) {
    throw new InvalidResultKeyError({
      resultKey,
      reason: `it is not an X25519 public key (${(cause as Error).message})`,
    })
  }
  const prefix = globalThis.crypto.getRandomValues(new Uint8Array(PREFIX_SIZE))
  const bytes = encodeHeader(ephemeralKey, recipientKey, prefix)
  const key = chunkKey(shared, { ephemeralKey, recipientKey, prefix, bytes })
  yield bytes

  let buffer = new Uint8Array(CHUNK_SIZE)
  let filled = 0
  let counter = 0
  const seal = (chunk: Uint8Array, last: boolean) =>
    xchacha20poly1305(key, nonce(prefix, counter++, last)).encrypt(chunk)
  for await (const piece of plaintext) {
    signal?.throwIfAborted()
    let offset = 0
    while (offset < piece.byteLength) {
      if (filled === CHUNK_SIZE) {
        // More bytes follow: this full chunk is not the last.
        yield seal(buffer, false)
        buffer = new Uint8Array(CHUNK_SIZE)
        filled = 0
      }
      const take = Math.min(CHUNK_SIZE - filled, piece.byteLength - offset)
      buffer.set(piece.subarray(offset, offset + take), filled)
      filled += take
      offset += take
    }
  }
  yield seal(buffer.subarray(0, filled), true)
}

/** Bytes arriving in pieces, taken from the front. */
class ByteQueue {
  #pieces: Uint8Array[] = []
  length = 0

  push(piece: Uint8Array): void {
    if (piece.byteLength === 0) return
    this.#pieces.push(piece)
    this.length += piece.byteLength
  }

  /** The first `count` bytes (at most `length`), removed. */
  take(count: number): Uint8Array {
    const out = new Uint8Array(count)
    let filled = 0
    while (filled < count) {
      const piece = this.#pieces[0] as Uint8Array
      const take = Math.min(count - filled, piece.byteLength)
      out.set(piece.subarray(0, take), filled)
      filled += take
      if (take === piece.byteLength) this.#pieces.shift()
      else this.#pieces[0] = piece.subarray(take)
    }
    this.length -= count
    return out
  }
}

/**
 * Reads the header of an envelope from `source` and returns it with the rest of the stream, or
 * throws {@link NotASealedOutputError}, {@link UnsupportedSealedOutputError} or
 * {@link SealedOutputTruncatedError}.
 */
async function readHeader(cid: string, source: AsyncIterator<Uint8Array>, queue: ByteQueue): Promise<Header> {
  while (queue.length < HEADER_SIZE) {
    const next = await source.next()
    if (next.done === true) break
    queue.push(next.value)
  }
  if (queue.length < MAGIC.length + 1) {
    const start = queue.take(queue.length)
    if (start.byteLength > 0 && equalBytes(start, MAGIC.subarray(0, start.byteLength)))
      throw new SealedOutputTruncatedError({
        cid,
        reason: `it ends after ${start.byteLength} bytes, in its header`,
      })
    throw new NotASealedOutputError({ cid, reason: 'it does not start with the envelope header (GFSEALED)' })
  }
  const available = queue.length
  const bytes = queue.take(Math.min(HEADER_SIZE, available))
  if (!hasMagic(bytes))
    throw new NotASealedOutputError({ cid, reason: 'it does not start with the envelope header (GFSEALED)' })
  const version = bytes[MAGIC.length] as number
  if (version !== VERSION) throw new UnsupportedSealedOutputError({ cid, version, supported: VERSION })
  if (bytes.byteLength < HEADER_SIZE)
    throw new SealedOutputTruncatedError({
      cid,
      reason: `it ends after ${bytes.byteLength} bytes, in its header`,
    })
  const at = MAGIC.length + 1
  return {
    ephemeralKey: bytes.subarray(at, at + KEY_SIZE),
    recipientKey: bytes.subarray(at + KEY_SIZE, at + 2 * KEY_SIZE),
    prefix: bytes.subarray(at + 2 * KEY_SIZE, HEADER_SIZE),
    bytes,
  }
}

/**
 * Decrypts an envelope read from `ciphertext` with `secretKey`: yields the bundle's bytes, one
 * authenticated chunk at a time. Throws {@link SealedOutputKeyError} before decrypting anything
 * when the envelope is sealed to another key, {@link SealedOutputTamperedError} for a chunk
 * that fails authentication and {@link SealedOutputTruncatedError} when the last chunk is missing.
 */
export async function* openStream(
  cid: string,
  ciphertext: AsyncIterable<Uint8Array>,
  secretKey: Hex,
  signal?: AbortSignal | undefined,
): AsyncGenerator<Uint8Array> {
  const source = ciphertext[Symbol.asyncIterator]()
  try {
    const queue = new ByteQueue()
    const header = await readHeader(cid, source, queue)
    const secret = hexToBytes(secretKey)
    const publicKey = x25519.getPublicKey(secret)
    if (!equalBytes(publicKey, header.recipientKey))
      throw new SealedOutputKeyError({
        cid,
        sealedTo: bytesToHex(header.recipientKey),
        publicKey: bytesToHex(publicKey),
      })
    let shared: Uint8Array
    try {
      shared = x25519.getSharedSecret(secret, header.ephemeralKey)
    } catch {
      // A low-order ephemeral key: no envelope sealOutput writes has one.
      throw new SealedOutputTamperedError({ cid, chunk: 0 })
    }
    const key = chunkKey(shared, header)
    const sealed = CHUNK_SIZE + TAG_SIZE
    let counter = 0
    const open = (chunk: Uint8Array, last: boolean) =>
      xchacha20poly1305(key, nonce(header.prefix, counter, last)).decrypt(chunk)
    while (true) {
      signal?.throwIfAborted()
      const next = await source.next()
      if (next.done !== true) {
        queue.push(next.value)
        // More than a chunk in hand: the first one is not the last.
        while (queue.length > sealed) {
          if (counter >= MAX_CHUNKS) throw new SealedOutputTamperedError({ cid, chunk: counter })
          const chunk = queue.take(sealed)
          let plain: Uint8Array
          try {
            plain = open(chunk, false)
          } catch {
            throw new SealedOutputTamperedError({ cid, chunk: counter })
          }
          counter++
          yield plain
        }
        continue
      }
      // The end: what is left is the last chunk.
      if (queue.length < TAG_SIZE)
        throw new SealedOutputTruncatedError({
          cid,
          reason:
            counter === 0 && queue.length === 0
              ? 'it has a header and no chunk'
              : `it ends ${queue.length} bytes into chunk ${counter}, shorter than a tag`,
        })
      const chunk = queue.take(queue.length)
      let plain: Uint8Array
      try {
        plain = open(chunk, true)
      } catch {
        // A chunk that opens as a middle one: the stream was cut at a chunk's boundary.
        let middle = false
        try {
          open(chunk, false)
          middle = true
        } catch {}
        if (middle)
          throw new SealedOutputTruncatedError({
            cid,
            reason: `it ends after chunk ${counter}, which is not its last`,
          })
        throw new SealedOutputTamperedError({ cid, chunk: counter })
      }
      yield plain
      return
    }
  } finally {
    await source.return?.()
  }
}

/** Reads just enough of `source` to tell whether it starts with the envelope's magic bytes. */
export async function startsWithMagic(source: AsyncIterable<Uint8Array>): Promise<boolean> {
  const queue = new ByteQueue()
  for await (const piece of source) {
    queue.push(piece)
    if (queue.length >= MAGIC.length) break
  }
  return queue.length >= MAGIC.length && hasMagic(queue.take(MAGIC.length))
}
