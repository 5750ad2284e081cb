import { chmod } from 'node:fs/promises'
import type Docker from 'dockerode'
import type { Hex } from 'viem'
import { ContainerEngineError, ImageDigestMismatchError, ImageUnavailableError } from '../errors.js'
import { type Logger, silentLogger } from '../logger.js'
import {
  type ContainerRuntime,
  containerLabels,
  type PreparedImage,
  type PrepareImageParameters,
  type RunResult,
  type RunSpec,
  type TaskContainer,
} from './ContainerRuntime.js'
import { type Clock, sleep, systemClock } from './clock.js'
import { demuxLogStream } from './docker/demuxLogStream.js'
import { dockerClient } from './docker/dockerClient.js'
import { commandExitCode, engineMessage, statusCode } from './docker/engineResponse.js'
import { parseImageReference } from './docker/imageReference.js'
import { inspectImage, pullImage } from './docker/images.js'
import { type OneOffRunResult, type OneOffRunSpec, runOneOff } from './docker/runOneOff.js'
import { LogBuffer } from './logBuffer.js'
import { checkOutputSize, type Kill, watchRun } from './runWatch.js'
import { invalidLimits } from './validateLimits.js'

export interface DockerRuntimeOptions {
  /** The engine client (default {@link dockerClient}`()`: `DOCKER_HOST` or `/var/run/docker.sock`). */
  docker?: Docker | undefined
  /**
   * Longest gap in milliseconds between two measurements of a running task's
   * output directory (default 500); they come faster as it nears the cap (see `watchRun`).
   */
  pollIntervalMs?: number | undefined
  /** Deadline and poll timers (default {@link systemClock}). */
  clock?: Clock | undefined
  logger?: Logger | undefined
  /**
   * Run Docker's init (tini) as PID 1 (default false). It reaps zombies a
   * task's own PID 1 leaves, but it also starts when the task's executable
   * does not exist, turning `failedToStart` into `exited` with code 127; and
   * the kill at the deadline or on abort is a SIGKILL of the whole container
   * either way.
   */
  init?: boolean | undefined
  /** Give up a pull after this many milliseconds (default 30 minutes: CUDA images are large). */
  pullTimeoutMs?: number | undefined
  /**
   * Remove each container once {@link ContainerRuntime.run} has collected it
   * (default false). The agent keeps it until the result is journaled, so a
   * crash in between can still {@link ContainerRuntime.attach} to it, then
   * calls {@link ContainerRuntime.remove}.
   */
  removeAfterRun?: boolean | undefined
}

/**
 * The Docker runtime: a {@link ContainerRuntime} that also runs the provider
 * kit's own one-off containers, so that everything the kit asks of Docker
 * goes through this module.
 */
export interface DockerRuntime extends ContainerRuntime {
  readonly kind: 'docker'
  /**
   * Runs a one-off container that is not a task (the GPU benchmark's n-body
   * sample) to its end, returns what it printed and removes it. Throws
   * `ImageUnavailableError` when the image is missing and cannot be pulled;
   * a container the engine refuses (e.g. no NVIDIA runtime for its GPUs) is
   * the `failedToStart` outcome.
   *
   * @example
   * const smi = await dockerRuntime().runOneOff({
   *   image: 'nvidia/cuda:12.4.1-base-ubuntu22.04',
   *   command: ['nvidia-smi', '-L'],
   *   gpus: ['GPU-80571715-6852-1950-234e-f5058fc16ddb'],
   *   timeoutMs: 60_000,
   * })
   * if (smi.outcome === 'exited' && smi.exitCode === 0) console.log(smi.stdout)
   */
  runOneOff(spec: OneOffRunSpec): Promise<OneOffRunResult>
}

