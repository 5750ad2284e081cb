/**
 * Result CIDs of the simulation: a result digest `d` is handed in as the CIDv1 (raw, sha2-256) whose multihash
 * digest is `d`, as a real provider's output CID is, so that what the chain and the events show is what a real
 * market shows: anyone reading a ResultSubmitted event can derive the result's digest from its resultCID (what
 * the SDK's `resultDigest(cid)` does). The simulator keeps its own codec so that it does not depend on the SDK.
 */
import { bytesToHex, type Hex, hexToBytes } from 'viem'

const alphabet = 'abcdefghijklmnopqrstuvwxyz234567'
/** CIDv1, raw codec (0x55), sha2-256 (0x12), 32-byte digest. */
const prefix = [0x01, 0x55, 0x12, 0x20]

/** The base32 CIDv1 of content whose sha2-256 digest is `digest`. */
export function cidOf(digest: Hex): string {
  const bytes = [...prefix, ...hexToBytes(digest)]
  if (bytes.length !== prefix.length + 32) throw new Error(`sim: ${digest} is not a 32-byte digest`)
  let out = 'b'
  let buffer = 0
  let bits = 0
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte
    bits += 8
    while (bits >= 5) {
      out += alphabet[(buffer >> (bits - 5)) & 31]
      bits -= 5
    }
    buffer &= (1 << bits) - 1
  }
  if (bits > 0) out += alphabet[(buffer << (5 - bits)) & 31]
  return out
}

/** The sha2-256 digest of a CID made by `cidOf` (what `resultDigest(cid)` of the SDK reads). */
export function digestOf(cid: string): Hex {
  if (!cid.startsWith('b')) throw new Error(`sim: ${cid} is not a base32 CIDv1`)
  const bytes: number[] = []
  let buffer = 0
  let bits = 0
  for (const char of cid.slice(1)) {
    const value = alphabet.indexOf(char)
    if (value === -1) throw new Error(`sim: ${cid} is not a base32 CIDv1`)
    buffer = (buffer << 5) | value
    bits += 5
    if (bits >= 8) {
      bytes.push((buffer >> (bits - 8)) & 0xff)
      bits -= 8
      buffer &= (1 << bits) - 1
    }
  }
  if (bytes.length !== prefix.length + 32 || prefix.some((byte, i) => bytes[i] !== byte)) {
    throw new Error(`sim: ${cid} is not a raw sha2-256 CIDv1`)
  }
  return bytesToHex(new Uint8Array(bytes.slice(prefix.length)))
}
