import type { Logger } from '../logger.js'
import type { RunOutcome, RunSpec } from './ContainerRuntime.js'
import type { Clock } from './clock.js'
import { directorySize, directoryUsage } from './directorySize.js'

/** Why a runtime killed a task's process. */
export interface Kill {
  outcome: Extract<RunOutcome, 'timeout' | 'outputTooLarge' | 'aborted'>
  reason: string
}

export interface WatchRunParameters {
  spec: RunSpec
  clock: Clock
  /** Longest gap between two measurements of the output directory, ms: how often an idle one is looked at. */
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
 * How fast a task is assumed to write before it has been measured writing
 * faster, bytes per millisecond: 8 GiB/s, more than a buffered write into the
 * page cache of a current server. Only sets how soon the next measurement
 * comes (see {@link nextOutputMeasurement}).
 */
export const assumedWriteBytesPerMs = (8 * 2 ** 30) / 1000

/** The shortest gap between two measurements of the output directory, ms. */
export const minOutputPollMs = 10

/**
 * The watchdogs both runtimes share: kills at `spec.deadline` (`timeout`),
 * when `spec.signal` aborts (`aborted`), and when the output directory grows
 * past `limits.maxOutputBytes` (`outputTooLarge`). The first reason wins;
 * later ones are ignored.
 *
 * The output cap holds within a bounded overshoot, not exactly. The directory
 * is measured (a walk, {@link directorySize}) at gaps that shrink as it nears
 * the cap: never longer than the time the task needs to fill what is left at
 * the fastest speed it may write ({@link nextOutputMeasurement}), so the
 * measurement that sees it over the cap comes at most {@link minOutputPollMs}
 * (plus one walk) after it crossed, for an output of up to 100 files (more
 * files space the measurements by their cost, {@link outputPollMsPerEntry}),
 * if the host runs the agent's timers on time. What a task writes past the
 * cap is what it writes in that time plus the time its runtime takes to kill
 * it (a sparse file's apparent size can jump past it in one `truncate`,
 * writing nothing; it is killed all the same): a
 * process group's SIGKILL lands at once; a container's kill goes through the
 * engine (20–120 ms measured on a loaded 2-core VM). `bench/outputCap.ts`
 * measures both: a `dd` bomb against a 1 GiB cap there ended 1–7 MiB over in
 * the process runtime and 17–102 MiB over in Docker (it was up to 181 and
 * 1,186 MiB with one measurement every 500 ms). An exact cap would need the
 * file system to refuse the writes (XFS project quotas, a size-limited loop
 * device or tmpfs per task), which neither a bind mount nor a plain
 * directory offers portably.
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
  let last = { size: 0, at: clock.now() }
  const measure = async () => {
    if (stopped || killed !== undefined) return
    let next = pollIntervalMs
    try {
      const { bytes: size, entries } = await directoryUsage(spec.outputDir, maxOutputBytes)
      if (size > maxOutputBytes) return fire(outputTooLarge(size, maxOutputBytes))
      const at = clock.now()
      next = nextOutputMeasurement({
        size,
        maxOutputBytes,
        bytesPerMs: at > last.at ? (size - last.size) / (at - last.at) : 0,
        entries,
        maxGapMs: pollIntervalMs,
      })
      last = { size, at }
    } catch (error) {
      // An unreadable entry the task created: keep watching the rest of the
      // run; the agent fails to collect it later and says so.
      logger.warn('could not measure the output directory', { outputDir: spec.outputDir, error })
    }
    if (!stopped && killed === undefined) cancels.push(clock.setTimeout(() => void measure(), next))
  }
  // The first look comes soon: a task may start writing at once.
  cancels.push(clock.setTimeout(() => void measure(), minOutputPollMs))

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

export interface NextOutputMeasurementParameters {
  /** The output directory's size now, bytes (under the cap). */
  size: number
  maxOutputBytes: number
  /** How fast it grew since the previous measurement, bytes per ms. */
  bytesPerMs: number
  /** Entries this measurement walked. */
  entries: number
  /** The longest gap allowed, ms. */
  maxGapMs: number
}

/**
 * Milliseconds between two measurements per entry the walk visits: a walk
 * costs ~10–20 µs of CPU per entry (a `readdir` share and an `lstat`), so a
 * directory of many files costs the agent at most a fifth of a core or so to
 * watch. Counted in entries, not in the walk's wall time, which a loaded host
 * inflates for a directory of one file as much as for one of a million.
 */
export const outputPollMsPerEntry = 0.1

/**
 * Milliseconds until the next measurement of the output directory: the time
 * the task needs to fill what is left under the cap, writing at the faster of
 * its measured speed and {@link assumedWriteBytesPerMs}; at least
 * {@link minOutputPollMs} and {@link outputPollMsPerEntry} per entry walked;
 * at most `maxGapMs`.
 *
 * @example
 * // 1 GiB cap, empty directory: 125 ms (8 GiB/s would fill it in that time).
 * nextOutputMeasurement({ size: 0, maxOutputBytes: 2 ** 30, bytesPerMs: 0, entries: 0, maxGapMs: 500 })
 */
export function nextOutputMeasurement({
  size,
  maxOutputBytes,
  bytesPerMs,
  entries,
  maxGapMs,
}: NextOutputMeasurementParameters): number {
  const speed = Math.max(bytesPerMs, assumedWriteBytesPerMs)
  const untilFull = Math.max(0, maxOutputBytes - size) / speed
  return Math.min(
    maxGapMs,
    Math.max(minOutputPollMs, Math.ceil(entries * outputPollMsPerEntry), Math.floor(untilFull)),
  )
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
