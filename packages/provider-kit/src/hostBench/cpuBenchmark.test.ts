import { describe, expect, test } from 'vitest'
import { benchmarkCpu } from './cpuBenchmark.js'

describe('benchmarkCpu (real worker threads)', () => {
  test('hashes on every requested thread and reports MB/s', async () => {
    const result = await benchmarkCpu({ durationMs: 300, threads: 2 })
    expect(result.threads).toBe(2)
    expect(result.durationMs).toBe(300)
    expect(result.perThreadMBps).toHaveLength(2)
    for (const mbps of result.perThreadMBps) expect(mbps).toBeGreaterThan(0)
    expect(result.mbPerSecond).toBeCloseTo(result.perThreadMBps[0]! + result.perThreadMBps[1]!, 6)
    // At least one 1 MiB round per thread.
    expect(result.bytes).toBeGreaterThanOrEqual(2 * 2 ** 20)
    console.log(`CPU benchmark: ${result.mbPerSecond.toFixed(0)} MB/s SHA-256 on ${result.threads} threads`)
  })

  test('defaults to every core', async () => {
    const { availableParallelism } = await import('node:os')
    expect((await benchmarkCpu({ durationMs: 50 })).threads).toBe(availableParallelism())
  })

  test('aborting stops it', async () => {
    const controller = new AbortController()
    const run = benchmarkCpu({ durationMs: 30_000, threads: 1, signal: controller.signal })
    setTimeout(() => controller.abort(new Error('stopped by the test')), 100)
    await expect(run).rejects.toThrow('stopped by the test')
  })

  test('an already aborted signal rejects at once', async () => {
    await expect(benchmarkCpu({ signal: AbortSignal.abort(new Error('no')) })).rejects.toThrow('no')
  })
})
