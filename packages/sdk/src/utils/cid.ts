/**
 * A small CID decoder for validating CIDs before they go on chain, without
 * pulling multiformats into browser bundles. Accepts CIDv1 in base32 (`b…`,
 * what Kubo and this SDK print); CIDv0 (`Qm…`) is refused with the command that
 * converts it, so that every CID on chain has one spelling.
 */

/** The parts of a CID. */
export interface ParsedCid {
  version: 1
  /** Multicodec of the content: 0x55 raw, 0x70 dag-pb, 0x0129 dag-json, … */
  codec: number
  /** Multihash function code: 0x12 sha2-256, 0x1e blake3, … */
  hashCode: number
  /** The hash digest. */
  digest: Uint8Array
}

/** CIDs are stored on chain as strings of 1 to 128 bytes. */
export const maxCidLength = 128

const base32Alphabet = 'abcdefghijklmnopqrstuvwxyz234567'

/**
 * Decodes a CID string, or returns why it is not one.
 *
 * @example
 * parseCid('bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku')
 * // { cid: { version: 1, codec: 0x55, hashCode: 0x12, digest: Uint8Array(32) } }
 */
export function parseCid(value: unknown): { cid: ParsedCid } | { error: string } {
  if (typeof value !== 'string') return { error: 'a CID must be a string like bafy…' }
  if (value.length === 0 || value.length > maxCidLength) {
    return { error: `a CID has 1 to ${maxCidLength} characters, got ${value.length}` }
  }
  if (value.startsWith('Qm')) {
    return { error: `'${value}' is a CIDv0: pass its CIDv1 (\`ipfs cid format -v 1 -b base32 ${value}\`)` }
  }
  if (!value.startsWith('b')) {
    return { error: `'${value}' is not a base32 CIDv1 (b…)` }
  }
  const bytes = decodeBase32(value.slice(1))
  if (bytes === undefined) return { error: `'${value}' has characters outside base32` }
  const reader = { bytes, offset: 0 }
  const version = readVarint(reader)
  const codec = readVarint(reader)
  const hashCode = readVarint(reader)
  const length = readVarint(reader)
  if (version !== 1 || codec === undefined || hashCode === undefined || length === undefined) {
    return { error: `'${value}' is not a CIDv1` }
  }
  if (length === 0 || length > 64 || reader.offset + length !== bytes.length) {
    return { error: `'${value}' has a truncated or oversized multihash` }
  }
  return { cid: { version: 1, codec, hashCode, digest: bytes.slice(reader.offset) } }
}

/** True when `value` is a CID this SDK accepts. */
export function isCid(value: unknown): value is string {
  return 'cid' in parseCid(value)
}

function readVarint(reader: { bytes: Uint8Array; offset: number }): number | undefined {
  let value = 0
  for (let shift = 0; shift < 35; shift += 7) {
    const byte = reader.bytes[reader.offset++]
    if (byte === undefined) return undefined
    value += (byte & 0x7f) * 2 ** shift
    if ((byte & 0x80) === 0) return value
  }
  return undefined
}

function decodeBase32(text: string): Uint8Array | undefined {
  const out: number[] = []
  let buffer = 0
  let bits = 0
  for (const char of text) {
    const index = base32Alphabet.indexOf(char)
    if (index === -1) return undefined
    buffer = (buffer << 5) | index
    bits += 5
    if (bits >= 8) {
      bits -= 8
      out.push((buffer >> bits) & 0xff)
    }
  }
  // RFC 4648 without padding: leftover bits must be zero.
  if ((buffer & ((1 << bits) - 1)) !== 0) return undefined
  return Uint8Array.from(out)
}
