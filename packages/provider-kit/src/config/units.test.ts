import { describe, expect, it } from 'vitest'
import { formatSize, isTokenAmount, parseInterval, parseSize } from './units.js'

describe('parseSize', () => {
  it.each([
    ['2GiB', 2 * 1024 ** 3],
    ['512 MiB', 512 * 1024 ** 2],
    ['1.5GB', 1_500_000_000],
    ['100kB', 100_000],
    ['64kib', 65_536],
    ['10B', 10],
    ['4096', 4096],
    [4096, 4096],
    [0, 0],
  ])('%s is %d bytes', (value, bytes) => {
    expect(parseSize(value)).toBe(bytes)
  })

  it.each([['lots'], ['-1GiB'], ['1.5B'], ['2 GiBs'], [1.5], [-1], [true], ['1e3'], ['']])(
    'refuses %s',
    (value) => {
      expect(parseSize(value)).toBeUndefined()
    },
  )

  it('formats with the largest binary unit that divides', () => {
    expect([1024 ** 3, 3 * 1024 ** 2, 1536, 1000].map(formatSize)).toEqual(['1GiB', '3MiB', '1536B', '1000B'])
  })
})

describe('parseInterval', () => {
  it.each([
    ['500ms', 500],
    ['1s', 1000],
    ['1h30m', 5_400_000],
    ['1.5s', 1500],
    ['2d', 172_800_000],
  ])('%s is %d ms', (value, milliseconds) => {
    expect(parseInterval(value)).toBe(milliseconds)
  })

  it.each([['1'], ['1 second'], ['-1s'], ['0.5ms'], [1000], ['']])('refuses %s', (value) => {
    expect(parseInterval(value)).toBeUndefined()
  })
})

describe('isTokenAmount', () => {
  it('takes decimal strings only', () => {
    expect(['0', '100', '0.0001'].every(isTokenAmount)).toBe(true)
    expect([0.5, '-1', '1e18', '.5', '1.', ''].some(isTokenAmount)).toBe(false)
  })
})
