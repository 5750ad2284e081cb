import { describe, expect, it } from 'vitest'
import { beatsHonest, meanInterval, tQuantile } from './stats.js'

describe('tQuantile', () => {
  it('gives the textbook 0.975 quantiles', () => {
    expect(tQuantile(1)).toBeCloseTo(12.706, 3)
    expect(tQuantile(2)).toBeCloseTo(4.303, 3)
    expect(tQuantile(4)).toBeCloseTo(2.776, 3)
    expect(tQuantile(9)).toBeCloseTo(2.262, 3)
    expect(tQuantile(30)).toBeCloseTo(2.042, 3)
  })

  it('uses 1.96 above 30 degrees of freedom', () => {
    expect(tQuantile(31)).toBe(1.96)
    expect(tQuantile(1000)).toBe(1.96)
  })

  it('rejects degrees of freedom below 1 or fractional', () => {
    expect(() => tQuantile(0)).toThrow(RangeError)
    expect(() => tQuantile(2.5)).toThrow(RangeError)
  })
})

describe('meanInterval', () => {
  it('gives mean ± t·s/√n for [1, 2, 3]', () => {
    const { mean, ci95 } = meanInterval([1, 2, 3])
    expect(mean).toBe(2)
    const half = 4.303 / Math.sqrt(3)
    expect(ci95[0]).toBeCloseTo(2 - half, 3)
    expect(ci95[1]).toBeCloseTo(2 + half, 3)
  })

  it('uses the sample standard deviation (n − 1)', () => {
    // [2, 4, 4, 4, 5, 5, 7, 9]: mean 5, sample sd √(32/7), t(7) = 2.3646.
    const { mean, ci95 } = meanInterval([2, 4, 4, 4, 5, 5, 7, 9])
    const half = (2.3646 * Math.sqrt(32 / 7)) / Math.sqrt(8)
    expect(mean).toBe(5)
    expect(ci95[0]).toBeCloseTo(5 - half, 6)
    expect(ci95[1]).toBeCloseTo(5 + half, 6)
  })

  it('uses 1.96 for more than 31 samples', () => {
    const samples = Array.from({ length: 40 }, (_, index) => index % 2)
    const { mean, ci95 } = meanInterval(samples)
    const sd = Math.sqrt((40 * 0.25) / 39)
    expect(mean).toBe(0.5)
    expect(ci95[1] - mean).toBeCloseTo((1.96 * sd) / Math.sqrt(40), 12)
  })

  it('gives a zero-width interval for one sample', () => {
    expect(meanInterval([0.7])).toEqual({ mean: 0.7, ci95: [0.7, 0.7] })
  })

  it('gives a zero-width interval at the value itself for equal samples', () => {
    expect(meanInterval([0.1, 0.1, 0.1])).toEqual({ mean: 0.1, ci95: [0.1, 0.1] })
  })

  it('throws a RangeError for no samples', () => {
    expect(() => meanInterval([])).toThrow(RangeError)
  })

  it('throws a RangeError for a non-finite sample', () => {
    expect(() => meanInterval([1, Number.NaN])).toThrow(/sample 1 is NaN/)
    expect(() => meanInterval([Number.POSITIVE_INFINITY])).toThrow(RangeError)
  })
})

describe('beatsHonest', () => {
  it('is true only when the whole interval lies above the tolerance', () => {
    expect(beatsHonest({ mean: 0.4, ci95: [0.3, 0.5] })).toBe(true)
    expect(beatsHonest({ mean: 0.4, ci95: [-0.01, 0.8] })).toBe(false)
    expect(beatsHonest({ mean: -0.2, ci95: [-0.3, -0.1] })).toBe(false)
  })

  it('does not count a tie or rounding noise as a win', () => {
    expect(beatsHonest({ mean: 0, ci95: [0, 0] })).toBe(false)
    expect(beatsHonest({ mean: 1e-12, ci95: [1e-12, 1e-12] })).toBe(false)
  })

  it('takes a custom tolerance', () => {
    expect(beatsHonest({ mean: 0.05, ci95: [0.02, 0.08] }, 0.05)).toBe(false)
    expect(beatsHonest({ mean: 0.05, ci95: [0.02, 0.08] }, 0.01)).toBe(true)
  })
})
