import { type ChildProcess, spawn } from 'node:child_process'
import { stat } from 'node:fs/promises'
import { constants } from 'node:os'
import { ContainerEngineError } from '../errors.js'
import { type Logger, silentLogger } from '../logger.js'
import type { ContainerRuntime, PreparedImage, RunResult, RunSpec } from './ContainerRuntime.js'
import { type Clock, sleep, systemClock } from './clock.js'
import { LogBuffer } from './logBuffer.js'
import { checkOutputSize, watchRun } from './runWatch.js'
import { invalidLimits } from './validateLimits.js'

export interface ProcessRuntimeOptions {
  logger?: Logger | undefined
  /** Deadline and poll timers (default {@link systemClock}). */
  clock?: Clock | undefined
  /** Milliseconds between two measurements of a running task's output directory (default 500). */
  pollIntervalMs?: number | undefined
}

/**
 * An UNISOLATED {@link ContainerRuntime} for hosts without a container engine
 * (`pnpm demo` falls back to it when Docker does not answer). It runs the
 * task's command directly on this host, as the agent's user, with the host's
 * network and file system: only for sources you wrote yourself.
 *
 * What it keeps from the Docker runtime: the deadline (`timeout`), the output
 * cap (`outputTooLarge`), abort (`aborted`) and the log cap; the whole process
 * group is killed, so children a task forks die with it. What it cannot do:
 * - verify images: {@link ContainerRuntime.prepareImage} checks nothing and
 *   returns a `warning`; the image is never used, `spec.command` is required;
 * - mount: the command reads and writes the host directories, and
 *   `GRIDFORGE_INPUT_DIR` / `GRIDFORGE_OUTPUT_DIR` are overridden to point at
 *   them (the paths inside a container mean nothing here); it runs in the
 *   output directory;
 * - enforce memory, CPU, pids, tmpfs, network or capability limits;
 * - recover after a crash: {@link ContainerRuntime.listTaskContainers} is
 *   always empty and `attach` throws. Children are SIGKILLed when the agent's
 *   process exits; an agent that is itself SIGKILLed leaves them running.
 *
 * GPUs are pinned only by `CUDA_VISIBLE_DEVICES` (set to `spec.gpus`, empty
 * for none), which a process is free to ignore.
 *
 * @example
 * import { processRuntime } from '@gridforge/provider-kit'
 *
 * await using runtime = processRuntime({ logger })
 * const result = await runtime.run({ ...spec, command: ['sh', '-c', 'wc -c "$GRIDFORGE_INPUT_DIR"/* > "$GRIDFORGE_OUTPUT_DIR/count"'] })
 */
