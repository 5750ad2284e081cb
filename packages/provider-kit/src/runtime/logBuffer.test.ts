import { describe, expect, test } from 'vitest'
import { LogBuffer } from './logBuffer.js'

const bytes = (text: string) => new TextEncoder().encode(text)
const text = (data: Uint8Array) => new TextDecoder().decode(data)

describe('LogBuffer', () => {
  test('keeps everything under the cap', () => {
    const logs = new LogBuffer(10)
    logs.append(bytes('abc'))
    logs.append(bytes('def'))
    expect(text(logs.bytes())).toBe('abcdef')
    expect(logs.truncated).toBe(false)
  })

  test('keeps exactly the first maxBytes and says it dropped the rest', () => {
    const logs = new LogBuffer(5)
    logs.append(bytes('abc'))
    logs.append(bytes('defgh'))
    logs.append(bytes('ijk'))
    expect(text(logs.bytes())).toBe('abcde')
    expect(logs.length).toBe(5)
    expect(logs.truncated).toBe(true)
  })

  test('filling it exactly is not truncation; a byte more is', () => {
    const logs = new LogBuffer(3)
    logs.append(bytes('abc'))
    expect(logs.truncated).toBe(false)
    logs.append(bytes('d'))
    expect(logs.truncated).toBe(true)
  })

  test('copies what it keeps: a reused chunk does not change the logs', () => {
    const logs = new LogBuffer(10)
    const chunk = bytes('abc')
    logs.append(chunk)
    chunk.fill(0)
    expect(text(logs.bytes())).toBe('abc')
  })

  test('a cap of 0 keeps nothing', () => {
    const logs = new LogBuffer(0)
    logs.append(bytes('a'))
    expect(logs.bytes().length).toBe(0)
    expect(logs.truncated).toBe(true)
    expect(() => new LogBuffer(-1)).toThrow(RangeError)
  })
})
