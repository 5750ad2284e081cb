import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { GpuInfo } from '../detect/HostReport.js'
import { queryNvidia } from '../detect/nvidiaSmi.js'
import { nbodyOutput, nvidiaSmiFixture, rtx4090 } from '../detect/testing.js'
import { buildImage } from '../runtime/docker/buildImage.js'
import { dockerClient } from '../runtime/docker/dockerClient.js'
import { dockerRuntime } from '../runtime/dockerRuntime.js'
import { GpuBenchmarkError } from './errors.js'
import { benchmarkGpus, hostBenchmarkLabel, nbodyImage } from './gpuBenchmark.js'
import { engineError, recordingDocker } from './testing.js'

let h100s: GpuInfo[]
beforeAll(async () => {
  h100s = (await queryNvidia({ exec: nvidiaSmiFixture('h100-sxm-8x') })).gpus
})

const nbodyOk = () => ({ output: nbodyOutput('h100-sxm'), exitCode: 0 })

/** What the Docker runtime sends to create n-body's container on the GPU `uuid`. */
const nbodyCreateBody = (uuid: string, { image = nbodyImage, numBodies = 262_144 } = {}) => ({
  Image: image,
  Cmd: ['nbody', '-gpu', '-benchmark', `-numbodies=${numBodies}`],
  Labels: { 'dev.gridforge.host-benchmark': uuid },
  Tty: false,
  NetworkDisabled: true,
  HostConfig: {
    DeviceRequests: [{ Driver: 'nvidia', DeviceIDs: [uuid], Capabilities: [['gpu', 'compute', 'utility']] }],
    NetworkMode: 'none',
    CapDrop: ['ALL'],
    SecurityOpt: ['no-new-privileges'],
    Memory: 2_147_483_648,
    PidsLimit: 256,
  },
})

/** The benchmark on the Docker runtime, over a recording engine client. */
function recorded(options: Parameters<typeof recordingDocker>[0] = {}) {
  const recording = recordingDocker(options)
  return { ...recording, runtime: dockerRuntime({ docker: recording.docker }) }
}

