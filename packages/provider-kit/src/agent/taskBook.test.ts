import type { Task } from '@gridforge/sdk'
import { describe, expect, it } from 'vitest'
import { assess } from './taskBook.js'

const provider = '0x00000000000000000000000000000000000000aa'
const now = 1_800_000_000

function openTask(deadlineIn: number, maxRuntimeSec = 3_600): Task {
  return {
    status: 'Open',
    deadline: new Date((now + deadlineIn) * 1000),
    requirements: { minGpus: 0, minVramMiB: 0, minComputeCapability: 0, maxRuntimeSec, deterministic: true },
    slots: [{ index: 0, status: 'Free', provider: undefined }],
  } as unknown as Task
}

describe('assess', () => {
  it('takes an open task whose deadline leaves room for its runtime limit', () => {
    expect(assess(openTask(2 * 3_600), provider, now)).toEqual({ kind: 'take', reopen: undefined })
  })

  it('lets go of a task whose deadline is nearer than its runtime limit: the market would refuse the claim', () => {
    expect(assess(openTask(3_599), provider, now)).toEqual({ kind: 'gone' })
    expect(assess(openTask(100, 60), provider, now)).toEqual({ kind: 'take', reopen: undefined })
  })

  it('lets go of a task past its deadline', () => {
    expect(assess(openTask(0), provider, now)).toEqual({ kind: 'gone' })
  })

  it('replicas > 1: a task whose seats are all held still takes a better ticket while its race is on', () => {
    const other = '0x00000000000000000000000000000000000000bb'
    const full = {
      ...openTask(2 * 3_600),
      status: 'Claimed',
      replicas: 2,
      slots: [0, 1].map((index) => ({
        index,
        status: 'Claimed',
        provider: other,
        dueAt: new Date((now + 3_700) * 1000),
      })),
    } as unknown as Task
    expect(assess(full, provider, now, { end: now + 60 })).toEqual({ kind: 'take', reopen: undefined })
    // Over (or not racing): full until the first claim comes due.
    expect(assess(full, provider, now)).toEqual({ kind: 'full', dueAt: now + 3_700 })
    // A raced seat starts at the race's end: the deadline must leave its runtime limit after that.
    expect(
      assess({ ...full, deadline: new Date((now + 3_630) * 1000) }, provider, now, { end: now + 60 }),
    ).toEqual({
      kind: 'gone',
    })
  })

  it('lets go of a task whose result is held or under audit: audits are joined, never claimed', () => {
    for (const status of ['Held', 'Auditing'] as const) {
      const task = openTask(2 * 3_600)
      const slots = [
        { index: 0, status: 'Submitted', provider: '0x00000000000000000000000000000000000000bb' },
      ]
      expect(assess({ ...task, status, slots } as unknown as Task, provider, now)).toEqual({ kind: 'gone' })
    }
  })
})
