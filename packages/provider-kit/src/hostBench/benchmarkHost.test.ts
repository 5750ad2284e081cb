import { describe, expect, test } from 'vitest'
import type { HostReport } from '../detect/HostReport.js'
import { queryNvidia } from '../detect/nvidiaSmi.js'
import {
  dockerUnreachable,
  dockerWithoutNvidia,
  hostReport,
  nbodyOutput,
  nvidiaAbsent,
  nvidiaSmiFixture,
} from '../detect/testing.js'
import { benchmarkHost } from './benchmarkHost.js'
import { GpuBenchmarkError } from './errors.js'
import { nbodyImage } from './gpuBenchmark.js'
import { recordingDocker } from './testing.js'

const now = () => new Date('2026-11-21T10:00:00.000Z')
const hostWith = async (name: string, report: Partial<HostReport> = {}) =>
  hostReport({ nvidia: await queryNvidia({ exec: nvidiaSmiFixture(name) }), ...report })

describe('benchmarkHost', () => {
  test('a host without a GPU: the CPU path, measured for real', async () => {
    const { docker, created } = recordingDocker()
    const benchmark = await benchmarkHost({
      report: hostReport({ nvidia: nvidiaAbsent }),
      docker,
      cpu: { durationMs: 200 },
      now,
    })
    expect(benchmark).toMatchObject({ kind: 'cpu', unit: 'MB/s', measuredAt: '2026-11-21T10:00:00.000Z' })
    expect(benchmark.score).toBeGreaterThan(0)
    expect(benchmark.kind === 'cpu' && benchmark.details).toMatchObject({
      algorithm: 'sha256',
      durationMs: 200,
    })
    expect(benchmark.kind === 'cpu' && benchmark.details.gpuSkipped).toBeUndefined()
    expect(created).toEqual([])
    console.log(
      `host benchmark (CPU path): ${benchmark.score} ${benchmark.unit}`,
      JSON.stringify(benchmark.details),
    )
  })

  test('GPUs but Docker cannot give them to containers: CPU path, saying why', async () => {
    const { docker, created } = recordingDocker()
    for (const [dockerReport, why] of [
      [dockerWithoutNvidia, 'Docker has no NVIDIA container runtime'],
      [dockerUnreachable, 'Docker is not reachable'],
    ] as const) {
      const benchmark = await benchmarkHost({
        report: await hostWith('rtx-4090', { docker: dockerReport }),
        docker,
        cpu: { durationMs: 50, threads: 1 },
      })
      expect(benchmark.kind).toBe('cpu')
      expect(benchmark.kind === 'cpu' && benchmark.details.gpuSkipped).toBe(why)
    }
    expect(created).toEqual([])
  })

  test('8× H100 with the NVIDIA runtime: the GPU path, score = total GFLOP/s', async () => {
    const { docker, created } = recordingDocker({
      run: () => ({ output: nbodyOutput('h100-sxm'), exitCode: 0 }),
    })
    const report = await hostWith('h100-sxm-8x')
    const benchmark = await benchmarkHost({ report, docker, now })
    // One container per GPU, each given its own GPU, and no other, by a device request.
    expect(
      created.map((options) => [options.Image, options.Cmd, options.HostConfig?.DeviceRequests]),
    ).toEqual(
      report.nvidia.gpus.map((gpu) => [
        nbodyImage,
        ['nbody', '-gpu', '-benchmark', '-numbodies=262144'],
        [{ Driver: 'nvidia', DeviceIDs: [gpu.uuid], Capabilities: [['gpu', 'compute', 'utility']] }],
      ]),
    )
    expect(benchmark).toMatchObject({
      kind: 'gpu',
      score: 304_134.088,
      unit: 'GFLOP/s',
      measuredAt: '2026-11-21T10:00:00.000Z',
      details: { image: nbodyImage, numBodies: 262_144 },
    })
    expect(benchmark.kind === 'gpu' && benchmark.details.gpus.map((gpu) => gpu.gflops)).toEqual(
      Array(8).fill(38016.761),
    )
  })

  test('MIG: only the GPU offered whole is benchmarked', async () => {
    const { docker, created } = recordingDocker({
      run: () => ({ output: nbodyOutput('h100-sxm'), exitCode: 0 }),
    })
    const report = await hostWith('a100-mig')
    await benchmarkHost({ report, docker })
    expect(created.map((options) => options.HostConfig?.DeviceRequests?.[0]?.DeviceIDs)).toEqual([
      [report.nvidia.gpus[1]!.uuid],
    ])
  })

  test('the GPU path failing throws; it does not publish a CPU score instead', async () => {
    const { docker } = recordingDocker({
      run: () => ({ output: nbodyOutput('insufficient-driver'), exitCode: 1 }),
    })
    await expect(benchmarkHost({ report: await hostWith('rtx-4090'), docker })).rejects.toBeInstanceOf(
      GpuBenchmarkError,
    )
  })
})
