import { describe, expect, it } from 'vitest'
import { CHUNK_SIZE, HEADER_SIZE, MAGIC, openStream, sealStream, VERSION } from './envelope.js'
import { SealedOutputTruncatedError } from './errors.js'
import { resultKeyFromSecret } from './resultKey.js'

const client = resultKeyFromSecret(`0x${'33'.repeat(32)}`)

async function collect(source: AsyncIterable<Uint8Array>): Promise<Uint8Array[]> {
  const chunks: Uint8Array[] = []
  for await (const chunk of source) chunks.push(chunk)
  return chunks
}

/** `total` bytes in pieces of `piece` bytes. */
async function* pieces(total: number, piece: number): AsyncGenerator<Uint8Array> {
  for (let offset = 0; offset < total; offset += piece)
    yield new Uint8Array(Math.min(piece, total - offset)).fill(offset % 251)
}

const length = (chunks: readonly Uint8Array[]) => chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0)

describe('the envelope', () => {
  it('starts with its header: magic, version, ephemeral key, recipient key, nonce prefix', async () => {
    const [header] = await collect(sealStream(pieces(10, 10), client.publicKey))
    expect(header?.byteLength).toBe(HEADER_SIZE)
    expect(new TextDecoder().decode(header?.subarray(0, MAGIC.length))).toBe('GFSEALED')
    expect(header?.[MAGIC.length]).toBe(VERSION)
    expect(Buffer.from(header?.subarray(41, 73) ?? []).toString('hex')).toBe(client.publicKey.slice(2))
    // A fresh ephemeral key and prefix every time: the same output never seals to the same bytes.
    const [again] = await collect(sealStream(pieces(10, 10), client.publicKey))
    expect(Buffer.from(again ?? []).equals(header ?? new Uint8Array())).toBe(false)
  })

  it.each([
    ['shorter than a chunk', 1000],
    ['exactly one chunk (the last chunk full)', CHUNK_SIZE],
    ['exactly two chunks', 2 * CHUNK_SIZE],
    ['two chunks and a byte', 2 * CHUNK_SIZE + 1],
  ])('seals and opens a stream %s, whatever its pieces', async (_, total) => {
    const sealed = await collect(sealStream(pieces(total, 100_000), client.publicKey))
    const chunks = Math.max(1, Math.ceil(total / CHUNK_SIZE))
    expect(sealed).toHaveLength(1 + chunks)
    expect(length(sealed)).toBe(HEADER_SIZE + total + 16 * chunks)
    // Read back in other pieces than it was written in.
    const bytes = Buffer.concat(sealed)
    async function* reread() {
      for (let offset = 0; offset < bytes.byteLength; offset += 262_144)
        yield bytes.subarray(offset, offset + 262_144)
    }
    const opened = await collect(openStream('bafy-test', reread(), client.secretKey))
    expect(length(opened)).toBe(total)
    expect(Buffer.concat(opened).equals(Buffer.concat(await collect(pieces(total, 100_000))))).toBe(true)
  })

  it('names an envelope cut after a full chunk as truncated', async () => {
    const bytes = Buffer.concat(await collect(sealStream(pieces(CHUNK_SIZE + 5, 4096), client.publicKey)))
    async function* cut() {
      yield bytes.subarray(0, HEADER_SIZE + CHUNK_SIZE + 16)
    }
    await expect(collect(openStream('bafy-test', cut(), client.secretKey))).rejects.toBeInstanceOf(
      SealedOutputTruncatedError,
    )
  })
})
