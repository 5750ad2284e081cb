import { Readable } from 'node:stream'
import Docker from 'dockerode'
import { pack } from 'tar-stream'
import { beforeAll, describe, expect, test } from 'vitest'
import type { GpuInfo } from '../detect/HostReport.js'
import { queryNvidia } from '../detect/nvidiaSmi.js'
import { nbodyOutput, nvidiaSmiFixture, rtx4090 } from '../detect/testing.js'
import { GpuBenchmarkError } from './errors.js'
import {
  benchmarkGpus,
  demuxLogs,
  type HostBenchDocker,
  hostBenchmarkLabel,
  nbodyContainerOptions,
  nbodyImage,
} from './gpuBenchmark.js'
import { dockerFrames, recordingDocker } from './testing.js'

let h100s: GpuInfo[]
beforeAll(async () => {
  h100s = (await queryNvidia({ exec: nvidiaSmiFixture('h100-sxm-8x') })).gpus
})

const nbodyOk = () => ({ output: nbodyOutput('h100-sxm'), exitCode: 0 })

describe('nbodyContainerOptions', () => {
  test('n-body pinned to one GPU by UUID, no network, no capabilities', () => {
    expect(nbodyContainerOptions({ image: nbodyImage, uuid: rtx4090.uuid, numBodies: 262_144 })).toEqual({
      Image: 'nvcr.io/nvidia/k8s/cuda-sample:nbody-cuda11.7.1',
      Cmd: ['nbody', '-gpu', '-benchmark', '-numbodies=262144'],
      Labels: { 'dev.gridforge.host-benchmark': 'GPU-80571715-6852-1950-234e-f5058fc16ddb' },
      Tty: false,
      NetworkDisabled: true,
      HostConfig: {
        DeviceRequests: [
          {
            Driver: 'nvidia',
            DeviceIDs: ['GPU-80571715-6852-1950-234e-f5058fc16ddb'],
            Capabilities: [['gpu', 'compute', 'utility']],
          },
        ],
        NetworkMode: 'none',
        CapDrop: ['ALL'],
        SecurityOpt: ['no-new-privileges'],
        Memory: 2_147_483_648,
        PidsLimit: 256,
      },
    })
  })
})

