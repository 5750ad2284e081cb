import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { toResults, writeResults } from './results.js'
import type { StrategyRow } from './table.js'

const row = (name: string, profitVsHonest: number, beatsHonest: boolean): StrategyRow => ({
  name,
  role: 'provider',
  profitVsHonest,
  ci95: [profitVsHonest - 0.25, profitVsHonest + 0.25],
  beatsHonest,
  seeds: 5,
  doc: '',
})

describe('toResults', () => {
  it('keys the strategies by name with snake_case fields', () => {
    const results = toResults({ seeds: 5, collateralBps: 5000 }, [
      row('lazy', 0.5, true),
      row('idle', -0.25, false),
    ])
    expect(results).toEqual({
      params: { seeds: 5, collateralBps: 5000 },
      strategies: {
        lazy: { profit_vs_honest: 0.5, ci95: [0.25, 0.75], beats_honest: true },
        idle: { profit_vs_honest: -0.25, ci95: [-0.5, 0], beats_honest: false },
      },
    })
  })

  it('adds the extra fields after params and strategies', () => {
    const results = toResults({}, [], { sweep: { parameter: 'x' }, wallSeconds: 3 })
    expect(Object.keys(results)).toEqual(['params', 'strategies', 'sweep', 'wallSeconds'])
  })

  it('refuses two rows with one name and extras that would overwrite', () => {
    expect(() => toResults({}, [row('a', 0, false), row('a', 1, true)])).toThrow(/two rows are named "a"/)
    expect(() => toResults({}, [], { params: {} })).toThrow(RangeError)
    expect(() => toResults({}, [], { strategies: {} })).toThrow(RangeError)
  })
})

describe('writeResults', () => {
  const directories: string[] = []
  afterAll(async () => {
    for (const directory of directories) await rm(directory, { recursive: true, force: true })
  })
  const temporary = async () => {
    const directory = await mkdtemp(path.join(tmpdir(), 'sim-results-'))
    directories.push(directory)
    return directory
  }

  it('creates the directory and writes pretty JSON with bigints as decimal strings', async () => {
    const file = path.join(await temporary(), 'deep', 'er', 'run.json')
    const results = toResults({ price: 10n ** 18n }, [row('lazy', 0.4, true)], { total: 123n })
    const written = await writeResults(file, results)
    expect(written).toEqual({ json: file })
    const text = await readFile(file, 'utf8')
    expect(text).toContain('\n  "params": {')
    expect(text.endsWith('\n')).toBe(true)
    const parsed = JSON.parse(text)
    expect(parsed.params.price).toBe('1000000000000000000')
    expect(parsed.total).toBe('123')
    expect(parsed.strategies.lazy.beats_honest).toBe(true)
  })

  it('writes the chart beside the JSON with the same base name', async () => {
    const directory = await temporary()
    const file = path.join(directory, 'sweep.json')
    const written = await writeResults(file, toResults({}, []), '<svg></svg>\n')
    expect(written).toEqual({ json: file, svg: path.join(directory, 'sweep.svg') })
    expect(await readFile(path.join(directory, 'sweep.svg'), 'utf8')).toBe('<svg></svg>\n')
  })

  it('refuses a results file that the chart would overwrite', async () => {
    const file = path.join(await temporary(), 'chart.svg')
    await expect(writeResults(file, toResults({}, []), '<svg/>')).rejects.toThrow(RangeError)
  })
})
