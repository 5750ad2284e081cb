import { describe, expect, it } from 'vitest'
import { formatSigned, formatTable, type StrategyRow } from './table.js'

const rows: StrategyRow[] = [
  {
    name: 'lazy-provider',
    role: 'provider',
    profitVsHonest: 0.4123,
    ci95: [0.4011, 0.4234],
    beatsHonest: true,
    seeds: 10,
    doc: 'returns a made-up result',
  },
  {
    name: 'no-show',
    role: 'client',
    profitVsHonest: -0.03,
    ci95: [-0.05, -0.01],
    beatsHonest: false,
    seeds: 10,
    doc: 'never pays',
  },
]

describe('formatSigned', () => {
  it('always writes the sign and three decimals', () => {
    expect(formatSigned(0.4123)).toBe('+0.412')
    expect(formatSigned(-0.03)).toBe('-0.030')
    expect(formatSigned(0)).toBe('+0.000')
    expect(formatSigned(12)).toBe('+12.000')
  })

  it('never writes -0.000 or NaN', () => {
    expect(formatSigned(-0)).toBe('+0.000')
    expect(formatSigned(-0.0001)).toBe('+0.000')
    expect(formatSigned(Number.NaN)).toBe('n/a')
  })
})

describe('formatTable', () => {
  const table = formatTable(rows, 'Strategies vs honest (10 seeds)')
  const lines = table.split('\n')

  it('starts with the title and has the five column headers', () => {
    expect(lines[0]).toBe('Strategies vs honest (10 seeds)')
    for (const header of ['strategy', 'role', 'profit vs honest', '95% interval', 'verdict']) {
      expect(table).toContain(header)
    }
  })

  it('writes each row with signed numbers, its interval and its verdict', () => {
    const lazy = lines.find((line) => line.startsWith('lazy-provider'))!
    expect(lazy).toContain('provider')
    expect(lazy).toContain('+0.412')
    expect(lazy).toContain('[+0.401, +0.423]')
    expect(lazy).toContain('BEATS HONEST')
    const noShow = lines.find((line) => line.startsWith('no-show'))!
    expect(noShow).toContain('-0.030')
    expect(noShow).toContain('[-0.050, -0.010]')
    expect(noShow).toMatch(/does not$/)
  })

  it('aligns the columns', () => {
    const header = lines.find((line) => line.startsWith('strategy'))!
    const data = lines.filter((line) => line.startsWith('lazy-provider') || line.startsWith('no-show'))
    const verdictColumn = header.indexOf('verdict')
    for (const line of data) {
      expect(line.slice(verdictColumn)).toMatch(/^(BEATS HONEST|does not)$/)
      expect(line.indexOf('[')).toBe(data[0]!.indexOf('['))
    }
  })

  it('draws rules with ─ as wide as the header', () => {
    const header = lines.find((line) => line.startsWith('strategy'))!
    const rules = lines.filter((line) => /^─+$/.test(line))
    expect(rules).toHaveLength(3)
    expect(rules[0]!.length).toBeGreaterThanOrEqual(header.length)
  })

  it('ends with the one-line legend', () => {
    expect(lines.at(-1)).toBe(
      'profit vs honest: extra profit per task of the deviating participant over the same participant playing honest, as a fraction of the mean task price',
    )
  })

  it('says so when there are no strategies', () => {
    expect(formatTable([], 'empty')).toContain('(no strategies)')
  })
})
