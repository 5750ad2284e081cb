import type Docker from 'dockerode'
import { ContainerEngineError } from '../../errors.js'
import type { Logger } from '../../logger.js'
import type { Clock } from '../clock.js'
import { LogBuffer } from '../logBuffer.js'
import { demuxLogStream } from './demuxLogStream.js'
import { engineMessage, statusCode } from './engineResponse.js'
import { ensureImage } from './images.js'

/**
 * A one-off container that is not a task: a tool the provider kit runs on
 * this host, e.g. the GPU benchmark's CUDA n-body sample.
 */
export interface OneOffRunSpec {
  /** Image reference; a tag is fine (the operator chose the tool, no source pins it). */
  image: string
  /** Pull the image when the engine does not have it (default true). */
  pull?: boolean | undefined
  /** Arguments replacing the image's CMD; its ENTRYPOINT stays, as with `docker run <image> <args…>`. */
  command: readonly string[]
  /**
   * GPUs by UUID (or index), given through a device request to the NVIDIA
   * driver with the `compute` and `utility` capabilities (CUDA and
   * nvidia-smi); none by default.
   */
  gpus?: readonly string[] | undefined
  /** Labels on the container, so a leftover one can be found. */
  labels?: Readonly<Record<string, string>> | undefined
  /** Memory limit, bytes (default 2 GiB). */
  memoryBytes?: number | undefined
  /** Most processes (default 256). */
  pids?: number | undefined
  /** Killed after this many milliseconds (`timeout`). */
  timeoutMs: number
  /** Output kept, bytes (default 1 MiB); the rest is dropped. */
  maxOutputBytes?: number | undefined
  /** Aborting kills the container (`aborted`). */
  signal?: AbortSignal | undefined
}

export interface OneOffRunResult {
  /** `exited` by itself, killed at the `timeout` or because the signal `aborted`, or `failedToStart`. */
  outcome: 'exited' | 'timeout' | 'aborted' | 'failedToStart'
  /** The command's exit code when it `exited`. */
  exitCode: number | undefined
  /** What it wrote on stdout. */
  stdout: string
  /** stdout and stderr interleaved, as they came. */
  output: string
  /** Why, when the outcome is not `exited` (the engine's message when it failed to start). */
  reason?: string | undefined
}

/** Docker's `CreateContainer` body for a one-off run: no network, no capabilities, no privilege escalation. */
export function oneOffCreateOptions(spec: OneOffRunSpec): Docker.ContainerCreateOptions {
  const gpus = spec.gpus ?? []
  return {
    Image: spec.image,
    Cmd: [...spec.command],
    Labels: { ...spec.labels },
    Tty: false,
    NetworkDisabled: true,
    HostConfig: {
      // Pinned by id, never `Count: -1` (all GPUs): what `docker run --gpus device=…` sends, plus the driver capabilities.
      ...(gpus.length > 0
        ? {
            DeviceRequests: [
              { Driver: 'nvidia', DeviceIDs: [...gpus], Capabilities: [['gpu', 'compute', 'utility']] },
            ],
          }
        : {}),
      NetworkMode: 'none',
      CapDrop: ['ALL'],
      SecurityOpt: ['no-new-privileges'],
      Memory: spec.memoryBytes ?? 2 * 2 ** 30,
      PidsLimit: spec.pids ?? 256,
    },
  }
}

export interface RunOneOffOptions {
  clock: Clock
  logger: Logger
  pullTimeoutMs: number
}

/**
 * Runs a one-off container to its end and collects its output; the container
 * is removed in every case. Throws `ImageUnavailableError` when the image is
 * missing and cannot be pulled, `ContainerEngineError` when the engine does
 * not answer; what the container did is the result's outcome.
 */
export async function runOneOff(
  docker: Docker,
  spec: OneOffRunSpec,
  { clock, logger, pullTimeoutMs }: RunOneOffOptions,
): Promise<OneOffRunResult> {
  await ensureImage(docker, spec.image, {
    pull: spec.pull ?? true,
    timeoutMs: pullTimeoutMs,
    signal: spec.signal,
  })
  const failedToStart = (error: unknown): OneOffRunResult => {
    // An HTTP answer means the engine refused this container (no NVIDIA runtime, no such GPU…).
    if (statusCode(error) === undefined)
      throw new ContainerEngineError('The Docker engine did not answer', { cause: error })
    return {
      outcome: 'failedToStart',
      exitCode: undefined,
      stdout: '',
      output: '',
      reason: engineMessage(error),
    }
  }
  let container: Docker.Container
  try {
    container = await docker.createContainer(oneOffCreateOptions(spec))
  } catch (error) {
    return failedToStart(error)
  }
  try {
    try {
      await container.start()
    } catch (error) {
      return failedToStart(error)
    }
    let killed: { outcome: 'timeout' | 'aborted'; reason: string } | undefined
    let onKilled: () => void = () => {}
    const killedPromise = new Promise<undefined>((resolve) => {
      onKilled = () => resolve(undefined)
    })
    const kill = (why: NonNullable<typeof killed>) => {
      if (killed !== undefined) return
      killed = why
      logger.info('killing one-off container', { containerId: container.id, ...why })
      // Whether or not the kill lands, stop waiting: the removal below forces it.
      container.kill().then(onKilled, onKilled)
    }
    const cancelTimeout = clock.setTimeout(
      () => kill({ outcome: 'timeout', reason: `killed after ${spec.timeoutMs} ms` }),
      spec.timeoutMs,
    )
    const onAbort = () => kill({ outcome: 'aborted', reason: 'aborted' })
    spec.signal?.addEventListener('abort', onAbort, { once: true })
    if (spec.signal?.aborted) onAbort()
    const waiting = container.wait() as Promise<{ StatusCode: number }>
    // Once killed, the wait may settle after this function has moved on.
    waiting.catch(() => {})
    let exited: { StatusCode: number } | undefined
    try {
      exited = await Promise.race([waiting, killedPromise])
    } catch (error) {
      throw new ContainerEngineError(`Lost track of container ${container.id}`, { cause: error })
    } finally {
      cancelTimeout()
      spec.signal?.removeEventListener('abort', onAbort)
    }

    const maxOutputBytes = spec.maxOutputBytes ?? 2 ** 20
    const stdout = new LogBuffer(maxOutputBytes)
    const output = new LogBuffer(maxOutputBytes)
    try {
      const logs = (await container.logs({ stdout: true, stderr: true, follow: false })) as Uint8Array
      demuxLogStream((stream, payload) => {
        output.append(payload)
        if (stream === 'stdout') stdout.append(payload)
      })(logs)
    } catch (error) {
      logger.warn('could not read the logs of a one-off container', { containerId: container.id, error })
    }
    const text = (buffer: LogBuffer) => new TextDecoder().decode(buffer.bytes())
    if (killed !== undefined)
      return { ...killed, exitCode: undefined, stdout: text(stdout), output: text(output) }
    return { outcome: 'exited', exitCode: exited?.StatusCode, stdout: text(stdout), output: text(output) }
  } finally {
    // Force: kills it if it still runs. A failed removal must not hide the result or the first error.
    await container.remove({ force: true, v: true }).catch((error: unknown) => {
      if (statusCode(error) !== 404)
        logger.warn('could not remove a one-off container', { containerId: container.id, error })
    })
  }
}
