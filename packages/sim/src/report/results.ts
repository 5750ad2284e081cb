import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { StrategyRow } from './table.js'

/** What a simulator run writes to disk: its parameters, each strategy's verdict, and whatever else the run adds. */
export interface SimResults {
  params: Record<string, unknown>
  strategies: Record<string, { profit_vs_honest: number; ci95: [number, number]; beats_honest: boolean }>
  [extra: string]: unknown
}

/**
 * The results file's shape from the report's rows, keyed by strategy name with
 * snake_case fields, so scripts and later runs can diff verdicts without
 * parsing the table. `extra` adds top-level fields (a sweep, timings).
 *
 * @throws RangeError when two rows share a name, or `extra` would overwrite `params` or `strategies`.
 */
export function toResults(
  params: Record<string, unknown>,
  rows: readonly StrategyRow[],
  extra?: Record<string, unknown>,
): SimResults {
  const strategies: SimResults['strategies'] = {}
  for (const row of rows) {
    if (Object.hasOwn(strategies, row.name)) {
      throw new RangeError(`two rows are named "${row.name}"; each strategy may appear once in the results`)
    }
    strategies[row.name] = {
      profit_vs_honest: row.profitVsHonest,
      ci95: [row.ci95[0], row.ci95[1]],
      beats_honest: row.beatsHonest,
    }
  }
  for (const key of ['params', 'strategies']) {
    if (extra !== undefined && Object.hasOwn(extra, key)) {
      throw new RangeError(`extra must not hold "${key}": it would overwrite the results' own "${key}"`)
    }
  }
  return { params, strategies, ...extra }
}

/** JSON.stringify cannot write bigints (token amounts are bigints): write them as decimal strings. */
function bigintAsString(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value
}

/**
 * Writes the results as pretty JSON to `file` (creating its directory), and the
 * chart, when given, beside it with the same base name and `.svg`, so a run's
 * numbers and its picture travel together. Returns the paths written.
 *
 * @throws RangeError when `file` itself ends in `.svg` (the chart would overwrite it).
 */
export async function writeResults(
  file: string,
  results: SimResults,
  svg?: string,
): Promise<{ json: string; svg?: string }> {
  const parsed = path.parse(file)
  const svgFile = path.join(parsed.dir, `${parsed.name}.svg`)
  if (svg !== undefined && path.resolve(svgFile) === path.resolve(file)) {
    throw new RangeError(`results file ${file} ends in .svg, where the chart goes; name it .json instead`)
  }
  await mkdir(parsed.dir === '' ? '.' : parsed.dir, { recursive: true })
  await writeFile(file, `${JSON.stringify(results, bigintAsString, 2)}\n`)
  if (svg === undefined) return { json: file }
  await writeFile(svgFile, svg)
  return { json: file, svg: svgFile }
}
