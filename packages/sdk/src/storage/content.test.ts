import { describe, expect, test } from 'vitest'
import { contentChunks, tee } from './content.js'
import { InvalidContentError } from './errors.js'

async function* numbered(count: number, pulled: number[]): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < count; i++) {
    pulled.push(i)
    yield new Uint8Array([i])
  }
}

describe('tee', () => {
  test('both branches see every chunk, in order', async () => {
    const split = tee(numbered(50, []), 4)
    const read = async (branch: AsyncIterable<Uint8Array>) => {
      const seen: number[] = []
      for await (const chunk of branch) seen.push(chunk[0] as number)
      return seen
    }
    const [a, b] = await Promise.all(split.branches.map(read))
    expect(a).toEqual(Array.from({ length: 50 }, (_, i) => i))
    expect(b).toEqual(a)
  })

  test('a fast branch waits for a slow one: at most `limit` chunks are held', async () => {
    const pulled: number[] = []
    const split = tee(numbered(100, pulled), 4)
    const fast = split.branches[0][Symbol.asyncIterator]()
    const reads = Array.from({ length: 10 }, () => fast.next())
    await new Promise((resolve) => setTimeout(resolve, 20))
    // The other branch read nothing: the source was pulled only `limit` times.
    expect(pulled).toHaveLength(4)
    // Detaching the slow branch lets the fast one go on alone.
    split.detach(1)
    expect((await Promise.all(reads)).map((r) => r.value?.[0])).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
  })

  test('a source failure reaches both branches', async () => {
    async function* failing() {
      yield new Uint8Array([1])
      throw new Error('disk gone')
    }
    const split = tee(failing())
    const drain = async (branch: AsyncIterable<Uint8Array>) => {
      for await (const _ of branch);
    }
    const results = await Promise.allSettled(split.branches.map(drain))
    expect(results.map((r) => (r.status === 'rejected' ? (r.reason as Error).message : 'ok'))).toEqual([
      'disk gone',
      'disk gone',
    ])
  })
})

describe('contentChunks', () => {
  test('accepts bytes, iterables and ReadableStreams; refuses the rest with a typed error', async () => {
    const all = async (source: AsyncIterable<Uint8Array>) => {
      const chunks: number[] = []
      for await (const chunk of source) chunks.push(...chunk)
      return chunks
    }
    expect(await all(contentChunks(new Uint8Array([1, 2])))).toEqual([1, 2])
    expect(await all(contentChunks([new Uint8Array([1]), new Uint8Array([2])]))).toEqual([1, 2])
    expect(await all(contentChunks(new Blob([new Uint8Array([3, 4])]).stream()))).toEqual([3, 4])
    expect(() => contentChunks(42 as never)).toThrow(InvalidContentError)
    expect(() => contentChunks('text' as never)).toThrow(/encode it first/)
    await expect(
      all(contentChunks(new Blob(['x']).stream().pipeThrough(new TextDecoderStream()) as never)),
    ).rejects.toThrow(/not a Uint8Array/)
  })
})
