/** A sample mean with its two-sided 95% confidence interval. */
export interface Interval {
  mean: number
  ci95: [number, number]
}

/**
 * The 0.975 quantile of Student's t for 1..30 degrees of freedom (index = df − 1).
 * A table rather than an inverse CDF: the simulator runs a handful of seeds, and
 * thirty constants are easier to check against a textbook than a numerical routine.
 */
const tQuantile975 = [
  12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.306, 2.2622, 2.2281, 2.201, 2.1788, 2.1604,
  2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.093, 2.086, 2.0796, 2.0739, 2.0687, 2.0639, 2.0595, 2.0555,
  2.0518, 2.0484, 2.0452, 2.0423,
] as const

/** The normal quantile used above 30 degrees of freedom. */
const normalQuantile975 = 1.96

/**
 * The 0.975 quantile of Student's t with `df` degrees of freedom, so that
 * mean ± t·s/√n covers the true mean 95% of the time with few seeds (where
 * the normal 1.96 would be too narrow). Above df 30 it uses 1.96.
 */
export function tQuantile(df: number): number {
  if (!Number.isInteger(df) || df < 1) {
    throw new RangeError(`degrees of freedom must be a whole number ≥ 1, got ${df}`)
  }
  return tQuantile975[df - 1] ?? normalQuantile975
}

/**
 * The mean of per-seed results and a two-sided 95% Student-t interval for it
 * (sample standard deviation, n − 1), so a report can say how sure it is and
 * not just what one run happened to give. One sample gives a zero-width
 * interval (there is no spread to measure); so do equal samples.
 *
 * @throws RangeError when there are no samples, or when one is NaN or infinite.
 */
export function meanInterval(samples: readonly number[]): Interval {
  const n = samples.length
  if (n === 0) throw new RangeError('meanInterval needs at least one sample, got none')
  let min = Number.POSITIVE_INFINITY
  let max = Number.NEGATIVE_INFINITY
  let sum = 0
  for (const [index, sample] of samples.entries()) {
    if (!Number.isFinite(sample)) {
      throw new RangeError(`sample ${index} is ${sample}; every sample must be finite`)
    }
    sum += sample
    if (sample < min) min = sample
    if (sample > max) max = sample
  }
  // One sample, or equal samples: the value itself, not a sum divided back (0.1 × 3 / 3 ≠ 0.1).
  if (min === max) return { mean: min, ci95: [min, min] }
  const mean = sum / n
  let squares = 0
  for (const sample of samples) squares += (sample - mean) ** 2
  const halfWidth = (tQuantile(n - 1) * Math.sqrt(squares / (n - 1))) / Math.sqrt(n)
  return { mean, ci95: [mean - halfWidth, mean + halfWidth] }
}

/**
 * Whether a strategy beats honest work: true only when the whole 95% interval
 * of its profit over honest lies above `tolerance` (its lower bound > tolerance).
 * A mean above zero is not enough: with few seeds, noise alone puts half of the
 * no-better strategies above zero, and the report would cry wolf. The default
 * tolerance only absorbs rounding, so an exact tie never counts as a win.
 */
export function beatsHonest(interval: Interval, tolerance = 1e-9): boolean {
  return interval.ci95[0] > tolerance
}