describe('benchmarkGpus with a recording Docker client', () => {
  test('8× H100: one container per GPU, each pinned to its own UUID, each removed; figures parsed', async () => {
    const { docker, created, events } = recordingDocker({ run: nbodyOk })
    const results = await benchmarkGpus({ docker, gpus: h100s })
    expect(created).toEqual(
      h100s.map((gpu) => nbodyContainerOptions({ image: nbodyImage, uuid: gpu.uuid, numBodies: 262_144 })),
    )
    expect(created.map((options) => options.HostConfig?.DeviceRequests?.[0]?.DeviceIDs)).toEqual(
      h100s.map((gpu) => [gpu.uuid]),
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
    const { docker, created } = recordingDocker({ run: nbodyOk })
    await benchmarkGpus({
      docker,
      gpus: [rtx4090],
      image: 'registry.local/nbody@sha256:ab12',
      numBodies: 1_024_000,
    })
    expect(created[0]).toMatchObject({
      Image: 'registry.local/nbody@sha256:ab12',
      Cmd: ['nbody', '-gpu', '-benchmark', '-numbodies=1024000'],
    })
  })

  test('n-body failing (driver too old for the image): typed error with its last lines; container removed', async () => {
    const { docker, events } = recordingDocker({
      run: () => ({ output: nbodyOutput('insufficient-driver'), exitCode: 1 }),
    })
    const error = await benchmarkGpus({ docker, gpus: [rtx4090] }).catch((error: unknown) => error)
    expect(error).toBeInstanceOf(GpuBenchmarkError)
    expect((error as GpuBenchmarkError).shortMessage).toBe(
      'n-body exited with code 1 on GPU 0 (NVIDIA GeForce RTX 4090)',
    )
    expect((error as GpuBenchmarkError).details).toMatch(/cudaErrorInsufficientDriver/)
    expect((error as GpuBenchmarkError).gpu).toBe(rtx4090.uuid)
    expect(events).toEqual(['start c1', 'remove c1 force=true'])
  })

  test('exit 0 without a result line: typed error caused by NbodyOutputError', async () => {
    const { docker } = recordingDocker({ run: () => ({ output: 'hello\n', exitCode: 0 }) })
    const error = (await benchmarkGpus({ docker, gpus: [rtx4090] }).catch(
      (error: unknown) => error,
    )) as GpuBenchmarkError
    expect(error.shortMessage).toBe('n-body printed no result on GPU 0 (NVIDIA GeForce RTX 4090)')
    expect((error.cause as Error).name).toBe('NbodyOutputError')
  })

  test('the container cannot get the GPU: typed error with the engine message; container removed', async () => {
    const { docker, events } = recordingDocker({
      startError: new Error(
        '(HTTP code 500) server error - could not select device driver "nvidia" with capabilities: [[gpu compute utility]]',
      ),
    })
    const error = (await benchmarkGpus({ docker, gpus: [rtx4090] }).catch(
      (error: unknown) => error,
    )) as GpuBenchmarkError
    expect(error.shortMessage).toBe(
      'The benchmark container could not start on GPU 0 (NVIDIA GeForce RTX 4090)',
    )
    expect(error.details).toMatch(/could not select device driver "nvidia"/)
    expect(events).toEqual(['start c1', 'remove c1 force=true'])
  })

  test('a run that hangs is killed at the timeout', async () => {
    const { docker, events } = recordingDocker({ hang: true })
    await expect(benchmarkGpus({ docker, gpus: [rtx4090], timeoutMs: 50 })).rejects.toThrow(
      'n-body did not finish within 50 ms on GPU 0 (NVIDIA GeForce RTX 4090)',
    )
    expect(events).toEqual(['start c1', 'remove c1 force=true'])
  })

  test('image missing: pulled first; not pulled when pull is false; a failed pull is a typed error', async () => {
    const pulled = recordingDocker({ imagePresent: false, run: nbodyOk })
    await benchmarkGpus({ docker: pulled.docker, gpus: [rtx4090] })
    expect(pulled.pulls).toEqual([nbodyImage])
    expect(pulled.created).toHaveLength(1)

    const offline = recordingDocker({ imagePresent: false })
    await expect(benchmarkGpus({ docker: offline.docker, gpus: [rtx4090], pull: false })).rejects.toThrow(
      `The benchmark image ${nbodyImage} is not on this host`,
    )
    expect(offline.pulls).toEqual([])
    expect(offline.created).toEqual([])

    const failing = recordingDocker({
      imagePresent: false,
      pullStream: [
        '{"errorDetail":{"message":"dial tcp: lookup nvcr.io: no such host"},"error":"dial tcp: lookup nvcr.io: no such host"}',
      ],
    })
    const error = (await benchmarkGpus({ docker: failing.docker, gpus: [rtx4090] }).catch(
      (e: unknown) => e,
    )) as GpuBenchmarkError
    expect(error).toBeInstanceOf(GpuBenchmarkError)
    expect(error.shortMessage).toBe(`The benchmark image ${nbodyImage} could not be pulled`)
    expect(error.details).toBe('dial tcp: lookup nvcr.io: no such host')
    expect(error.metaMessages.join('\n')).toMatch(/docker load/)
  })
})

describe('demuxLogs', () => {
  test('stdout and stderr frames, in order', () => {
    expect(
      demuxLogs(Buffer.concat([dockerFrames('a\n'), dockerFrames('err\n', 2), dockerFrames('b\n')])),
    ).toBe('a\nerr\nb\n')
  })
  test('raw (TTY) output is kept as is; empty is empty', () => {
    expect(demuxLogs(Buffer.from('= 1.0 single-precision GFLOP/s\r\n'))).toBe(
      '= 1.0 single-precision GFLOP/s\r\n',
    )
    expect(demuxLogs(Buffer.alloc(0))).toBe('')
  })
})

describe('benchmarkGpus against the real Docker engine (no GPU here)', () => {
  const image = 'gridforge-hostbench-test:1'

  beforeAll(async () => {
    // FROM scratch + static busybox as `nbody`: enough for the engine to accept the container.
    const { readFile } = await import('node:fs/promises')
    const context = pack()
    context.entry({ name: 'Dockerfile' }, 'FROM scratch\nCOPY busybox /bin/nbody\n')
    context.entry({ name: 'busybox', mode: 0o755 }, await readFile('/bin/busybox'))
    context.finalize()
    const docker = new Docker()
    const stream = await docker.buildImage(Readable.from(context), { t: image })
    await new Promise((resolve, reject) =>
      docker.modem.followProgress(stream, (error: Error | null, output: unknown) =>
        error ? reject(error) : resolve(output),
      ),
    )
  }, 60_000)

  test('a dockerode client is a HostBenchDocker; the engine refuses the NVIDIA device request: typed error, nothing left behind', async () => {
    const docker: HostBenchDocker = new Docker()
    const error = (await benchmarkGpus({ docker, gpus: [rtx4090], image, pull: false }).catch(
      (e: unknown) => e,
    )) as GpuBenchmarkError
    expect(error).toBeInstanceOf(GpuBenchmarkError)
    // The engine accepts the create options (device request, no network, no capabilities) and refuses at start.
    expect(error.shortMessage).toBe(
      'The benchmark container could not start on GPU 0 (NVIDIA GeForce RTX 4090)',
    )
    expect(error.details).toMatch(
      /could not select device driver "nvidia" with capabilities: \[\[gpu compute utility\]\]/,
    )
    const left = await new Docker().listContainers({ all: true, filters: { label: [hostBenchmarkLabel] } })
    expect(left).toEqual([])
  })
})
