import type { Slot, Task } from '@gridforge/sdk'
import { describe, expect, test } from 'vitest'
import { decide } from './decide.js'
import { type JournalEntry, type JournalStep, newEntry } from './journal.js'

const me = '0x00000000000000000000000000000000000000aa'
const other = '0x00000000000000000000000000000000000000bb'

function slot(patch: Partial<Slot>): Slot {
  return {
    index: 0,
    status: 'Claimed',
    provider: me,
    claimedAt: new Date(1_000_000),
    dueAt: new Date(2_000_000),
    committedAt: undefined,
    commitment: undefined,
    resultDigest: undefined,
    runtimeSec: undefined,
    ...patch,
  }
}

function task(status: Task['status'], slots: Slot[]): Task {
  return { taskId: 7n, status, replicas: slots.length, slots } as Task
}

function entry(step: JournalStep, replicas = 1): JournalEntry {
  return { ...newEntry({ taskId: 7n, sourceId: 1, replicas }), step, slot: 0 }
}

const stepOf = (result: ReturnType<typeof decide>) =>
  result === undefined ? undefined : 'next' in result ? result.next.step : 'drop' in result ? 'drop' : 'wait'

describe('decide: what the chain says the next step is', () => {
  test('a claim whose answer was lost shows as our slot: claimed', () => {
    const result = decide({ ...entry('claiming'), slot: undefined }, task('Claimed', [slot({})]), me)
    expect(result).toMatchObject({ next: { step: 'claimed', slot: 0, dueAt: 2_000 } })
  })

  test('a resumed claim that never reached the chain is dropped; a refused one with no slot left too', () => {
    const free = task('Open', [slot({ status: 'Free', provider: undefined })])
    expect(decide({ ...entry('claiming'), slot: undefined }, free, me)).toEqual({
      drop: 'the claim did not reach the chain',
    })
    const taken = task('Claimed', [slot({ provider: other })])
    expect(decide({ ...entry('claiming'), slot: undefined }, taken, me, 'TaskMarketNoFreeSlot')).toEqual({
      drop: 'another provider claimed the task first',
    })
    expect(
      decide({ ...entry('claiming'), slot: undefined }, free, me, 'ProviderRegistryNotSubscribed'),
    ).toEqual({
      drop: 'the market refused the claim: ProviderRegistryNotSubscribed',
      refused: true,
    })
  })

  test('a slot reopened after its due time ends the task, whatever step it was at', () => {
    for (const step of ['claimed', 'running', 'ran', 'stored', 'submitting', 'committing'] as const) {
      const result = decide(entry(step), task('Open', [slot({ status: 'Free', provider: undefined })]), me)
      expect(result).toMatchObject({ next: { step: 'abandoned' } })
      expect((result as { next: JournalEntry }).next.reason).toMatch(/no longer ours .*reopened/)
    }
  })

  test('a result already in: done (a lost answer to submitResult is not sent again)', () => {
    expect(stepOf(decide(entry('submitting'), task('Completed', [slot({ status: 'Submitted' })]), me))).toBe(
      'done',
    )
  })

  test('consensus: committed → revealing once reveals open; revealed → done once settled', () => {
    const committed = [
      slot({ status: 'Committed' }),
      slot({ index: 1, status: 'Committed', provider: other }),
    ]
    expect(stepOf(decide(entry('committing', 2), task('Claimed', committed), me))).toBe('committed')
    expect(stepOf(decide(entry('committed', 2), task('Claimed', committed), me))).toBe(undefined)
    expect(stepOf(decide(entry('committed', 2), task('Revealing', committed), me))).toBe('revealing')
    expect(stepOf(decide(entry('revealing', 2), task('Revealing', committed), me))).toBe(undefined)
    const revealed = [
      slot({ status: 'Committed', resultDigest: `0x${'11'.repeat(32)}` }),
      committed[1] as Slot,
    ]
    expect(stepOf(decide(entry('revealing', 2), task('Revealing', revealed), me))).toBe('revealed')
    expect(stepOf(decide(entry('revealed', 2), task('Revealing', revealed), me))).toBe(undefined)
    expect(stepOf(decide(entry('revealed', 2), task('Completed', revealed), me))).toBe('done')
  })

  test('a task that ended before our result counted is abandoned with its status', () => {
    const result = decide(entry('committed', 2), task('Expired', [slot({ status: 'Committed' })]), me)
    expect((result as { next: JournalEntry }).next).toMatchObject({ step: 'abandoned' })
    expect((result as { next: JournalEntry }).next.reason).toContain('Expired')
  })

  test('a refused transaction the chain does not show done ends the task with the refusal', () => {
    const result = decide(entry('submitting'), task('Claimed', [slot({})]), me, 'TaskMarketClaimExpired')
    expect((result as { next: JournalEntry }).next).toMatchObject({
      step: 'abandoned',
      reason: 'submitting was refused: TaskMarketClaimExpired',
    })
  })

  test('the chain agreeing with the journal: carry on', () => {
    expect(decide(entry('claimed'), task('Claimed', [slot({})]), me)).toBeUndefined()
    expect(decide(entry('submitting'), task('Claimed', [slot({})]), me)).toBeUndefined()
  })
})
