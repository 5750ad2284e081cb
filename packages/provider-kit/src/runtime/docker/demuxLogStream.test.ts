import { describe, expect, test } from 'vitest'
import { demuxLogStream } from './demuxLogStream.js'

function frame(stream: 1 | 2, payload: string): Uint8Array {
  const body = new TextEncoder().encode(payload)
  const header = new Uint8Array(8)
  header[0] = stream
  new DataView(header.buffer).setUint32(4, body.length)
  const out = new Uint8Array(8 + body.length)
  out.set(header)
  out.set(body, 8)
  return out
}

function collect(chunks: Uint8Array[]) {
  const seen: string[] = []
  const push = demuxLogStream((stream, payload) =>
    seen.push(`${stream}:${new TextDecoder().decode(payload)}`),
  )
  for (const chunk of chunks) push(chunk)
  return seen
}

describe('demuxLogStream', () => {
  const stream = new Uint8Array([
    ...frame(1, 'out one\n'),
    ...frame(2, 'err\n'),
    ...frame(1, ''),
    ...frame(1, 'out two\n'),
  ])
  const expected = ['stdout:out one\n', 'stderr:err\n', 'stdout:', 'stdout:out two\n']

  test('splits frames in one chunk, in order', () => {
    expect(collect([stream])).toEqual(expected)
  })

  test('reassembles frames split anywhere, one byte at a time included', () => {
    expect(collect(Array.from(stream, (byte) => new Uint8Array([byte])))).toEqual(expected)
    for (let cut = 1; cut < stream.length; cut++) {
      expect(collect([stream.subarray(0, cut), stream.subarray(cut)])).toEqual(expected)
    }
  })
})
