import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { docker, removeContainers } from '../../../test/docker.js'
import { buildTestImage, type TestImage } from '../../../test/images.js'
import { ImageUnavailableError } from '../../errors.js'
import { dockerRuntime } from '../dockerRuntime.js'
import { oneOffCreateOptions } from './runOneOff.js'

const label = `dev.gridforge.test-one-off=${randomUUID()}`
const [labelKey, labelValue] = label.split('=') as [string, string]
const runtime = dockerRuntime({ docker: docker() })
let image: TestImage

beforeAll(async () => {
  image = await buildTestImage({ tag: 'gridforge-test/busybox:runtime' })
})
afterAll(() => removeContainers(label))

const left = async () => (await docker().listContainers({ all: true, filters: { label: [label] } })).length

describe('runOneOff (the real engine)', () => {
  test('the create body: no network, no capabilities, GPUs only when asked, by id', () => {
    expect(oneOffCreateOptions({ image: 'tool:1', command: ['run'], timeoutMs: 1_000 })).toEqual({
      Image: 'tool:1',
      Cmd: ['run'],
      Labels: {},
      Tty: false,
      NetworkDisabled: true,
      HostConfig: {
        NetworkMode: 'none',
        CapDrop: ['ALL'],
        SecurityOpt: ['no-new-privileges'],
        Memory: 2 * 2 ** 30,
        PidsLimit: 256,
      },
    })
    expect(
      oneOffCreateOptions({ image: 'tool:1', command: [], gpus: ['GPU-1', '3'], timeoutMs: 1_000 }).HostConfig
        ?.DeviceRequests,
    ).toEqual([
      { Driver: 'nvidia', DeviceIDs: ['GPU-1', '3'], Capabilities: [['gpu', 'compute', 'utility']] },
    ])
  })

  test('stdout apart, stdout and stderr interleaved, the exit code; the container is removed', async () => {
    const result = await runtime.runOneOff({
      image: image.id,
      // Pauses: stdout and stderr are two pipes, ordered only by time.
      command: ['sh', '-c', 'echo one; sleep 0.2; echo oops >&2; sleep 0.2; echo two; exit 3'],
      labels: { [labelKey]: labelValue },
      timeoutMs: 30_000,
    })
    expect(result).toEqual({
      outcome: 'exited',
      exitCode: 3,
      stdout: 'one\ntwo\n',
      output: 'one\noops\ntwo\n',
    })
    expect(await left()).toBe(0)
  })

  test('killed at the timeout, with what it printed; removed', async () => {
    const result = await runtime.runOneOff({
      image: image.id,
      command: ['sh', '-c', 'echo started; sleep 60'],
      labels: { [labelKey]: labelValue },
      timeoutMs: 1_000,
    })
    expect(result).toEqual({
      outcome: 'timeout',
      exitCode: undefined,
      stdout: 'started\n',
      output: 'started\n',
      reason: 'killed after 1000 ms',
    })
    expect(await left()).toBe(0)
  })

  test('an executable that does not exist: failedToStart with the engine message; removed', async () => {
    const result = await runtime.runOneOff({
      image: image.id,
      command: ['/no/such/tool'],
      labels: { [labelKey]: labelValue },
      timeoutMs: 30_000,
    })
    expect(result).toMatchObject({ outcome: 'failedToStart', exitCode: undefined })
    expect(result.reason).toMatch(/no such file or directory/)
    expect(await left()).toBe(0)
  })

  test('an image that is not here, with pulling off: ImageUnavailableError, nothing created', async () => {
    const error = await runtime
      .runOneOff({ image: 'gridforge-test/absent:1', pull: false, command: ['x'], timeoutMs: 1_000 })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ImageUnavailableError)
    expect((error as ImageUnavailableError).details).toBe('not on this host, and pulling is off')
  })
})
