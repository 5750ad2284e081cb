import type { Slot, Task } from '@gridforge/sdk'
import { describe, expect, test } from 'vitest'
import type { JournalRun } from './journal.js'
import { runEndOf, timeoutReportableAt } from './runFailure.js'

const marketLimits = { runtimeSec: 60, marketRuntime: true, sourceMemory: true }

function run(patch: Partial<JournalRun>): JournalRun {
  return {
    outcome: 'exited',
    exitCode: 0,
    startedAt: 1_000,
    finishedAt: 1_010,
    reason: undefined,
    logsCID: 'bafkreilogs',
    limits: marketLimits,
    ...patch,
  }
}

describe('runEndOf: what a finished run hands in', () => {
  test('exit code 0: its output', () => {
    expect(runEndOf(run({}))).toEqual({ output: true })
  })

  test("the workload's own failures are results: a non-zero exit, a missing command, a timeout at the task's limit, out of memory, output over the cap", () => {
    expect(runEndOf(run({ exitCode: 2 }))).toEqual({ failure: { kind: 'exited', exitCode: 2 } })
    expect(runEndOf(run({ exitCode: 255 }))).toEqual({ failure: { kind: 'exited', exitCode: 255 } })
    expect(runEndOf(run({ outcome: 'failedToStart', exitCode: 127 }))).toEqual({
      failure: { kind: 'exited', exitCode: 127 },
    })
    expect(runEndOf(run({ outcome: 'timeout', exitCode: undefined }))).toEqual({
      failure: { kind: 'timedOut' },
    })
    expect(runEndOf(run({ outcome: 'oom', exitCode: undefined }))).toEqual({
      failure: { kind: 'outOfMemory' },
    })
    // Killed by the watchdog, or exited by itself with too much output: the same failure either way.
    for (const exitCode of [undefined, 0, 1])
      expect(runEndOf(run({ outcome: 'outputTooLarge', exitCode }))).toEqual({
        failure: { kind: 'outputTooLarge' },
      })
  })

  test("failures of the agent's or the host's doing are abandoned, with the reason", () => {
    const reasonOf = (patch: Partial<JournalRun>) => {
      const end = runEndOf(run(patch))
      expect(end).toHaveProperty('abandon')
      return (end as { abandon: string }).abandon
    }
    // The engine could not start it (no NVIDIA runtime, invalid limits): no exit code.
    expect(
      reasonOf({ outcome: 'failedToStart', exitCode: undefined, reason: 'could not select device driver' }),
    ).toMatch(/failedToStart: could not select device driver; .*nothing submitted/)
    // Killed before the task's runtime limit: the agent started late, or the source's metadata says less.
    expect(
      reasonOf({
        outcome: 'timeout',
        exitCode: undefined,
        limits: { ...marketLimits, runtimeSec: 3, marketRuntime: false },
      }),
    ).toMatch(/timeout.*killed after 3 s, before the task's runtime limit; nothing submitted/)
    // Out of memory under this agent's lower limit than the source's.
    expect(
      reasonOf({ outcome: 'oom', exitCode: undefined, limits: { ...marketLimits, sourceMemory: false } }),
    ).toMatch(/memory limit/)
    expect(reasonOf({ outcome: 'aborted', exitCode: undefined })).toMatch(/stopped/)
    // An entry journaled before the limits were: a kill cannot be told to be the workload's.
    expect(reasonOf({ outcome: 'timeout', exitCode: undefined, limits: undefined })).toMatch(/not journaled/)
    expect(reasonOf({ outcome: 'oom', exitCode: undefined, limits: undefined })).toMatch(/memory/)
    // An exit code the market cannot record.
    expect(reasonOf({ exitCode: 300 })).toMatch(/not 0 to 255/)
  })
})

describe('timeoutReportableAt', () => {
  const task = (claimedAt: Date | undefined) =>
    ({
      requirements: { maxRuntimeSec: 60 },
      slots: [{ index: 0, claimedAt } as Slot],
    }) as unknown as Pick<Task, 'requirements' | 'slots'>

  test("the claim's time plus the task's runtime limit, chain seconds", () => {
    expect(timeoutReportableAt(task(new Date(1_000_500)), 0)).toBe(1_060)
  })

  test('a slot without a claim time: undefined', () => {
    expect(timeoutReportableAt(task(undefined), 0)).toBeUndefined()
    expect(timeoutReportableAt(task(new Date(0)), 3)).toBeUndefined()
  })
})
