/** The capture table: the chain's seat races against the exact stake-weighted race. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  captureStakes,
  defaultCaptureOptions,
  exactCapture,
  fineSplitCapture,
  measureCapture,
  withinSamplingError,
} from '../src/capture.js'
import type { Session } from '../src/experiment.js'
import { openSession } from './setup.js'

const split = (f: number, sybil: number, honest: number) => ({
  stakes: captureStakes(f, sybil, honest),
  sybil: [...Array(sybil).fill(true), ...Array(honest).fill(false)] as boolean[],
})

describe('the exact capture probability (Plackett–Luce over the stakes)', () => {
  it('is 0 for a sybil in one account, which holds at most one seat', () => {
    const { stakes, sybil } = split(0.5, 1, 5)
    expect(exactCapture(stakes, sybil, 2)).toBe(0)
    expect(exactCapture(stakes, sybil, 3)).toBe(0)
  })

  it('is f · (f/2) / (1 − f/2) for k = 2 with the sybil’s stake in two accounts against one honest account', () => {
    // Both seats the sybil's: the first with probability f, then its other account against what is left.
    const f = 0.4
    const { stakes, sybil } = split(f, 2, 1)
    const expected = 2 * (f / 2) * (f / 2 / (1 - f / 2))
    expect(exactCapture(stakes, sybil, 2)).toBeCloseTo(expected, 12)
  })

  it('is ½ for k = 3 when both sides hold half the stake in as many accounts (symmetry)', () => {
    const { stakes, sybil } = split(0.5, 5, 5)
    expect(exactCapture(stakes, sybil, 3)).toBeCloseTo(0.5, 12)
  })

  it('grows with a finer split of the sybil’s stake, towards the fine-split limit and never above it', () => {
    for (const f of defaultCaptureOptions.fractions) {
      for (const k of [2, 3]) {
        let previous = 0
        for (const accounts of [1, 2, 4, 8]) {
          const { stakes, sybil } = split(f, accounts, 12)
          const exact = exactCapture(stakes, sybil, k)
          expect(exact).toBeGreaterThanOrEqual(previous - 1e-12)
          previous = exact
        }
        // Against 12 honest accounts, never above the limit of infinitely many accounts on both sides.
        expect(previous).toBeLessThanOrEqual(fineSplitCapture(f, k))
      }
    }
    expect(fineSplitCapture(0.3, 2)).toBeCloseTo(0.09, 12)
    expect(fineSplitCapture(0.3, 3)).toBeCloseTo(3 * 0.09 - 2 * 0.027, 12)
  })
})

describe('the capture table, measured on the chain', () => {
  let session: Session
  beforeAll(async () => {
    session = await openSession()
  })
  afterAll(() => session?.close())

  it('gives seats to the lowest tickets and captures within sampling error of the exact value', async () => {
    const options = { ...defaultCaptureOptions, fractions: [0.2, 0.5], tasks: 120 }
    const result = await measureCapture(session, options)
    expect(result.cells).toHaveLength(4)
    for (const cell of result.cells) {
      expect(cell.tasks).toBe(120)
      // Every account claimed in every race: k took a free seat, the others replaced a worse ticket or lost.
      expect(cell.claims + cell.lost).toBe(120 * (options.sybilAccounts + options.honestAccounts))
      expect(cell.claims).toBe(120 * cell.replicas + cell.replaced)
      expect(cell.lost).toBeGreaterThan(0)
      // The seats are the k lowest tickets as computed off chain, in every race.
      expect(cell.mismatches).toBe(0)
      // Within 4 standard errors of the exact value (a 1-in-15,000 miss per cell for a sound race).
      expect(withinSamplingError(cell), JSON.stringify(cell)).toBe(true)
      // The first seat is the sybil's with probability f.
      expect(Math.abs(cell.firstSeat - cell.fraction)).toBeLessThanOrEqual(
        4 * Math.sqrt((cell.fraction * (1 - cell.fraction)) / cell.tasks),
      )
    }
  })
})
