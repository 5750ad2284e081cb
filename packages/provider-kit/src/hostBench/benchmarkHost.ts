import type Docker from 'dockerode'
import { offeredGpus } from '../detect/capabilities.js'
import type { HostReport } from '../detect/HostReport.js'
import { dockerRuntime } from '../runtime/dockerRuntime.js'
import { benchmarkCpu } from './cpuBenchmark.js'
import { benchmarkGpus, type GpuBenchmarkResult, nbodyImage } from './gpuBenchmark.js'

export interface CpuBenchmarkDetails {
  algorithm: 'sha256'
  threads: number
  durationMs: number
  bytes: number
  perThreadMBps: number[]
  /** Why the GPUs were not measured, when the host has some. */
  gpuSkipped?: string | undefined
}

export interface GpuBenchmarkDetails {
  image: string
  numBodies: number
  gpus: GpuBenchmarkResult[]
}

/** A host's benchmark: what the provider profile publishes for clients to compare hosts. */
export type HostBenchmark =
  | {
      kind: 'gpu'
      /** Sum of the GPUs' single-precision n-body GFLOP/s. */
      score: number
      unit: 'GFLOP/s'
      details: GpuBenchmarkDetails
      /** ISO 8601. */
      measuredAt: string
    }
  | {
      kind: 'cpu'
      /** SHA-256 MB/s over every core. */
      score: number
      unit: 'MB/s'
      details: CpuBenchmarkDetails
      measuredAt: string
    }

export interface BenchmarkHostParameters {
  /** The host, from `detectHost()`: which path runs. */
  report: HostReport
  /** The Docker engine the GPU path runs its containers on, through the Docker runtime (default `dockerClient()`). */
  docker?: Docker | undefined
  cpu?: { durationMs?: number | undefined; threads?: number | undefined } | undefined
  gpu?:
    | {
        image?: string | undefined
        numBodies?: number | undefined
        timeoutMs?: number | undefined
        pull?: boolean | undefined
      }
    | undefined
  /** The clock for `measuredAt` (default `() => new Date()`). */
  now?: (() => Date) | undefined
  signal?: AbortSignal | undefined
}

/**
 * Benchmarks this host. With GPUs to offer and Docker able to give containers
 * GPUs (`nvidiaRuntime`), the GPU path: NVIDIA's CUDA n-body sample on each
 * offered GPU, pinned by UUID; the score is the GPUs' total single-precision
 * GFLOP/s. Otherwise the CPU path: SHA-256 on every core for about a second;
 * the score is MB/s. A failing GPU path throws `GpuBenchmarkError` rather than
 * fall back, so a GPU host never publishes a CPU score by accident.
 *
 * @example
 * import { benchmarkHost, detectHost } from '@gridforge/provider-kit'
 *
 * const report = await detectHost()
 * const benchmark = await benchmarkHost({ report })
 * console.log(`${benchmark.kind}: ${benchmark.score.toFixed(0)} ${benchmark.unit}`)
 */
export async function benchmarkHost(parameters: BenchmarkHostParameters): Promise<HostBenchmark> {
  const { report, now = () => new Date(), signal } = parameters
  const gpus = offeredGpus(report)
  const skipped =
    gpus.length === 0
      ? undefined
      : !report.docker.reachable
        ? 'Docker is not reachable'
        : !report.docker.nvidiaRuntime
          ? 'Docker has no NVIDIA container runtime'
          : undefined
  if (gpus.length > 0 && skipped === undefined) {
    const image = parameters.gpu?.image ?? nbodyImage
    const numBodies = parameters.gpu?.numBodies ?? 262_144
    signal?.throwIfAborted()
    const results = await benchmarkGpus({
      runtime: dockerRuntime({ docker: parameters.docker }),
      gpus,
      image,
      numBodies,
      timeoutMs: parameters.gpu?.timeoutMs,
      pull: parameters.gpu?.pull,
    })
    return {
      kind: 'gpu',
      score: round(results.reduce((sum, gpu) => sum + gpu.gflops, 0)),
      unit: 'GFLOP/s',
      details: { image, numBodies, gpus: results },
      measuredAt: now().toISOString(),
    }
  }
  const cpu = await benchmarkCpu({ ...parameters.cpu, signal })
  return {
    kind: 'cpu',
    score: round(cpu.mbPerSecond),
    unit: 'MB/s',
    details: {
      algorithm: 'sha256',
      threads: cpu.threads,
      durationMs: cpu.durationMs,
      bytes: cpu.bytes,
      perThreadMBps: cpu.perThreadMBps.map(round),
      ...(skipped === undefined ? {} : { gpuSkipped: skipped }),
    },
    measuredAt: now().toISOString(),
  }
}

/** Three decimals: a published figure, not a float's noise. */
function round(value: number): number {
  return Math.round(value * 1000) / 1000
}
