import { describe, expect, it } from 'vitest'
import { errors } from '../../abis/taskMarket.js'
import { gridToken } from '../../utils/amount.js'
import { claimHints, marketParamBounds, taskMarketHints } from './taskMarket.js'

describe('taskMarketHints', () => {
  it('has a hint for every error the market can revert with', () => {
    const names = errors.map((error) => error.name)
    expect(names.filter((name) => taskMarketHints[name] === undefined)).toEqual([])
    expect(Object.keys(taskMarketHints).filter((name) => !names.includes(name as never))).toEqual([])
  })

  it('gives every hint a sentence from typical arguments', () => {
    const args = [12n, 3, 1_800_000_000, 4n]
    for (const [name, hint] of Object.entries(taskMarketHints)) {
      const text = hint(args, { token: gridToken })
      expect(text, name).toMatch(/^\S.{10,}$/)
      expect(text, name).not.toContain('undefined')
    }
  })

  it('names the bound of an out-of-bounds parameter and what a status allows', () => {
    expect(taskMarketHints.TaskMarketParamOutOfBounds!(['collateralBps'], { token: gridToken })).toBe(
      `collateralBps is out of bounds: it must be ${marketParamBounds.collateralBps}`,
    )
    expect(taskMarketHints.TaskMarketWrongStatus!([5n, 3], { token: gridToken })).toBe(
      'task 5 is Revealing: it is in its reveal phase: claimants reveal, then it settles (anyone may finalize after the window); read it with getTask',
    )
    expect(
      taskMarketHints.TaskMarketInsufficientBalance!(['0x', 2n * 10n ** 18n, 5n * 10n ** 18n], {
        token: gridToken,
      }),
    ).toContain('market balance 2 GRID < 5 GRID needed')
    expect(taskMarketHints.TaskMarketWrongStatus!([5n, 8], { token: gridToken })).toContain(
      'task 5 is Held: its result is in and held for the audit draw',
    )
  })

  it('says when an audit step becomes possible', () => {
    expect(taskMarketHints.TaskMarketDrawNotReady!([7n, 120n], { token: gridToken })).toBe(
      'the draw of task 7 uses the hash of a block not mined yet: send it again from block 120 (getAuditDraw says when it is ready)',
    )
    expect(taskMarketHints.TaskMarketInvalidAuditBps!([50, 1000], { token: gridToken })).toBe(
      "auditBps 50 is out of range: pass 0 for the market's default, or 1000 (the default) to 10000",
    )
    expect(taskMarketHints.TaskMarketAuditJoinOpen!([7n, 1_800_000_000], { token: gridToken })).toContain(
      '2027-01-15T08:00:00.000Z',
    )
    expect(taskMarketHints.TaskMarketTimeoutTooEarly!([7n, 3_600, 2_400n], { token: gridToken })).toBe(
      "a run reported as timed out must have had the whole runtime limit since the claim: task 7's limit is 1h and 40m had passed: wait until the limit is reached (20m more) before handing in the timeout, or report how the run really ended (exited, outOfMemory, outputTooLarge); replicas and auditors: the time from the claim to the commitment is what counts",
    )
  })

  it('explains the race for the seats of a task with replicas', () => {
    expect(claimHints.TaskMarketDrawNotReady!([7n, 120n], { token: gridToken })).toBe(
      'the race for the seats of task 7 draws its tickets from the hash of a block not mined yet: claim again from block 120',
    )
    expect(taskMarketHints.TaskMarketClaimTicketTooHigh!([7n, 900n, 800n], { token: gridToken })).toBe(
      "every seat of task 7 is held by a better ticket than yours (900, the worst seated is 800): its seats are raced for until the race ends (getAudit's joinDeadline), and the lowest stake-weighted tickets hold them; claim other tasks (more stake draws lower tickets)",
    )
    expect(taskMarketHints.TaskMarketSeatNotFinal!([7n, 1_800_000_000], { token: gridToken })).toBe(
      'your seat of task 7 was won in the race for its seats and is final at 2027-01-15T08:00:00.000Z: until then a better ticket may take it, so commit (and start the work) from then on',
    )
  })
})