export function processRuntime(options: ProcessRuntimeOptions = {}): ContainerRuntime {
  const logger = options.logger ?? silentLogger
  const clock = options.clock ?? systemClock
  const pollIntervalMs = options.pollIntervalMs ?? 500
  /** Live children by id, so `remove` and process exit can kill them. */
  const children = new Map<string, ChildProcess>()

  const killAll = () => {
    for (const child of children.values()) killGroup(child)
  }
  process.on('exit', killAll)

  /** `exitCode`: the command itself cannot run (see {@link RunResult.exitCode}); its reason is its log. */
  const failedToStart = (reason: string, exitCode?: number): RunResult => {
    const time = clock.now()
    return {
      containerId: '',
      outcome: 'failedToStart',
      exitCode,
      startedAt: new Date(time),
      finishedAt: new Date(time),
      logs: exitCode === undefined ? new Uint8Array(0) : new TextEncoder().encode(`${reason}\n`),
      logsTruncated: false,
      reason,
    }
  }

  async function run(spec: RunSpec): Promise<RunResult> {
    const invalid = invalidLimits(spec.limits)
    if (invalid !== undefined) return failedToStart(invalid)
    if (spec.signal?.aborted)
      return { ...failedToStart('aborted before the process started'), outcome: 'aborted' }
    const [file, ...args] = spec.command ?? []
    if (file === undefined) {
      return failedToStart(
        "the process runtime needs the source's command: it cannot run an image's entrypoint",
      )
    }

    // spawn says ENOENT for a missing working directory too: the command's 127 below must mean the command.
    const outputDir = await stat(spec.outputDir).catch(() => undefined)
    if (!outputDir?.isDirectory())
      return failedToStart(`the output directory ${spec.outputDir} does not exist`)

    const child = spawn(file, args, {
      cwd: spec.outputDir,
      env: {
        PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
        ...spec.env,
        // Nothing is mounted: the task reads and writes the host directories themselves.
        GRIDFORGE_INPUT_DIR: spec.inputDir,
        GRIDFORGE_OUTPUT_DIR: spec.outputDir,
        CUDA_VISIBLE_DEVICES: spec.gpus.join(','),
      },
      // Its own process group (and session), so a kill reaches every process it forks.
      detached: true,
      // No shell: the argv is run as given.
      shell: false,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const spawned = await new Promise<Error | undefined>((resolve) => {
      child.once('spawn', () => resolve(undefined))
      child.once('error', (error) => resolve(error))
    })
    if (spawned !== undefined || child.pid === undefined) {
      // As a shell reports it: 127, no such command; 126, not executable.
      const code = (spawned as NodeJS.ErrnoException | undefined)?.code
      return failedToStart(
        `could not start ${file}: ${spawned?.message ?? 'no process id'}`,
        code === 'ENOENT' ? 127 : code === 'EACCES' ? 126 : undefined,
      )
    }
    const startedAt = new Date(clock.now())
    const containerId = `process:${child.pid}`
    children.set(containerId, child)
    logger.warn('running a task UNISOLATED on this host (process runtime)', {
      taskId: spec.taskId,
      slot: spec.slot,
      pid: child.pid,
    })

    // Both pipes are drained to the end even past the cap: a full pipe would block the task.
    const logs = new LogBuffer(spec.limits.maxLogBytes)
    child.stdout?.on('data', (chunk: Uint8Array) => logs.append(chunk))
    child.stderr?.on('data', (chunk: Uint8Array) => logs.append(chunk))
    const closed = new Promise<void>((resolve) => child.once('close', () => resolve()))

    const watchdog = watchRun({
      spec,
      clock,
      pollIntervalMs,
      logger,
      kill: (kill) => {
        logger.info('killing process', { containerId, outcome: kill.outcome, reason: kill.reason })
        killGroup(child)
      },
    })
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      child.once('exit', (exitCode, exitSignal) => resolve([exitCode, exitSignal])),
    )
    const finishedAt = new Date(clock.now())
    watchdog.stop()
    // What the command left running in the background dies with it, as in a container.
    killGroup(child)
    children.delete(containerId)
    await Promise.race([closed, sleep(clock, 10_000)])

    let killed = watchdog.killed
    if (killed === undefined) {
      try {
        killed = await checkOutputSize(spec)
      } catch (error) {
        logger.warn('could not measure the output directory', { outputDir: spec.outputDir, error })
      }
    }
    // Killed by someone else (the kernel's OOM killer, a person): report it as a shell would, 128 + signal.
    const exitCode = code ?? (signal === null ? undefined : 128 + (constants.signals[signal] ?? 0))
    const base = { containerId, startedAt, finishedAt, logs: logs.bytes(), logsTruncated: logs.truncated }
    if (killed !== undefined) {
      return {
        ...base,
        outcome: killed.outcome,
        exitCode: watchdog.killed === undefined ? exitCode : undefined,
        reason: killed.reason,
      }
    }
    return { ...base, outcome: 'exited', exitCode }
  }

  return {
    kind: 'process',
    isolated: false,

    async prepareImage({ image, imageDigest }): Promise<PreparedImage> {
      const warning = `The process runtime does not use images: ${image} is neither fetched nor checked against ${imageDigest}, and the task's command runs unisolated on this host.`
      logger.warn('image not verified (process runtime)', { image, imageDigest })
      return { ref: image, digest: imageDigest, warning }
    },

    run,

    async listTaskContainers() {
      // Nothing outlives the agent that could be collected: see the doc comment.
      return []
    },

    async attach(containerId) {
      throw new ContainerEngineError(`The process runtime cannot re-attach to ${containerId}`, {
        metaMessages: ['Its processes do not survive the agent; the task is run again or given up.'],
      })
    },

    async remove(containerId) {
      const child = children.get(containerId)
      if (child !== undefined) killGroup(child)
    },

    async [Symbol.asyncDispose]() {
      killAll()
      process.off('exit', killAll)
    },
  }
}

/** SIGKILLs the child's whole process group; never throws (it also runs in the `exit` handler). */
function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return
  try {
    process.kill(-child.pid, 'SIGKILL')
  } catch {
    // ESRCH: every process of the group has exited already.
  }
}
