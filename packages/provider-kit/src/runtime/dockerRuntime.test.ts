import { randomUUID } from 'node:crypto'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type Docker from 'dockerode'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { docker, removeContainers } from '../../test/docker.js'
import { buildTestImage, type TestImage } from '../../test/images.js'
import { ContainerEngineError, ImageDigestMismatchError, ImageUnavailableError } from '../errors.js'
import { containerLabels, type RunResult, type RunSpec } from './ContainerRuntime.js'
import type { Clock } from './clock.js'
import { createOptions, dockerRuntime, imageDigests } from './dockerRuntime.js'

const owner = `test-docker-runtime-${randomUUID()}`
const ownerLabel = `${containerLabels.owner}=${owner}`
const runtime = dockerRuntime({ docker: docker(), pollIntervalMs: 50 })
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes)
const mib = 1 << 20

let image: TestImage
let entrypointImage: TestImage
let root: string
let taskIds = 0n

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'gridforge-docker-runtime-'))
  image = await buildTestImage({ tag: 'gridforge-test/busybox:runtime' })
  entrypointImage = await buildTestImage({
    tag: 'gridforge-test/busybox:entrypoint',
    entrypoint: ['echo', 'image-entrypoint'],
    cmd: ['image-cmd'],
  })
})

afterAll(async () => {
  await removeContainers(ownerLabel)
  await rm(root, { recursive: true, force: true })
})

/** A task spec with its own input (`/in/greeting`) and empty output directories. */
async function spec(
  overrides: Omit<Partial<RunSpec>, 'limits'> & { limits?: Partial<RunSpec['limits']> } = {},
): Promise<RunSpec> {
  const taskId = ++taskIds
  const inputDir = path.join(root, `${taskId}`, 'input')
  const outputDir = path.join(root, `${taskId}`, 'output')
  await mkdir(inputDir, { recursive: true })
  await mkdir(outputDir, { recursive: true })
  await writeFile(path.join(inputDir, 'greeting'), 'hello from the input\n')
  return {
    owner,
    taskId,
    slot: 0,
    image: image.id,
    command: ['sh', '-c', 'true'],
    env: { GRIDFORGE_INPUT_DIR: '/in', GRIDFORGE_OUTPUT_DIR: '/out' },
    inputDir,
    inputPath: '/in',
    outputDir,
    outputPath: '/out',
    gpus: [],
    network: 'none',
    deadline: new Date(Date.now() + 30_000),
    ...overrides,
    limits: {
      memoryBytes: 64 * mib,
      cpus: 0.5,
      pids: 32,
      tmpBytes: mib,
      maxOutputBytes: mib,
      maxLogBytes: 64 * 1024,
      ...overrides.limits,
    },
  }
}

const inspect = (result: RunResult) => docker().getContainer(result.containerId).inspect()

describe('prepareImage', () => {
  test('accepts a local image whose Id is the on-chain digest, found by Id or by tag', async () => {
    for (const reference of [image.ref, `gridforge-test/busybox@sha256:${image.digest.slice(2)}`]) {
      const prepared = await runtime.prepareImage({
        image: reference,
        imageDigest: image.digest,
        pull: false,
      })
      expect(prepared).toEqual({ ref: image.id, digest: image.digest })
    }
  })

  test('refuses a local image found by tag whose digest differs', async () => {
    // A digest no local image has: the tag is found, and its content is not the pinned one.
    const error = await runtime
      .prepareImage({ image: image.ref, imageDigest: `0x${'ef'.repeat(32)}` })
      .catch((error: unknown) => error)
    expect(error).toBeInstanceOf(ImageDigestMismatchError)
    expect((error as ImageDigestMismatchError).actual).toContain(image.id)
  })

  test('uses any local image with the pinned content, whatever its tag', async () => {
    const prepared = await runtime.prepareImage({ image: image.ref, imageDigest: entrypointImage.digest })
    expect(prepared.ref).toBe(entrypointImage.id)
  })

  test('refuses a reference that pins another digest than the chain, before looking anything up', async () => {
    await expect(
      runtime.prepareImage({
        image: `gridforge-test/busybox@sha256:${entrypointImage.digest.slice(2)}`,
        imageDigest: image.digest,
      }),
    ).rejects.toBeInstanceOf(ImageDigestMismatchError)
  })

  test('an image that is not here and cannot be pulled is ImageUnavailableError', async () => {
    const missing = `0x${'ab'.repeat(32)}` as const
    // Nothing listens on port 9: the pull fails at once instead of waiting on DNS.
    await expect(
      runtime.prepareImage({ image: '127.0.0.1:9/gridforge/missing:1', imageDigest: missing }),
    ).rejects.toBeInstanceOf(ImageUnavailableError)
    await expect(
      runtime.prepareImage({ image: 'gridforge-test/missing:1', imageDigest: missing, pull: false }),
    ).rejects.toBeInstanceOf(ImageUnavailableError)
  }, 20_000)

  test('a RepoDigest (manifest digest) or the Id (config digest) both identify the image', () => {
    const manifest = 'cd'.repeat(32)
    const digests = imageDigests({ Id: image.id, RepoDigests: [`ghcr.io/acme/app@sha256:${manifest}`] })
    expect(digests).toEqual([image.id, `sha256:${manifest}`])
  })
})

