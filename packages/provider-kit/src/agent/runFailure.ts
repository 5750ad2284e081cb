import type { Failure, Task } from '@gridforge/sdk'
import type { JournalRun } from './journal.js'

/**
 * What a finished run hands in:
 * - `output`: it exited with code 0: its output folder is the result;
 * - `failure`: it failed by the workload's own doing: a failure is a result too (the run's logs are
 *   its CID), never slashed, paid the source's failure terms, audited like an output, so it must
 *   be one that any honest provider would find again;
 * - `abandon`: it failed by this agent's or this host's doing (the engine, the image, a stop, a
 *   limit of this agent's lower than the market's): nothing is handed in, as before failures were results.
 */
export type RunEnd = { output: true } | { failure: Failure } | { abandon: string }

/**
 * {@link RunEnd} of a run, from how it ended and the limits it had:
 * - `exited` with a non-zero code: `exited` with that code;
 * - `failedToStart` with an exit code (the command does not exist in the image, or is not
 *   executable: 127 or 126, as a shell says): `exited` with that code; without one, the engine's
 *   or the host's trouble: abandoned;
 * - `timeout`: `timedOut` only when the run had the whole runtime limit on chain (the market refuses
 *   an earlier one); killed sooner, because the agent started late or the source's metadata says less,
 *   it is abandoned;
 * - `oom`: `outOfMemory` when the memory limit was the source's; under a lower limit of this agent's,
 *   abandoned;
 * - `outputTooLarge`: `outputTooLarge` (the output cap is the agent's `limits.maxOutputBytes`);
 * - `aborted`: abandoned (the agent stopped the run).
 *
 * @example
 * runEndOf({ outcome: 'exited', exitCode: 2, … }) // { failure: { kind: 'exited', exitCode: 2 } }
 */
export function runEndOf(run: Pick<JournalRun, 'outcome' | 'exitCode' | 'reason' | 'limits'>): RunEnd {
  const { outcome, exitCode, limits } = run
  const ended = (why: string) => ({
    abandon: `the container ended with ${outcome}${run.reason ? `: ${run.reason}` : ''}; ${why}; nothing submitted`,
  })
  switch (outcome) {
    case 'exited':
      // An exit code the market cannot record (a runtime reporting outside 0 to 255) is no result either.
      if (exitCode === undefined || exitCode === 0) return { output: true }
      return isExitCode(exitCode)
        ? { failure: { kind: 'exited', exitCode } }
        : ended(`exit code ${exitCode} is not 0 to 255`)
    case 'failedToStart':
      return exitCode !== undefined && isExitCode(exitCode)
        ? { failure: { kind: 'exited', exitCode } }
        : ended('the engine or the host could not start it')
    case 'timeout':
      return limits?.marketRuntime
        ? { failure: { kind: 'timedOut' } }
        : ended(
            limits === undefined
              ? 'its time limit is not journaled'
              : `killed after ${limits.runtimeSec} s, before the task's runtime limit`,
          )
    case 'oom':
      return limits?.sourceMemory
        ? { failure: { kind: 'outOfMemory' } }
        : ended("killed under this agent's memory limit, below the source's")
    case 'outputTooLarge':
      return { failure: { kind: 'outputTooLarge' } }
    case 'aborted':
      return ended('the agent stopped it')
  }
}

function isExitCode(code: number): boolean {
  return Number.isInteger(code) && code >= 0 && code <= 255
}

/**
 * When the market believes a `timedOut` failure of the slot (chain seconds): once the task's runtime
 * limit has passed since the claim (an audit: since the join). Submitted (1 replica) or committed
 * (replicas > 1, audits: the reveal checks the commitment's time) earlier, it is refused with
 * `TaskMarketTimeoutTooEarly`, and a refused reveal is a slashed one. `undefined` when the slot
 * has no claim time.
 */
export function timeoutReportableAt(
  task: Pick<Task, 'requirements' | 'slots'>,
  slot: number,
): number | undefined {
  const claimedAt = task.slots[slot]?.claimedAt
  if (claimedAt === undefined) return undefined
  return Math.floor(claimedAt.getTime() / 1000) + task.requirements.maxRuntimeSec
}
