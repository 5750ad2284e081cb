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
    resultTag: undefined,
    submittedBlock: undefined,
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
      slot({ status: 'Submitted', dueAt: undefined, resultDigest: `0x${'11'.repeat(32)}` }),
      committed[1] as Slot,
    ]
    expect(stepOf(decide(entry('revealing', 2), task('Revealing', revealed), me))).toBe('revealed')
    // Our reveal is in, not the other's: the task is not settled yet.
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

  test('a held result (auditable task): held until released, auditing once drawn, done once paid', () => {
    const submitted = [slot({ status: 'Submitted', dueAt: undefined, submittedBlock: 41n })]
    expect(stepOf(decide(entry('submitting'), task('Held', submitted), me))).toBe('held')
    expect(decide(entry('held'), task('Held', submitted), me)).toBeUndefined()
    expect(stepOf(decide(entry('held'), task('Auditing', submitted), me))).toBe('auditing')
    expect(decide(entry('auditing'), task('Auditing', submitted), me)).toBeUndefined()
    expect(stepOf(decide(entry('held'), task('Completed', submitted), me))).toBe('done')
    expect(stepOf(decide(entry('auditing'), task('Completed', submitted), me))).toBe('done')
    // Released by someone else first: the refusal does not end the task.
    expect(stepOf(decide(entry('held'), task('Auditing', submitted), me, 'TaskMarketWrongStatus'))).toBe(
      'auditing',
    )
    const overturned = decide(entry('auditing'), task('Failed', [slot({ status: 'Forfeited' })]), me)
    expect((overturned as { next: JournalEntry }).next).toMatchObject({ step: 'abandoned' })
    expect((overturned as { next: JournalEntry }).next.reason).toMatch(/overturned/)
    const unresolved = decide(entry('auditing'), task('Failed', submitted), me)
    expect((unresolved as { next: JournalEntry }).next.reason).toMatch(/no verdict/)
  })

  test("an audit of another provider's result: joined, replaced, committed, revealed, settled", () => {
    const audit = { round: 1, joinDeadline: 1_500, commitDeadline: 3_000 }
    const auditing = (step: JournalStep, slotIndex: number | undefined = 1) => ({
      ...entry(step),
      slot: slotIndex,
      audit,
    })
    const provider = slot({ provider: other, status: 'Submitted', dueAt: undefined })
    const seat = (patch: Partial<Slot>) => slot({ index: 1, dueAt: new Date(3_000_000), ...patch })
    // Not seated, nothing refused: the join step carries on; seated: joined, due by the commitment deadline.
    expect(decide(auditing('joining', undefined), task('Auditing', [provider]), me)).toBeUndefined()
    expect(decide(auditing('joining', undefined), task('Auditing', [provider, seat({})]), me)).toMatchObject({
      next: { step: 'joined', slot: 1, dueAt: 3_000 },
    })
    expect(
      decide(auditing('joining', undefined), task('Auditing', [provider]), me, 'TaskMarketAuditJoinClosed'),
    ).toEqual({ drop: 'the market refused the join: TaskMarketAuditJoinClosed' })
    // A better ticket took the seat: nothing of ours is locked any more.
    expect(decide(auditing('joined'), task('Auditing', [provider, seat({ provider: other })]), me)).toEqual({
      drop: 'a better ticket took our seat in the audit',
    })
    expect(decide(auditing('claimed'), task('Auditing', [provider, seat({})]), me)).toBeUndefined()
    // The task stays Auditing: the reveal window is open once the task has a reveal deadline.
    const committed = [provider, seat({ status: 'Committed' })]
    expect(stepOf(decide(auditing('committing'), task('Auditing', committed), me))).toBe('committed')
    expect(decide(auditing('committed'), task('Auditing', committed), me)).toBeUndefined()
    const open = { ...task('Auditing', committed), revealDeadline: new Date(4_000_000) }
    expect(stepOf(decide(auditing('committed'), open, me))).toBe('revealing')
    const revealed = [provider, seat({ status: 'Submitted' })]
    expect(stepOf(decide(auditing('revealing'), task('Auditing', revealed), me))).toBe('revealed')
    expect(decide(auditing('revealed'), task('Auditing', revealed), me)).toBeUndefined()
    expect(stepOf(decide(auditing('revealed'), task('Completed', revealed), me))).toBe('done')
    const forfeited = decide(
      auditing('revealed'),
      task('Failed', [provider, seat({ status: 'Forfeited' })]),
      me,
    )
    expect((forfeited as { next: JournalEntry }).next).toMatchObject({ step: 'abandoned' })
  })

  test('replicas > 1: a raced claim whose answer was lost is claimed with the time its seat is final', () => {
    const raced = slot({ claimedAt: new Date(1_500_000), dueAt: new Date(2_500_000) })
    const result = decide(
      { ...entry('claiming', 2), slot: undefined },
      task('Claimed', [raced, slot({ index: 1, provider: other })]),
      me,
    )
    expect(result).toMatchObject({ next: { step: 'claimed', slot: 0, dueAt: 2_500, seatFinalAt: 1_500 } })
    // A single replica has no race.
    const single = decide({ ...entry('claiming'), slot: undefined }, task('Claimed', [raced]), me)
    expect((single as { next: JournalEntry }).next.seatFinalAt).toBeUndefined()
  })

  test('replicas > 1: a raced seat a better ticket took before it was final is dropped, not abandoned', () => {
    const claimed = { ...entry('claimed', 2), seatFinalAt: 1_500 }
    // The better ticket's seat starts at the race's end too.
    const replaced = [
      slot({ provider: other, claimedAt: new Date(1_500_000) }),
      slot({ index: 1, provider: other }),
    ]
    expect(decide(claimed, task('Claimed', replaced), me)).toEqual({
      drop: 'a better ticket took our seat before the race ended (its collateral was unlocked)',
    })
    // Reopened after its due time and claimed again later: slashed, the task is abandoned.
    const reopened = [
      slot({ provider: other, claimedAt: new Date(9_000_000) }),
      slot({ index: 1, provider: other }),
    ]
    expect(stepOf(decide(claimed, task('Claimed', reopened), me))).toBe('abandoned')
    // Still ours: carry on (the run step waits for the race to end).
    expect(decide(claimed, task('Claimed', [slot({ claimedAt: new Date(1_500_000) })]), me)).toBeUndefined()
  })

  test('replicas > 1 whose revealed results differ: disputed until the auditors settle the task', () => {
    const digest = (byte: string) => `0x${byte.repeat(32)}` as const
    const revealed = [
      slot({ status: 'Submitted', resultDigest: digest('11'), dueAt: undefined }),
      slot({ index: 1, status: 'Submitted', provider: other, resultDigest: digest('22'), dueAt: undefined }),
    ]
    for (const step of ['revealing', 'revealed'] as const)
      expect(stepOf(decide(entry(step, 2), task('Auditing', revealed), me))).toBe('auditing')
    // Under audit: not final, not an error.
    expect(decide(entry('auditing', 2), task('Auditing', revealed), me)).toBeUndefined()
    expect(stepOf(decide(entry('auditing', 2), task('Completed', revealed), me))).toBe('done')
    // The auditors confirmed the other result: our slot was slashed.
    const slashed = [slot({ status: 'Forfeited', dueAt: undefined }), revealed[1] as Slot]
    const outvoted = decide(entry('auditing', 2), task('Completed', slashed), me)
    expect((outvoted as { next: JournalEntry }).next).toMatchObject({ step: 'abandoned' })
    expect((outvoted as { next: JournalEntry }).next.reason).toMatch(/auditors did not confirm/)
    // A replica whose reveal did not come forfeits when the dispute opens: nothing more to wait for.
    const late = decide(entry('committed', 2), task('Auditing', slashed), me)
    expect((late as { next: JournalEntry }).next.reason).toMatch(/reveal did not come in time/)
  })

  test('the chain agreeing with the journal: carry on', () => {
    expect(decide(entry('claimed'), task('Claimed', [slot({})]), me)).toBeUndefined()
    expect(decide(entry('submitting'), task('Claimed', [slot({})]), me)).toBeUndefined()
  })
})