describe('run', () => {
  test('isolates the task and collects its output, exit code and logs', async () => {
    const task = await spec({
      command: [
        'sh',
        '-c',
        [
          'cat /in/greeting',
          'echo tampered > /in/greeting || echo input-read-only',
          'echo x > /rootfs-file || echo rootfs-read-only',
          'echo x > /tmp/scratch && echo tmp-writable',
          '/tmp/scratch 2>/dev/null || echo tmp-noexec',
          'head -c 2000000 /dev/zero > /tmp/big 2>/dev/null || echo tmp-full',
          // The cgroup limits as the kernel holds them (cgroup v2 file, else v1).
          'echo "cpu $(cat /sys/fs/cgroup/cpu.max 2>/dev/null || cat /sys/fs/cgroup/cpu/cpu.cfs_quota_us)"',
          'echo "memory $(cat /sys/fs/cgroup/memory.max 2>/dev/null || cat /sys/fs/cgroup/memory/memory.limit_in_bytes)"',
          'echo "pids $(cat /sys/fs/cgroup/pids.max 2>/dev/null || cat /sys/fs/cgroup/pids/pids.max)"',
          'cat /proc/net/dev',
          'grep -E "^(CapEff|NoNewPrivs):" /proc/self/status',
          'echo "$GRIDFORGE_OUTPUT_DIR" > /out/result',
          'exit 3',
        ].join('\n'),
      ],
    })
    const result = await runtime.run(task)
    const logs = text(result.logs)

    expect(result).toMatchObject({ outcome: 'exited', exitCode: 3, logsTruncated: false })
    expect(logs).toContain('hello from the input')
    expect(logs).toContain('input-read-only')
    expect(logs).toContain('rootfs-read-only')
    expect(logs).toContain('tmp-writable')
    expect(logs).toContain('tmp-noexec')
    expect(logs).toContain('tmp-full')
    expect(logs).toMatch(/^cpu 50000( 100000)?$/m)
    expect(logs).toMatch(new RegExp(`^memory ${64 * mib}$`, 'm'))
    expect(logs).toMatch(/^pids 32$/m)
    // No network interface but loopback: /proc/net/dev has two header lines then one per interface.
    const interfaces = logs
      .split('\n')
      .filter((line) => /^\s*[\w.-]+:(\s+\d+){16}\s*$/.test(line))
      .map((line) => line.trim().split(':')[0])
    expect(interfaces).toEqual(['lo'])
    expect(logs).toMatch(/CapEff:\s+0000000000000000/)
    expect(logs).toMatch(/NoNewPrivs:\s+1/)
    expect(await readFile(path.join(task.inputDir, 'greeting'), 'utf8')).toBe('hello from the input\n')
    expect(await readFile(path.join(task.outputDir, 'result'), 'utf8')).toBe('/out\n')
    expect(result.startedAt.getTime()).toBeLessThanOrEqual(result.finishedAt.getTime())

    const info = await inspect(result)
    expect(info.State.Running).toBe(false) // and not removed: the agent removes it
    expect(info.Config.Labels).toMatchObject({
      [containerLabels.owner]: owner,
      [containerLabels.taskId]: task.taskId.toString(),
      [containerLabels.slot]: '0',
    })
    expect(info.HostConfig).toMatchObject({
      NetworkMode: 'none',
      Memory: 64 * mib,
      MemorySwap: 64 * mib,
      NanoCpus: 500_000_000,
      PidsLimit: 32,
      ReadonlyRootfs: true,
      Tmpfs: { '/tmp': `rw,noexec,nosuid,size=${mib}` },
      CapDrop: ['ALL'],
      SecurityOpt: ['no-new-privileges'],
      AutoRemove: false,
      LogConfig: { Type: 'json-file', Config: { 'max-size': String(mib), 'max-file': '2' } },
    })
    expect(info.HostConfig.DeviceRequests ?? []).toEqual([])
    expect(info.Mounts).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ Source: task.inputDir, Destination: '/in', RW: false }),
        expect.objectContaining({ Source: task.outputDir, Destination: '/out', RW: true }),
      ]),
    )
    expect(new Date(info.State.StartedAt)).toEqual(result.startedAt)
    expect(new Date(info.State.FinishedAt)).toEqual(result.finishedAt)
  })

  test('the command replaces the image entrypoint and cmd; without one the image runs its own', async () => {
    const own = await runtime.run(await spec({ image: entrypointImage.id, command: undefined }))
    expect(text(own.logs)).toBe('image-entrypoint image-cmd\n')
    const replaced = await runtime.run(await spec({ image: entrypointImage.id, command: ['echo', 'mine'] }))
    expect(text(replaced.logs)).toBe('mine\n')
  })

  test('stdout and stderr are interleaved in the order they came', async () => {
    const result = await runtime.run(
      await spec({ command: ['sh', '-c', 'echo one; sleep 0.2; echo two >&2; sleep 0.2; echo three'] }),
    )
    expect(text(result.logs)).toBe('one\ntwo\nthree\n')
  })

  test('egress gets the default bridge', async () => {
    const result = await runtime.run(await spec({ network: 'egress', command: ['cat', '/proc/net/dev'] }))
    expect(text(result.logs)).toMatch(/^\s*eth0:/m)
    expect((await inspect(result)).HostConfig.NetworkMode).toBe('bridge')
  })

  test('a fork bomb hits the pids limit', async () => {
    const result = await runtime.run(
      await spec({
        command: ['sh', '-c', 'for i in $(seq 1 64); do sleep 5 & done; echo spawned'],
        limits: { pids: 16 },
      }),
    )
    expect(text(result.logs)).toContain("can't fork")
  })

  test('a task over its memory limit is oom', async () => {
    const result = await runtime.run(
      await spec({
        command: ['sh', '-c', 'x=$(head -c 200000000 /dev/zero | tr "\\0" a); echo survived'],
        limits: { memoryBytes: 16 * mib },
      }),
    )
    expect(result).toMatchObject({ outcome: 'oom', exitCode: undefined })
    expect(text(result.logs)).not.toContain('survived')
  })

  test('killed at the deadline: timeout', async () => {
    const result = await runtime.run(
      await spec({ command: ['sleep', '60'], deadline: new Date(Date.now() + 1_500) }),
    )
    expect(result).toMatchObject({ outcome: 'timeout', exitCode: undefined })
    expect((await inspect(result)).State.Running).toBe(false)
  })

  test('an output bomb is killed: outputTooLarge', async () => {
    const task = await spec({
      command: ['sh', '-c', 'while true; do head -c 65536 /dev/zero >> /out/bomb; done'],
      limits: { maxOutputBytes: mib },
    })
    const result = await runtime.run(task)
    expect(result).toMatchObject({ outcome: 'outputTooLarge', exitCode: undefined })
    expect((await inspect(result)).State.Running).toBe(false)
  })

  test('output over the limit written between two polls is caught after the exit', async () => {
    // A clock whose timers never fire: no measurement while it runs, only the one after the exit.
    const stopped: Clock = { now: () => Date.now(), setTimeout: () => () => {} }
    const slow = dockerRuntime({ docker: docker(), clock: stopped })
    const result = await slow.run(
      await spec({
        command: ['sh', '-c', 'head -c 2000000 /dev/zero > /out/big'],
        limits: { maxOutputBytes: mib },
      }),
    )
    expect(result).toMatchObject({ outcome: 'outputTooLarge', exitCode: 0 })
  })

  test('logs are capped at maxLogBytes', async () => {
    const result = await runtime.run(
      await spec({
        command: ['sh', '-c', 'head -c 1000000 /dev/zero | tr "\\0" a; echo; echo done'],
        limits: { maxLogBytes: 10 * 1024 },
      }),
    )
    expect(result).toMatchObject({ outcome: 'exited', exitCode: 0, logsTruncated: true })
    expect(result.logs.length).toBe(10 * 1024)
    expect(text(result.logs)).toBe('a'.repeat(10 * 1024))
  })

  test('aborting kills the container: aborted', async () => {
    const controller = new AbortController()
    const running = runtime.run(await spec({ command: ['sleep', '60'], signal: controller.signal }))
    setTimeout(() => controller.abort(new Error('agent stopping')), 300)
    const result = await running
    expect(result).toMatchObject({
      outcome: 'aborted',
      exitCode: undefined,
      reason: 'aborted: agent stopping',
    })
    expect((await inspect(result)).State.Running).toBe(false)

    const early = await runtime.run(await spec({ signal: AbortSignal.abort() }))
    expect(early).toMatchObject({ outcome: 'aborted', containerId: '' })
  })

  test('an executable that does not exist: failedToStart with exit code 127, the reason as its log', async () => {
    const result = await runtime.run(await spec({ command: ['/no/such/executable'] }))
    expect(result.outcome).toBe('failedToStart')
    expect(result.exitCode).toBe(127)
    expect(result.containerId).not.toBe('')
    expect(result.reason).toMatch(/no such file|not found/i)
    expect(new TextDecoder().decode(result.logs)).toBe(`${result.reason}\n`)
  })

  test('limits Docker would read as "unlimited" are refused before anything is created', async () => {
    const result = await runtime.run(await spec({ limits: { pids: 0 } }))
    expect(result).toMatchObject({ outcome: 'failedToStart', containerId: '' })
    expect(result.reason).toContain('pids')
  })

  test('GPUs are pinned by DeviceRequests; no NVIDIA runtime here: failedToStart', async () => {
    const result = await runtime.run(await spec({ gpus: ['GPU-abc'] }))
    expect(result.outcome).toBe('failedToStart')
    expect(result.exitCode).toBeUndefined()
    expect(result.reason).toMatch(/nvidia/i)
    const requests = (await inspect(result)).HostConfig.DeviceRequests
    expect(requests).toEqual([
      expect.objectContaining({ Driver: 'nvidia', DeviceIDs: ['GPU-abc'], Capabilities: [['gpu']] }),
    ])
    expect(requests?.[0]?.Count ?? 0).toBe(0) // never -1: all GPUs
  })

  test('removeAfterRun removes the container once collected', async () => {
    const removing = dockerRuntime({ docker: docker(), removeAfterRun: true })
    const result = await removing.run(await spec({ command: ['echo', 'gone'] }))
    expect(text(result.logs)).toBe('gone\n')
    await expect(inspect(result)).rejects.toMatchObject({ statusCode: 404 })
  })
})

