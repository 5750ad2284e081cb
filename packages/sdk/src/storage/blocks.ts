import type { CID } from 'multiformats/cid'
import { identity } from 'multiformats/hashes/identity'
import type { MultihashHasher } from 'multiformats/hashes/interface'
import { sha256, sha512 } from 'multiformats/hashes/sha2'
import { BlockTooLargeError, ContentVerificationError, UnsupportedCidError } from './errors.js'

/**
 * The largest block any store will hand back (2 MiB): the UnixFS spec asks readers to
 * accept blocks up to 2 MiB (Bitswap's limit), and the SDK writes 256 KiB ones.
 */
export const MAX_BLOCK_SIZE = 2 * 1024 * 1024

/** Multicodec codes of the two block formats UnixFS uses. */
export const RAW_CODE = 0x55
export const DAG_PB_CODE = 0x70

/** Identity CIDs inline their block; the UnixFS spec caps them at 128 bytes. */
const MAX_IDENTITY_DIGEST = 128

const hashers: ReadonlyMap<number, MultihashHasher<number>> = new Map<number, MultihashHasher<number>>([
  [sha256.code, sha256],
  [sha512.code, sha512],
])

/** Options every block read takes. */
export interface BlockReadOptions {
  signal?: AbortSignal | undefined
}

/**
 * Where verified reads get their bytes. Implementations return the bytes they hold for a
 * CID (or throw `ContentNotFoundError`); `readVerifiedBlock` checks them against the CID.
 */
export interface BlockSource {
  /** Short description used in errors: `memory`, `fs /data/…`, `gateway https://…`. */
  readonly description: string
  getBlock(cid: CID, options: BlockReadOptions): Promise<Uint8Array>
  /** Extra line for a verification error (what to do about a bad block from this source). */
  readonly corruptionHint?: ((cid: CID) => string) | undefined
}

/** Throws {@link UnsupportedCidError} unless blocks of this CID can be verified. */
export function assertVerifiable(cid: CID): void {
  const code = cid.multihash.code
  if (code === identity.code) {
    if (cid.multihash.size > MAX_IDENTITY_DIGEST)
      throw new UnsupportedCidError({
        cid: cid.toString(),
        reason: `identity CID inlines ${cid.multihash.size} bytes, more than ${MAX_IDENTITY_DIGEST}`,
      })
    return
  }
  if (!hashers.has(code))
    throw new UnsupportedCidError({
      cid: cid.toString(),
      reason: `hash function 0x${code.toString(16)} is not supported`,
    })
}

/** The block an identity CID inlines, or `undefined` for a CID that addresses a stored block. */
export function inlineBlock(cid: CID): Uint8Array | undefined {
  return cid.multihash.code === identity.code ? cid.multihash.digest : undefined
}

/** Checks `bytes` against `cid` (size cap and hash) and returns them; throws a typed error otherwise. */
export async function verifyBlock(
  cid: CID,
  bytes: Uint8Array,
  source: string,
  hint?: string | undefined,
): Promise<Uint8Array> {
  if (bytes.byteLength > MAX_BLOCK_SIZE)
    throw new BlockTooLargeError({ cid: cid.toString(), source, limit: MAX_BLOCK_SIZE })
  const inline = inlineBlock(cid)
  if (inline !== undefined) {
    if (!equalBytes(inline, bytes)) throw mismatch(cid, source, inline, bytes, hint)
    return bytes
  }
  assertVerifiable(cid)
  const hasher = hashers.get(cid.multihash.code) as MultihashHasher<number>
  const digest = await hasher.digest(bytes)
  if (!equalBytes(digest.digest, cid.multihash.digest))
    throw mismatch(cid, source, cid.multihash.digest, digest.digest, hint)
  return bytes
}

/** Reads a block from `source` and verifies it; identity CIDs never touch the source. */
export async function readVerifiedBlock(
  source: BlockSource,
  cid: CID,
  options: BlockReadOptions,
): Promise<Uint8Array> {
  assertVerifiable(cid)
  const inline = inlineBlock(cid)
  if (inline !== undefined) return inline
  const bytes = await source.getBlock(cid, options)
  return verifyBlock(cid, bytes, source.description, source.corruptionHint?.(cid))
}

function mismatch(
  cid: CID,
  source: string,
  expected: Uint8Array,
  actual: Uint8Array,
  hint: string | undefined,
): ContentVerificationError {
  return new ContentVerificationError({
    cid: cid.toString(),
    source,
    expectedDigest: toHex(expected),
    actualDigest: toHex(actual),
    hint,
  })
}

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false
  return true
}

export function toHex(bytes: Uint8Array): string {
  let hex = ''
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0')
  return hex
}
