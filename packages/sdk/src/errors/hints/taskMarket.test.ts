import { describe, expect, it } from 'vitest'
import { errors } from '../../abis/taskMarket.js'
import { gridToken } from '../../utils/amount.js'
import { marketParamBounds, taskMarketHints } from './taskMarket.js'

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
  })
})
