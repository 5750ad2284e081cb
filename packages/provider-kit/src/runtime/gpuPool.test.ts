import { describe, expect, test } from 'vitest'
import { gpuPool } from './gpuPool.js'

const eight = Array.from({ length: 8 }, (_, index) => `GPU-${index}`)

describe('gpuPool', () => {
  test('hands each of 8 one-GPU tasks its own device', () => {
    const gpus = gpuPool(eight)
    const handed = Array.from({ length: 8 }, () => gpus.acquire(1))
    expect(handed).toEqual(eight.map((id) => [id]))
    expect(new Set(handed.flat()).size).toBe(8)
    expect(gpus.free).toBe(0)
    expect(gpus.acquire(1)).toBeUndefined()
  })

  test('takes nothing when fewer devices are free than asked', () => {
    const gpus = gpuPool(['a', 'b', 'c'])
    expect(gpus.acquire(2)).toEqual(['a', 'b'])
    expect(gpus.acquire(2)).toBeUndefined()
    expect(gpus.free).toBe(1)
    expect(gpus.acquire(1)).toEqual(['c'])
  })

  test('acquire(0) always fits, even with every device taken or none at all', () => {
    expect(gpuPool([]).acquire(0)).toEqual([])
    const gpus = gpuPool(['a'])
    gpus.acquire(1)
    expect(gpus.acquire(0)).toEqual([])
    expect(gpuPool([]).acquire(1)).toBeUndefined()
  })

  test('released devices are handed out again, and a double release changes nothing', () => {
    const gpus = gpuPool(['a', 'b'])
    const first = gpus.acquire(1)!
    const second = gpus.acquire(1)!
    gpus.release(first)
    gpus.release(first)
    gpus.release(['not-in-pool'])
    expect(gpus.free).toBe(1)
    expect(gpus.acquire(1)).toEqual(first)
    expect(gpus.acquire(1)).toBeUndefined()
    gpus.release(second)
    expect(gpus.acquire(1)).toEqual(second)
  })

  test('acquireExactly takes the named devices or nothing', () => {
    const gpus = gpuPool(['a', 'b', 'c'])
    expect(gpus.acquireExactly(['c', 'a'])).toEqual(['c', 'a'])
    expect(gpus.acquireExactly(['b', 'c'])).toBeUndefined()
    expect(gpus.acquireExactly(['gone'])).toBeUndefined()
    expect(gpus.free).toBe(1)
    expect(gpus.acquire(1)).toEqual(['b'])
  })

  test('refuses repeated ids and negative or fractional counts', () => {
    expect(() => gpuPool(['a', 'a'])).toThrow(RangeError)
    expect(() => gpuPool(['a']).acquire(-1)).toThrow(RangeError)
    expect(() => gpuPool(['a']).acquire(0.5)).toThrow(RangeError)
  })
})
