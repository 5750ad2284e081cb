import { describe, expect, test } from 'vitest'
import {
  assumedWriteBytesPerMs,
  minOutputPollMs,
  nextOutputMeasurement,
  outputPollMsPerEntry,
} from './runWatch.js'

const gib = 2 ** 30
const mib = 2 ** 20

describe('nextOutputMeasurement', () => {
  const base = { size: 0, maxOutputBytes: gib, bytesPerMs: 0, entries: 1, maxGapMs: 500 }

  test('far from the cap: the time the assumed speed needs to fill it, at most maxGapMs', () => {
    expect(nextOutputMeasurement(base)).toBe(Math.floor(gib / assumedWriteBytesPerMs))
    expect(nextOutputMeasurement(base)).toBe(125)
    expect(nextOutputMeasurement({ ...base, maxOutputBytes: 100 * gib })).toBe(500)
  })

  test('the gap shrinks as the directory nears the cap, down to minOutputPollMs', () => {
    const gaps = [0, 0.5, 0.9, 0.99, 0.999, 1].map((fraction) =>
      nextOutputMeasurement({ ...base, size: Math.floor(fraction * gib) }),
    )
    expect(gaps).toEqual([125, 62, 12, minOutputPollMs, minOutputPollMs, minOutputPollMs])
  })

  test('a task measured writing faster than assumed is measured sooner', () => {
    // 32 GiB/s measured (4× the assumption): a quarter of the gap.
    expect(nextOutputMeasurement({ ...base, bytesPerMs: 4 * assumedWriteBytesPerMs })).toBe(31)
    // Slower than assumed: the assumption holds.
    expect(nextOutputMeasurement({ ...base, bytesPerMs: mib })).toBe(125)
  })

  test('a directory of many entries is measured less often, by what a walk costs', () => {
    expect(outputPollMsPerEntry).toBe(0.1)
    expect(nextOutputMeasurement({ ...base, size: gib - 1, entries: 100 })).toBe(minOutputPollMs)
    expect(nextOutputMeasurement({ ...base, size: gib - 1, entries: 2_000 })).toBe(200)
    expect(nextOutputMeasurement({ ...base, entries: 1_000_000 })).toBe(500)
  })
})
