import type { Logger } from '../logger.js'
import type { RunOutcome, RunSpec } from './ContainerRuntime.js'
import type { Clock } from './clock.js'
import { directorySize } from './directorySize.js'

/** Why a runtime killed a task's process. */
export interface Kill {
  outcome: Extract<RunOutcome, 'timeout' | 'outputTooLarge' | 'aborted'>
  reason: string
}

export interface WatchRunParameters {
  spec: RunSpec
  clock: Clock
  /** Milliseconds between two measurements of the output directory. */
  pollIntervalMs: number
  /** Kills the task; called at most once, with the first reason that came up. */
  kill: (kill: Kill) => void
  logger: Logger
}

/** A running task's watchdogs. */
export interface RunWatch {
  /** The first reason to kill, once one came up. */
  readonly killed: Kill | undefined
  /** Cancels the deadline, the abort listener and the output poll. */
  stop(): void
}

/**
 * The watchdogs both runtimes share: kills at `spec.deadline` (`timeout`),
 * when `spec.signal` aborts (`aborted`), and when the output directory grows
 * past `limits.maxOutputBytes` (`outputTooLarge`, measured every
 * `pollIntervalMs`). The first reason wins; later ones are ignored.
 *
 * @example
 * const watch = watchRun({ spec, clock: systemClock, pollIntervalMs: 500, kill: () => child.kill('SIGKILL'), logger })
 * await exited
 * watch.stop()
 * const outcome = watch.killed?.outcome ?? 'exited'
 */
export function watchRun({ spec, clock, pollIntervalMs, kill, logger }: WatchRunParameters): RunWatch {
  let killed: Kill | undefined
  let stopped = false
  const cancels: (() => void)[] = []

  const fire = (reason: Kill) => {
    if (killed !== undefined || stopped) return
    killed = reason
    kill(reason)
  }

  const deadline = spec.deadline.getTime()
  cancels.push(
    clock.setTimeout(
      () => fire({ outcome: 'timeout', reason: `killed at the deadline ${spec.deadline.toISOString()}` }),
      deadline - clock.now(),
    ),
  )

  const signal = spec.signal
  if (signal !== undefined) {
    const onAbort = () => fire({ outcome: 'aborted', reason: abortReason(signal) })
    if (signal.aborted) onAbort()
    else {
      signal.addEventListener('abort', onAbort, { once: true })
      cancels.push(() => signal.removeEventListener('abort', onAbort))
    }
  }

  const { maxOutputBytes } = spec.limits
  const poll = async () => {
    if (stopped || killed !== undefined) return
    try {
      const size = await directorySize(spec.outputDir, maxOutputBytes)
      if (size > maxOutputBytes) fire(outputTooLarge(size, maxOutputBytes))
    } catch (error) {
      // An unreadable entry the task created: keep watching the rest of the
      // run; the agent fails to collect it later and says so.
      logger.warn('could not measure the output directory', { outputDir: spec.outputDir, error })
    }
    if (!stopped && killed === undefined) cancels.push(clock.setTimeout(() => void poll(), pollIntervalMs))
  }
  cancels.push(clock.setTimeout(() => void poll(), pollIntervalMs))

  return {
    get killed() {
      return killed
    },
    stop() {
      stopped = true
      for (const cancel of cancels.splice(0)) cancel()
    },
  }
}

/**
 * The final measurement once the task has exited: a task can write past the
 * limit between two polls and exit before the next, and that output must not
 * be collected either.
 */
export async function checkOutputSize(spec: RunSpec): Promise<Kill | undefined> {
  const { maxOutputBytes } = spec.limits
  const size = await directorySize(spec.outputDir, maxOutputBytes)
  return size > maxOutputBytes ? outputTooLarge(size, maxOutputBytes) : undefined
}

function outputTooLarge(size: number, max: number): Kill {
  return {
    outcome: 'outputTooLarge',
    reason: `the output directory grew past ${max} bytes (${size} measured)`,
  }
}

function abortReason(signal: AbortSignal): string {
  const reason: unknown = signal.reason
  if (reason instanceof Error) return `aborted: ${reason.message}`
  return typeof reason === 'string' ? `aborted: ${reason}` : 'aborted'
}
