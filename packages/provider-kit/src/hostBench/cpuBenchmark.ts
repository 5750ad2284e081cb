import { availableParallelism } from 'node:os'
import { Worker } from 'node:worker_threads'

export interface CpuBenchmarkOptions {
  /** How long each thread hashes, milliseconds (default 1 000). */
  durationMs?: number | undefined
  /** Worker threads (default: every core, `os.availableParallelism()`). */
  threads?: number | undefined
  /** Aborting stops the threads and rejects. */
  signal?: AbortSignal | undefined
}

export interface CpuBenchmarkResult {
  /** SHA-256 throughput of all threads together, MB/s (10^6 bytes). */
  mbPerSecond: number
  threads: number
  durationMs: number
  /** Bytes hashed, all threads. */
  bytes: number
  /** Each thread's MB/s: a thread far below the others points at a throttled or shared core. */
  perThreadMBps: number[]
}

// Inline (eval) worker: it runs the same from src/ under vitest, from dist/ and
// from the bundled CLI, with no worker file to locate. Each thread hashes a
// 64 KiB buffer, 16 times between clock reads, until the duration has passed;
// it waits for "start" so that thread start-up is not measured.
const workerSource = `
const { parentPort } = require('node:worker_threads')
const { createHash } = require('node:crypto')
const { performance } = require('node:perf_hooks')
const chunk = Buffer.alloc(64 * 1024, 0x5a)
parentPort.once('message', (durationMs) => {
  const start = performance.now()
  let bytes = 0
  let elapsed = 0
  do {
    for (let i = 0; i < 16; i++) createHash('sha256').update(chunk).digest()
    bytes += 16 * chunk.length
    elapsed = performance.now() - start
  } while (elapsed < durationMs)
  parentPort.postMessage({ bytes, elapsedMs: elapsed })
})
parentPort.postMessage('ready')
`

/**
 * Measures the CPU: SHA-256 over in-memory buffers on every core at once, in
 * worker threads, for `durationMs`. A real, repeatable figure of integer
 * throughput for hosts without a GPU (SHA-NI and AVX2 show; disk and memory
 * size do not).
 *
 * @example
 * import { benchmarkCpu } from '@gridforge/provider-kit'
 *
 * const { mbPerSecond, threads } = await benchmarkCpu({ durationMs: 500 })
 */
export async function benchmarkCpu(options: CpuBenchmarkOptions = {}): Promise<CpuBenchmarkResult> {
  const { durationMs = 1_000, threads = availableParallelism(), signal } = options
  signal?.throwIfAborted()
  const workers = Array.from({ length: Math.max(1, threads) }, () => new Worker(workerSource, { eval: true }))
  let onAbort = () => {}
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal?.reason)
  })
  signal?.addEventListener('abort', onAbort, { once: true })
  try {
    const message = (worker: Worker) =>
      new Promise<unknown>((resolve, reject) => {
        worker.once('message', resolve)
        worker.once('error', reject)
        worker.once('exit', (code) => reject(new Error(`CPU benchmark thread exited with code ${code}`)))
      })
    await Promise.race([Promise.all(workers.map(message)), aborted])
    const results = workers.map(message)
    for (const worker of workers) worker.postMessage(durationMs)
    const measured = (await Promise.race([Promise.all(results), aborted])) as {
      bytes: number
      elapsedMs: number
    }[]
    const perThreadMBps = measured.map(({ bytes, elapsedMs }) => bytes / 1e6 / (elapsedMs / 1e3))
    return {
      mbPerSecond: perThreadMBps.reduce((sum, value) => sum + value, 0),
      threads: workers.length,
      durationMs,
      bytes: measured.reduce((sum, { bytes }) => sum + bytes, 0),
      perThreadMBps,
    }
  } finally {
    signal?.removeEventListener('abort', onAbort)
    await Promise.all(workers.map((worker) => worker.terminate()))
  }
}