describe('benchmarkGpus through the Docker runtime, with a recording engine client', () => {
  test('8× H100: one container per GPU, each pinned to its own UUID by a device request, each removed; figures parsed', async () => {
    const { runtime, created, events } = recorded({ run: nbodyOk })
    const results = await benchmarkGpus({ runtime, gpus: h100s })
    expect(created).toEqual(h100s.map((gpu) => nbodyCreateBody(gpu.uuid)))
    expect(created.map((options) => options.HostConfig?.DeviceRequests)).toEqual(
      h100s.map((gpu) => [
        { Driver: 'nvidia', DeviceIDs: [gpu.uuid], Capabilities: [['gpu', 'compute', 'utility']] },
      ]),
    )
    // One at a time: each container is started and removed before the next.
    expect(events).toEqual(h100s.flatMap((_, i) => [`start c${i + 1}`, `remove c${i + 1} force=true`]))
    expect(results).toHaveLength(8)
    expect(results[3]).toEqual({
      index: 3,
      uuid: h100s[3]!.uuid,
      name: 'NVIDIA H100 80GB HBM3',
      device: 'NVIDIA H100 80GB HBM3',
      bodies: 262144,
      iterations: 10,
      totalTimeMs: 361.522,
      interactionsPerSecond: 1900.838,
      gflops: 38016.761,
    })
  })

  test('image, bodies: passed through', async () => {
    const { runtime, created } = recorded({ run: nbodyOk })
    await benchmarkGpus({
      runtime,
      gpus: [rtx4090],
      image: 'registry.local/nbody@sha256:ab12',
      numBodies: 1_024_000,
    })
    expect(created).toEqual([
      nbodyCreateBody(rtx4090.uuid, { image: 'registry.local/nbody@sha256:ab12', numBodies: 1_024_000 }),
    ])
  })

  test('n-body failing (driver too old for the image): typed error with its last lines; container removed', async () => {
    const { runtime, events } = recorded({
      run: () => ({ output: nbodyOutput('insufficient-driver'), exitCode: 1 }),
    })
    const error = await benchmarkGpus({ runtime, gpus: [rtx4090] }).catch((error: unknown) => error)
    expect(error).toBeInstanceOf(GpuBenchmarkError)
    expect((error as GpuBenchmarkError).shortMessage).toBe(
      'n-body exited with code 1 on GPU 0 (NVIDIA GeForce RTX 4090)',
    )
    expect((error as GpuBenchmarkError).details).toMatch(/cudaErrorInsufficientDriver/)
    expect((error as GpuBenchmarkError).gpu).toBe(rtx4090.uuid)
    expect(events).toEqual(['start c1', 'remove c1 force=true'])
  })

  test('only stdout is parsed; stderr, demuxed, is in the error details', async () => {
    const { runtime } = recorded({
      run: () => ({
        output: 'Run "nbody -benchmark [-numbodies=<numBodies>]"\n',
        stderr: 'CUDA error 999\n',
        exitCode: 2,
      }),
    })
    const error = (await benchmarkGpus({ runtime, gpus: [rtx4090] }).catch(
      (error: unknown) => error,
    )) as GpuBenchmarkError
    expect(error.details).toBe('Run "nbody -benchmark [-numbodies=<numBodies>]" / CUDA error 999')

    // A result line on stderr only is not a result.
    const { runtime: onStderr } = recorded({
      run: () => ({ output: '', stderr: nbodyOutput('h100-sxm'), exitCode: 0 }),
    })
    await expect(benchmarkGpus({ runtime: onStderr, gpus: [rtx4090] })).rejects.toThrow(
      'n-body printed no result on GPU 0 (NVIDIA GeForce RTX 4090)',
    )
  })

  test('exit 0 without a result line: typed error caused by NbodyOutputError', async () => {
    const { runtime } = recorded({ run: () => ({ output: 'hello\n', exitCode: 0 }) })
    const error = (await benchmarkGpus({ runtime, gpus: [rtx4090] }).catch(
      (error: unknown) => error,
    )) as GpuBenchmarkError
    expect(error.shortMessage).toBe('n-body printed no result on GPU 0 (NVIDIA GeForce RTX 4090)')
    expect((error.cause as Error).name).toBe('NbodyOutputError')
  })

  test('the container cannot get the GPU: typed error with the engine message; container removed', async () => {
    const { runtime, events } = recorded({
      startError: engineError(
        500,
        'could not select device driver "nvidia" with capabilities: [[gpu compute utility]]',
      ),
    })
    const error = (await benchmarkGpus({ runtime, gpus: [rtx4090] }).catch(
      (error: unknown) => error,
    )) as GpuBenchmarkError
    expect(error.shortMessage).toBe(
      'The benchmark container could not start on GPU 0 (NVIDIA GeForce RTX 4090)',
    )
    expect(error.details).toBe(
      'could not select device driver "nvidia" with capabilities: [[gpu compute utility]]',
    )
    expect(events).toEqual(['start c1', 'remove c1 force=true'])
  })

  test('a run that hangs is killed at the timeout, then removed', async () => {
    const { runtime, events } = recorded({ hang: true })
    await expect(benchmarkGpus({ runtime, gpus: [rtx4090], timeoutMs: 50 })).rejects.toThrow(
      'n-body did not finish within 50 ms on GPU 0 (NVIDIA GeForce RTX 4090)',
    )
    expect(events).toEqual(['start c1', 'kill c1', 'remove c1 force=true'])
  })

  test('image missing: pulled first; not pulled when pull is false; a failed pull is a typed error', async () => {
    const pulled = recorded({ imagePresent: false, run: nbodyOk })
    await benchmarkGpus({ runtime: pulled.runtime, gpus: [rtx4090] })
    expect(pulled.pulls).toEqual([nbodyImage])
    expect(pulled.created).toHaveLength(1)

    const offline = recorded({ imagePresent: false })
    await expect(benchmarkGpus({ runtime: offline.runtime, gpus: [rtx4090], pull: false })).rejects.toThrow(
      `The benchmark image ${nbodyImage} is not on this host`,
    )
    expect(offline.pulls).toEqual([])
    expect(offline.created).toEqual([])

    const failing = recorded({
      imagePresent: false,
      pullStream: [
        '{"errorDetail":{"message":"dial tcp: lookup nvcr.io: no such host"},"error":"dial tcp: lookup nvcr.io: no such host"}',
      ],
    })
    const error = (await benchmarkGpus({ runtime: failing.runtime, gpus: [rtx4090] }).catch(
      (e: unknown) => e,
    )) as GpuBenchmarkError
    expect(error).toBeInstanceOf(GpuBenchmarkError)
    expect(error.shortMessage).toBe(`The benchmark image ${nbodyImage} could not be pulled`)
    expect(error.details).toBe('dial tcp: lookup nvcr.io: no such host')
    expect(error.metaMessages.join('\n')).toMatch(/docker load/)
    expect(failing.created).toEqual([])
  })
})

describe('benchmarkGpus against the real Docker engine (no GPU here)', () => {
  const image = 'gridforge-hostbench-test:1'
  let context: string

  beforeAll(async () => {
    // FROM scratch + static busybox as `nbody`: enough for the engine to accept the container.
    context = await mkdtemp(path.join(tmpdir(), 'gridforge-hostbench-image-'))
    await writeFile(path.join(context, 'Dockerfile'), 'FROM scratch\nCOPY busybox /bin/nbody\n')
    await copyFile('/bin/busybox', path.join(context, 'busybox'))
    await buildImage({ context, tag: image })
  }, 60_000)
  afterAll(() => rm(context, { recursive: true, force: true }))

  test('the engine accepts the device request as created and refuses it at start: typed error, nothing left behind', async () => {
    const error = (await benchmarkGpus({
      runtime: dockerRuntime(),
      gpus: [rtx4090],
      image,
      pull: false,
    }).catch((e: unknown) => e)) as GpuBenchmarkError
    expect(error).toBeInstanceOf(GpuBenchmarkError)
    // The engine accepts the create options (device request, no network, no capabilities) and refuses at start.
    expect(error.shortMessage).toBe(
      'The benchmark container could not start on GPU 0 (NVIDIA GeForce RTX 4090)',
    )
    expect(error.details).toMatch(
      /could not select device driver "nvidia" with capabilities: \[\[gpu compute utility\]\]/,
    )
    const left = await dockerClient().listContainers({ all: true, filters: { label: [hostBenchmarkLabel] } })
    expect(left).toEqual([])
  })
})