/**
 * The Docker implementation of {@link ContainerRuntime}: every task runs in a
 * fresh container, pinned to the image digest the source publishes on chain,
 * with no network (unless the source asks for egress), memory, CPU and pids
 * limits, a read-only root, every capability dropped, no-new-privileges, its
 * input mounted read-only and its output directory mounted read-write, its
 * GPUs pinned by id through `DeviceRequests`, and a hard deadline.
 *
 * Containers are labelled with {@link containerLabels} and are not removed by
 * `run()` (see {@link DockerRuntimeOptions.removeAfterRun}).
 *
 * @example
 * import { dockerRuntime } from '@gridforge/provider-kit'
 *
 * await using runtime = dockerRuntime()
 * const image = await runtime.prepareImage({ image: 'ghcr.io/acme/upscale@sha256:…', imageDigest: '0x…' })
 * const result = await runtime.run({ ...spec, image: image.ref })
 * if (result.outcome === 'exited' && result.exitCode === 0) collect(spec.outputDir)
 * await runtime.remove(result.containerId)
 */
export function dockerRuntime(options: DockerRuntimeOptions = {}): DockerRuntime {
  const docker = options.docker ?? dockerClient()
  const clock = options.clock ?? systemClock
  const logger = options.logger ?? silentLogger
  const pollIntervalMs = options.pollIntervalMs ?? 500
  const init = options.init ?? false
  const pullTimeoutMs = options.pullTimeoutMs ?? 30 * 60_000

  async function prepareImage({
    image,
    imageDigest,
    pull: mayPull = true,
    signal,
  }: PrepareImageParameters): Promise<PreparedImage> {
    const expected = imageDigest.replace(/^0x/, '').toLowerCase()
    const reference = parseImageReference(image)
    if (reference === undefined || !/^[0-9a-f]{64}$/.test(expected)) {
      throw new ImageUnavailableError({
        image,
        cause: new Error(`not an image reference pinned by a sha256 digest (imageDigest ${imageDigest})`),
      })
    }
    // The metadata (off chain) pins one image, the chain another: neither can be trusted.
    if (reference.digest !== undefined && reference.digest !== expected) {
      throw new ImageDigestMismatchError({
        image,
        expected: imageDigest,
        actual: [`sha256:${reference.digest}`],
      })
    }
    const pinned = `${reference.repository}@sha256:${expected}`

    const found =
      // By content id: an image built or loaded on this host, never pushed.
      (await inspectImage(docker, `sha256:${expected}`)) ??
      // By manifest digest: an image pulled (or pushed) by digest.
      (await inspectImage(docker, pinned))
    if (found !== undefined) return prepared(image, imageDigest, found)

    // Only a tag: a local image under that tag must be the pinned one. It is
    // refused rather than pulled over, since someone retagged it on this host.
    if (reference.digest === undefined) {
      const tagged = await inspectImage(docker, `${reference.repository}:${reference.tag ?? 'latest'}`)
      if (tagged !== undefined) return prepared(image, imageDigest, tagged)
    }

    if (!mayPull)
      throw new ImageUnavailableError({ image, cause: new Error('not on this host, and pulling is off') })
    logger.info('pulling image', { image: pinned })
    try {
      // Always by digest, never by tag: the registry cannot substitute content.
      await pullImage(docker, pinned, { timeoutMs: pullTimeoutMs, signal })
    } catch (error) {
      throw new ImageUnavailableError({ image, cause: error })
    }
    const pulled = await inspectImage(docker, pinned)
    if (pulled === undefined)
      throw new ImageUnavailableError({ image, cause: new Error(`${pinned} is missing after the pull`) })
    logger.info('pulled image', { image: pinned, id: pulled.Id })
    return prepared(image, imageDigest, pulled)
  }

  async function killContainer(container: Docker.Container, kill: Kill): Promise<void> {
    logger.info('killing container', {
      containerId: container.id,
      outcome: kill.outcome,
      reason: kill.reason,
    })
    try {
      await container.kill()
    } catch (error) {
      // 404: gone; 409: not running (it exited as we killed it).
      const code = statusCode(error)
      if (code !== 404 && code !== 409)
        logger.error('could not kill container', { containerId: container.id, error })
    }
  }

  /**
   * Follows a started container to its end and collects it. `watch: false`
   * for a container that had already stopped: there is nothing to kill, and
   * whether it ran past its deadline is read from its finish time.
   */
  async function collect(container: Docker.Container, spec: RunSpec, watch: boolean): Promise<RunResult> {
    const logs = new LogBuffer(spec.limits.maxLogBytes)
    // Watching starts before the log request: the task runs (and may write) already.
    const watchdog = watch
      ? watchRun({ spec, clock, pollIntervalMs, logger, kill: (kill) => void killContainer(container, kill) })
      : undefined
    let logStream: NodeJS.ReadableStream
    try {
      // From the start of the container's log, whenever this is called: an
      // attach after a crash gets the lines printed before it.
      logStream = await container.logs({ follow: true, stdout: true, stderr: true })
    } catch (error) {
      watchdog?.stop()
      throw engineError(`Could not follow the logs of container ${container.id}`, error)
    }
    const destroyLogStream = () => (logStream as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.()
    const logsEnded = new Promise<void>((resolve) => {
      const push = demuxLogStream((_stream, payload) => {
        logs.append(payload)
        // The cap is reached: stop reading, the rest would be dropped anyway.
        if (logs.truncated) destroyLogStream()
      })
      logStream.on('data', (chunk: Uint8Array) => push(chunk))
      logStream.on('end', () => resolve())
      logStream.on('close', () => resolve())
      logStream.on('error', (error) => {
        logger.warn('log stream failed', { containerId: container.id, error })
        resolve()
      })
    })

    try {
      await container.wait()
    } catch (error) {
      destroyLogStream()
      throw engineError(`Lost track of container ${container.id}`, error)
    } finally {
      watchdog?.stop()
    }
    // The log stream ends right after the container; bound the wait anyway.
    const ended = await Promise.race([logsEnded.then(() => true), sleep(clock, 10_000).then(() => false)])
    if (!ended) destroyLogStream()

    let killed = watchdog?.killed
    if (killed === undefined) {
      try {
        killed = await checkOutputSize(spec)
      } catch (error) {
        logger.warn('could not measure the output directory', { outputDir: spec.outputDir, error })
      }
    }

    let info: Docker.ContainerInspectInfo
    try {
      info = await container.inspect()
    } catch (error) {
      throw engineError(`Could not inspect container ${container.id}`, error)
    }
    const state = info.State
    const startedAt = dockerTime(state.StartedAt) ?? new Date(clock.now())
    const finishedAt = dockerTime(state.FinishedAt) ?? new Date(clock.now())
    const base = {
      containerId: container.id,
      startedAt,
      finishedAt,
      logs: logs.bytes(),
      logsTruncated: logs.truncated,
    }

    if (killed !== undefined) {
      // Killed by a watchdog, or (output checked after the exit) exited by itself with too much output.
      return {
        ...base,
        outcome: killed.outcome,
        exitCode: watchdog?.killed ? undefined : state.ExitCode,
        reason: killed.reason,
      }
    }
    if (state.OOMKilled) {
      return {
        ...base,
        outcome: 'oom',
        exitCode: undefined,
        reason: `killed by the kernel for using more than ${spec.limits.memoryBytes} bytes of memory`,
      }
    }
    if (!watch && finishedAt.getTime() > spec.deadline.getTime()) {
      // Stopped while nobody watched: a result finished after the deadline is late, however it ended.
      return {
        ...base,
        outcome: 'timeout',
        exitCode: undefined,
        reason: `finished at ${finishedAt.toISOString()}, after the deadline ${spec.deadline.toISOString()}`,
      }
    }
    return { ...base, outcome: 'exited', exitCode: state.ExitCode }
  }

  function notStarted(containerId: string, error: unknown, fallbackTime: number): RunResult {
    // An HTTP answer means the engine refused this container (no such image,
    // executable not found, no NVIDIA runtime…); no answer means no engine.
    if (statusCode(error) === undefined) throw engineError('The Docker engine did not answer', error)
    const message = engineMessage(error)
    return failedToStart(containerId, message, fallbackTime, commandExitCode(message))
  }

  /** `exitCode`: the command itself cannot run (see {@link RunResult.exitCode}); its reason is its log. */
  function failedToStart(containerId: string, reason: string, time: number, exitCode?: number): RunResult {
    return {
      containerId,
      outcome: 'failedToStart',
      exitCode,
      startedAt: new Date(time),
      finishedAt: new Date(time),
      logs: exitCode === undefined ? new Uint8Array(0) : new TextEncoder().encode(`${reason}\n`),
      logsTruncated: false,
      reason,
    }
  }

  async function remove(containerId: string): Promise<void> {
    try {
      await docker.getContainer(containerId).remove({ force: true, v: true })
    } catch (error) {
      const code = statusCode(error)
      // 404: already gone. 409: a removal is already in progress.
      if (code === 404 || code === 409) return
      throw engineError(`Could not remove container ${containerId}`, error)
    }
  }

  return {
    kind: 'docker',
    isolated: true,
    prepareImage,

    async run(spec) {
      const now = clock.now()
      const invalid = invalidLimits(spec.limits)
      if (invalid !== undefined) return failedToStart('', invalid, now)
      if (spec.signal?.aborted)
        return { ...failedToStart('', 'aborted before the container was created', now), outcome: 'aborted' }

      try {
        // The task's user is whatever the image says, often root without
        // CAP_DAC_OVERRIDE (dropped): it can write only where the mode lets
        // anyone, and the agent's user owns this directory.
        await chmod(spec.outputDir, 0o777)
      } catch (error) {
        return failedToStart('', `the output directory is not usable: ${engineMessage(error)}`, now)
      }
      let container: Docker.Container
      try {
        container = await docker.createContainer(createOptions(spec, { init }))
      } catch (error) {
        return notStarted('', error, now)
      }
      logger.debug('created container', { containerId: container.id, taskId: spec.taskId, slot: spec.slot })
      try {
        await container.start()
      } catch (error) {
        return notStarted(container.id, error, now)
      }
      const result = await collect(container, spec, true)
      if (options.removeAfterRun) await remove(container.id)
      return result
    },

    async listTaskContainers(owner) {
      let containers: Docker.ContainerInfo[]
      try {
        containers = await docker.listContainers({
          all: true,
          filters: { label: [`${containerLabels.owner}=${owner}`] },
        })
      } catch (error) {
        throw engineError('Could not list containers', error)
      }
      const tasks: TaskContainer[] = []
      for (const container of containers) {
        const task = parseLabels(container.Labels)
        if (task === undefined || task.owner !== owner) {
          logger.warn('container with unreadable task labels', {
            containerId: container.Id,
            labels: container.Labels,
          })
          continue
        }
        tasks.push({
          containerId: container.Id,
          ...task,
          running:
            container.State === 'running' || container.State === 'paused' || container.State === 'restarting',
        })
      }
      return tasks
    },

    async attach(containerId, spec) {
      const container = docker.getContainer(containerId)
      let info: Docker.ContainerInspectInfo
      try {
        info = await container.inspect()
      } catch (error) {
        throw engineError(`Could not inspect container ${containerId}`, error)
      }
      const task = parseLabels(info.Config.Labels ?? {})
      if (
        task === undefined ||
        task.owner !== spec.owner ||
        task.taskId !== spec.taskId ||
        task.slot !== spec.slot
      ) {
        throw new ContainerEngineError(
          `Container ${containerId} is not task ${spec.taskId} slot ${spec.slot} of ${spec.owner}`,
          {
            metaMessages: [
              'Refusing to collect it as this task: pass the spec the container was created with.',
            ],
          },
        )
      }
      if (info.State.Status === 'created') {
        // Created but never started (the agent stopped in between): waiting
        // on it would report exit code 0 with no output.
        return failedToStart(info.Id, 'the container was created but never started', clock.now())
      }
      return collect(container, spec, info.State.Running || info.State.Paused || info.State.Restarting)
    },

    remove,

    runOneOff: (spec) => runOneOff(docker, spec, { clock, logger, pullTimeoutMs }),

    async [Symbol.asyncDispose]() {
      // dockerode keeps no connection open between requests: nothing to close.
    },
  }
}

/** Docker's `CreateContainer` body for a task: the whole isolation policy in one place. */
export function createOptions(spec: RunSpec, { init }: { init: boolean }): Docker.ContainerCreateOptions {
  const { limits } = spec
  return {
    Image: spec.image,
    // The command replaces ENTRYPOINT and CMD both: `Entrypoint: []` (not
    // omitted) clears the image's entrypoint instead of prepending it.
    ...(spec.command === undefined ? {} : { Entrypoint: [], Cmd: [...spec.command] }),
    Env: Object.entries(spec.env).map(([name, value]) => `${name}=${value}`),
    Labels: {
      [containerLabels.owner]: spec.owner,
      [containerLabels.taskId]: spec.taskId.toString(),
      [containerLabels.slot]: spec.slot.toString(),
    },
    Tty: false,
    AttachStdin: false,
    AttachStdout: false,
    AttachStderr: false,
    OpenStdin: false,
    HostConfig: {
      // Mounts rather than Binds: a missing host directory is an error, not
      // silently created by the daemon as root, and paths may hold colons.
      Mounts: [
        { Type: 'bind', Source: spec.inputDir, Target: spec.inputPath, ReadOnly: true },
        { Type: 'bind', Source: spec.outputDir, Target: spec.outputPath, ReadOnly: false },
      ],
      NetworkMode: spec.network === 'egress' ? 'bridge' : 'none',
      Memory: limits.memoryBytes,
      // Equal to Memory: no swap on top of it.
      MemorySwap: limits.memoryBytes,
      NanoCpus: Math.round(limits.cpus * 1e9),
      PidsLimit: limits.pids,
      ReadonlyRootfs: true,
      Tmpfs: { '/tmp': `rw,noexec,nosuid,size=${limits.tmpBytes}` },
      CapDrop: ['ALL'],
      SecurityOpt: ['no-new-privileges'],
      // Pinned to the devices the agent allotted, never `Count: -1` (all GPUs).
      ...(spec.gpus.length > 0
        ? { DeviceRequests: [{ Driver: 'nvidia', DeviceIDs: [...spec.gpus], Capabilities: [['gpu']] }] }
        : {}),
      // The engine's own copy of the logs is capped too, or a log bomb fills the host's disk.
      LogConfig: {
        Type: 'json-file',
        Config: { 'max-size': String(Math.max(4 * limits.maxLogBytes, 1 << 20)), 'max-file': '2' },
      },
      RestartPolicy: { Name: 'no', MaximumRetryCount: 0 },
      AutoRemove: false,
      Init: init,
    },
  }
}

/**
 * Whether a local image is the one pinned on chain. Two digests pin an
 * image's content and either is accepted:
 * - a RepoDigest's `sha256:…`: the registry manifest digest, which covers the
 *   config and every layer; what a pulled image carries, and what publishers
 *   put on chain after `docker push`;
 * - the image Id: the digest of its config, which names every layer by its
 *   content digest (rootfs.diff_ids); the only digest an image built or
 *   loaded locally and never pushed has.
 */
export function imageDigests(info: Pick<Docker.ImageInspectInfo, 'Id' | 'RepoDigests'>): string[] {
  const digests = [info.Id]
  for (const repoDigest of info.RepoDigests ?? []) {
    const digest = repoDigest.slice(repoDigest.indexOf('@') + 1)
    if (!digests.includes(digest)) digests.push(digest)
  }
  return digests
}

function prepared(image: string, imageDigest: Hex, info: Docker.ImageInspectInfo): PreparedImage {
  const expected = `sha256:${imageDigest.replace(/^0x/, '').toLowerCase()}`
  const digests = imageDigests(info)
  if (!digests.includes(expected))
    throw new ImageDigestMismatchError({ image, expected: imageDigest, actual: digests })
  return { ref: info.Id, digest: imageDigest }
}

function parseLabels(
  labels: Readonly<Record<string, string>>,
): Omit<TaskContainer, 'containerId' | 'running'> | undefined {
  const owner = labels[containerLabels.owner]
  const taskId = labels[containerLabels.taskId]
  const slot = labels[containerLabels.slot]
  if (owner === undefined || taskId === undefined || slot === undefined) return undefined
  if (!/^\d+$/.test(taskId) || !/^\d+$/.test(slot)) return undefined
  return { owner, taskId: BigInt(taskId), slot: Number(slot) }
}

/** Docker writes `0001-01-01T00:00:00Z` for times that never happened. */
function dockerTime(value: string | undefined): Date | undefined {
  if (value === undefined) return undefined
  const time = Date.parse(value)
  return Number.isNaN(time) || time <= 0 ? undefined : new Date(time)
}

function engineError(shortMessage: string, cause: unknown): ContainerEngineError {
  return new ContainerEngineError(shortMessage, { cause })
}
