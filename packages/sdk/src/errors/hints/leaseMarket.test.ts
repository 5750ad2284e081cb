import { describe, expect, it } from 'vitest'
import { errors } from '../../abis/leaseMarket.js'
import { gridToken } from '../../utils/amount.js'
import { leaseMarketHints } from './leaseMarket.js'

describe('leaseMarketHints', () => {
  it('has a hint for every error the lease market can revert with', () => {
    const names = errors.map((error) => error.name)
    expect(names.filter((name) => leaseMarketHints[name] === undefined)).toEqual([])
    expect(Object.keys(leaseMarketHints).filter((name) => !names.includes(name as never))).toEqual([])
  })

  it('gives every hint a sentence from typical arguments', () => {
    const args = [12n, 3, 1_800_000_000, 4n]
    for (const [name, hint] of Object.entries(leaseMarketHints)) {
      const text = hint(args, { token: gridToken })
      expect(text, name).toMatch(/^\S.{10,}$/)
      expect(text, name).not.toContain('undefined')
    }
  })

  it('says amounts in token units, statuses and reasons by name', () => {
    expect(
      leaseMarketHints.LeaseMarketDepositTooSmall!([10n ** 18n, 3n * 10n ** 18n], { token: gridToken }),
    ).toContain('a deposit of 1 GRID is less than the 3 GRID needed')
    expect(leaseMarketHints.LeaseMarketWrongStatus!([5n, 3], { token: gridToken })).toBe(
      'lease 5 is Settled: it is settled and final: read why with getLease',
    )
    expect(leaseMarketHints.LeaseMarketEndFixed!([5n, 3], { token: gridToken })).toContain('(ClosedByRenter)')
    expect(leaseMarketHints.LeaseMarketParamOutOfBounds!(['ackGrace', 5n], { token: gridToken })).toBe(
      'ackGrace = 5 is out of bounds: it must be 1 minute to 1 hour',
    )
  })
})