describe('recovery after a crash', () => {
  /** Starts a container as the runtime would, and leaves it: the agent "crashed". */
  async function startOrphan(task: RunSpec): Promise<Docker.Container> {
    const container = await docker().createContainer(createOptions(task, { init: false }))
    await container.start()
    return container
  }

  test('listTaskContainers finds a running orphan and attach waits for it, logs from the start', async () => {
    const task = await spec({
      slot: 2,
      command: ['sh', '-c', 'echo before-attach; sleep 1.5; echo finished > /out/result; echo after-attach'],
    })
    const container = await startOrphan(task)

    const found = await runtime.listTaskContainers(owner)
    expect(found).toContainEqual({
      containerId: container.id,
      owner,
      taskId: task.taskId,
      slot: 2,
      running: true,
    })
    expect(await runtime.listTaskContainers(`${owner}-other`)).toEqual([])

    const result = await runtime.attach(container.id, task)
    expect(result).toMatchObject({ containerId: container.id, outcome: 'exited', exitCode: 0 })
    expect(text(result.logs)).toBe('before-attach\nafter-attach\n')
    expect(await readFile(path.join(task.outputDir, 'result'), 'utf8')).toBe('finished\n')
  })

  test('attach to a running orphan still enforces the deadline', async () => {
    const task = await spec({ command: ['sleep', '60'], deadline: new Date(Date.now() + 1_000) })
    const container = await startOrphan(task)
    const result = await runtime.attach(container.id, task)
    expect(result.outcome).toBe('timeout')
    expect((await container.inspect()).State.Running).toBe(false)
  })

  test('attach to a stopped container collects it at once', async () => {
    const task = await spec({ command: ['sh', '-c', 'echo done > /out/result; echo logged; exit 7'] })
    const container = await startOrphan(task)
    await container.wait()
    expect(await runtime.listTaskContainers(owner)).toContainEqual(
      expect.objectContaining({ containerId: container.id, running: false }),
    )

    const result = await runtime.attach(container.id, task)
    expect(result).toMatchObject({ outcome: 'exited', exitCode: 7, logsTruncated: false })
    expect(text(result.logs)).toBe('logged\n')

    // Same container, but it finished after the spec's deadline: late, whatever it exited with.
    const late = await runtime.attach(container.id, { ...task, deadline: new Date(Date.now() - 60_000) })
    expect(late.outcome).toBe('timeout')
  })

  test('attach refuses a container of another task, and one that never started is failedToStart', async () => {
    const task = await spec()
    const created = await docker().createContainer(createOptions(task, { init: false }))
    await expect(runtime.attach(created.id, { ...task, taskId: task.taskId + 1000n })).rejects.toBeInstanceOf(
      ContainerEngineError,
    )
    const result = await runtime.attach(created.id, task)
    expect(result).toMatchObject({ containerId: created.id, outcome: 'failedToStart' })
  })

  test('remove kills and removes, and is idempotent', async () => {
    const task = await spec({ command: ['sleep', '60'] })
    const container = await startOrphan(task)
    await runtime.remove(container.id)
    await runtime.remove(container.id)
    await runtime.remove('0'.repeat(64))
    await expect(container.inspect()).rejects.toMatchObject({ statusCode: 404 })
    expect((await runtime.listTaskContainers(owner)).map((found) => found.containerId)).not.toContain(
      container.id,
    )
  })
})
