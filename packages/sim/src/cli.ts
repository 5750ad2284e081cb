/**
 * `pnpm sim`: plays every strategy against honest work on the real contracts and reports what each earns
 * over honest, with a 95% interval over seeds; `--check` fails when any strategy beats honest.
 *
 * `--check` (CI) runs the defaults over 5 seeds and the capture table, no sweeps (they report, they do not
 * check), and writes no results file unless `--out` says where. A strategy whose interval lies above 0 there is played again on fresh seeds (CONFIRM_SEEDS on from
 * seed 1001): the check fails only when it beats honest there too. Fifteen strategies tested at 95 % each would
 * flag one by chance about half the time; a chance flag must now come twice on independent seeds (2.5 % × 2.5 %
 * per strategy), while a real edge shows up on both. Seeds are fixed, so the check gives the same answer on every
 * machine.
 *
 * Without flags it runs the CI grid: the defaults over 5 seeds, and collateralBps at its bounds over 2 seeds,
 * then the capture table (`--capture` alone): how often a sybil with a fraction f of the stake holds a majority
 * of a k = 2 or 3 task's seats, measured on the chain against the exact value of the stake-weighted race.
 * After it comes the lease table (`--leases` alone, `src/leases/`): the lease strategies against honest play on
 * LeaseMarket, checked by `--check` with the same rule of fresh seeds.
 * `--full` runs 10 seeds and sweeps collateralBps (every strategy) and sybilFraction (the sybil operator).
 * Writes bench/results/sim.json and, beside it, one SVG chart per sweep.
 */
import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  type CaptureResult,
  captureLines,
  captureMeasures,
  defaultCaptureOptions,
  measureCapture,
  withinSamplingError,
} from './capture.js'
import { parseSimArgs, SimArgsError, type SweepSpec, simUsage } from './cli/args.js'
import { type ExperimentResult, runExperiment, Session, strategiesBeatingHonest } from './experiment.js'
import { type LeaseTableResult, playLeaseTable } from './leases/table.js'
import { resolveParams, SimParamError, type SimParams } from './params.js'
import { auditLines, auditMeasures } from './report/audits.js'
import { type SweepSeries, sweepChartSvg } from './report/chart.js'
import { raceLine, raceMeasures } from './report/races.js'
import { toResults, writeResults } from './report/results.js'
import { formatTable } from './report/table.js'
import { strategies as allStrategies } from './strategies/index.js'
import type { Strategy } from './strategies/types.js'

const defaultOut = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../bench/results/sim.json',
)

/** A sweep and the strategies it concerns (undefined: all that were asked for). */
interface Sweep extends SweepSpec {
  strategies?: readonly string[]
}

const ciSweeps: Sweep[] = [{ parameter: 'collateralBps', values: [2_000, 20_000] }]
/** Fresh seeds on which `--check` plays a strategy again that beat honest on the first seeds. */
const CONFIRM_SEEDS = 10
/** The first of those seeds: far from the seeds of any run of the grid. */
const CONFIRM_FIRST_SEED = 1001
const fullSweeps: Sweep[] = [
  { parameter: 'collateralBps', values: [2_000, 6_500, 11_000, 15_500, 20_000] },
  { parameter: 'sybilFraction', values: [0.1, 0.2, 0.3, 0.4, 0.5], strategies: ['sybil-operator'] },
]

async function main(argv: readonly string[]): Promise<number> {
  const args = parseSimArgs(argv)
  if (args.help) {
    process.stdout.write(simUsage)
    return 0
  }
  const params = resolveParams(args.set)
  const strategies = pick(args.strategies)
  const seedCount = args.seeds ?? (args.full ? 10 : 5)
  const sweepSeedCount = args.seeds ?? (args.full ? 10 : 2)
  const sweeps: Sweep[] =
    args.sweeps.length > 0 ? args.sweeps : args.full ? fullSweeps : args.check ? [] : ciSweeps
  for (const sweep of sweeps) resolveParams({ ...args.set, [sweep.parameter]: sweep.values[0] as number })
  const log = (line: string) => {
    if (!args.quiet) process.stderr.write(`${line}\n`)
  }

  const started = performance.now()
  const session = await Session.open()
  const captureOptions = { ...defaultCaptureOptions, tasks: args.full ? 1000 : defaultCaptureOptions.tasks }
  try {
    if (args.capture) {
      log(`sim: the capture table (${captureOptions.tasks} tasks per cell)`)
      const capture = await measureCapture(session, captureOptions, log)
      for (const line of captureLines(capture)) process.stdout.write(`${line}\n`)
      if (args.out !== undefined) {
        await writeFile(args.out, `${JSON.stringify({ capture: captureMeasures(capture) }, null, 2)}\n`)
        process.stdout.write(`wrote ${args.out}\n`)
      }
      return args.check && !captureHolds(capture) ? 1 : 0
    }
    const leaseTable = () =>
      session.world(params).then((world) =>
        playLeaseTable({
          world,
          gas: params,
          seeds: seeds(seedCount),
          confirmSeeds: seeds(CONFIRM_SEEDS, CONFIRM_FIRST_SEED),
          check: args.check,
          write: (line) => process.stdout.write(`${line}\n`),
          log,
        }),
      )
    if (args.leases) {
      const leases = await leaseTable()
      process.stdout.write(
        `${leases.runs} lease runs, ${leases.leases} leases in ${leases.seconds.toFixed(1)} s\n`,
      )
      if (args.out !== undefined) {
        await writeFile(args.out, `${JSON.stringify({ leases: leases.results }, null, 2)}\n`)
        process.stdout.write(`wrote ${args.out}\n`)
      }
      return args.check ? leaseCheck(leases) : 0
    }
    log(`sim: ${strategies.length} strategies × ${seedCount} seeds at the defaults`)
    const table = await runExperiment(session, {
      params,
      seeds: seeds(seedCount),
      strategies,
      onRun: ({ seed, name, record, ms }) =>
        log(
          `  seed ${seed} ${name.padEnd(20)} ${record.tasks.length} tasks, ${record.transactions} txs, ${Math.round(ms)} ms`,
        ),
    })
    const rows = table.outcomes.map((o) => o.row)
    process.stdout.write(`${formatTable(rows, `Strategies against honest work (${seedCount} seeds)`)}\n`)
    for (const line of measureLines(table, params)) process.stdout.write(`${line}\n`)

    const sweepResults: SweepResult[] = []
    for (const sweep of sweeps) {
      const result = await runSweep(session, sweep, strategies, args.set, sweepSeedCount, log)
      if (result !== undefined) sweepResults.push(result)
    }

    // The capture and lease tables belong to the CI grid (and the full run), not to a run of chosen strategies or
    // sweeps.
    let capture: CaptureResult | undefined
    let leases: LeaseTableResult | undefined
    if (args.strategies === undefined && args.sweeps.length === 0) {
      log(`sim: the capture table (${captureOptions.tasks} tasks per cell)`)
      capture = await measureCapture(session, captureOptions, log)
      for (const line of captureLines(capture)) process.stdout.write(`${line}\n`)
      leases = await leaseTable()
    }

    const seconds = (performance.now() - started) / 1000
    const runs =
      table.runs + sweepResults.reduce((n, s) => n + s.points.reduce((m, p) => m + p.result.runs, 0), 0)
    const tasks =
      table.tasks + sweepResults.reduce((n, s) => n + s.points.reduce((m, p) => m + p.result.tasks, 0), 0)
    const flagged = strategiesBeatingHonest(table)
    let beating = flagged
    let confirmation: ExperimentResult | undefined
    if (args.check && flagged.length > 0) {
      log(
        `sim --check: ${flagged.join(', ')} beat honest on ${seedCount} seeds: playing again on ${CONFIRM_SEEDS} fresh seeds`,
      )
      confirmation = await runExperiment(session, {
        params,
        seeds: seeds(CONFIRM_SEEDS, CONFIRM_FIRST_SEED),
        strategies: strategies.filter((s) => flagged.includes(s.name)),
        onRun: ({ seed, name, record, ms }) =>
          log(`  seed ${seed} ${name.padEnd(20)} ${record.tasks.length} tasks, ${Math.round(ms)} ms`),
      })
      process.stdout.write(
        `${formatTable(
          confirmation.outcomes.map((o) => o.row),
          `Flagged strategies on ${CONFIRM_SEEDS} fresh seeds (${CONFIRM_FIRST_SEED}..${CONFIRM_FIRST_SEED + CONFIRM_SEEDS - 1})`,
        )}\n`,
      )
      beating = strategiesBeatingHonest(confirmation)
    }
    const results = toResults(params as unknown as Record<string, unknown>, rows, {
      seeds: seedCount,
      samples: Object.fromEntries(
        table.outcomes.map((o) => [o.strategy.name, o.samples.map((x) => x.relative)]),
      ),
      measures: {
        ...measuresOf(table),
        ...(capture === undefined ? {} : { capture: captureMeasures(capture) }),
      },
      ...(leases === undefined ? {} : { leases: leases.results }),
      sweeps: sweepResults.map(({ parameter, values, seeds: n, series, points }) => ({
        parameter,
        values,
        seeds: n,
        series,
        measures: points.map(({ x, result }) => ({ x, ...measuresOf(result) })),
      })),
      ...(confirmation === undefined
        ? {}
        : {
            confirmation: {
              seeds: seeds(CONFIRM_SEEDS, CONFIRM_FIRST_SEED),
              strategies: Object.fromEntries(
                confirmation.outcomes.map((o) => [
                  o.strategy.name,
                  {
                    profit_vs_honest: o.row.profitVsHonest,
                    ci95: o.row.ci95,
                    beats_honest: o.row.beatsHonest,
                  },
                ]),
              ),
            },
          }),
      runs: runs + (confirmation?.runs ?? 0),
      tasks_simulated: tasks + (confirmation?.tasks ?? 0),
      seconds: Math.round(seconds * 10) / 10,
      tasks_per_second: Math.round((tasks / seconds) * 10) / 10,
    })
    process.stdout.write(
      `${runs} runs, ${tasks} tasks in ${seconds.toFixed(1)} s: ${(tasks / seconds).toFixed(1)} tasks simulated per second\n`,
    )
    // A check (CI) leaves bench/results/sim.json, the full grid's figures, as it is unless told where to write.
    const out = args.out ?? (args.check ? undefined : defaultOut)
    if (out !== undefined) {
      const [first, ...others] = sweepResults
      const written = await writeResults(out, results, first === undefined ? undefined : chartOf(first))
      for (const sweep of others) {
        const file = `${out.replace(/\.json$/, '')}-${sweep.parameter}.svg`
        await writeFile(file, chartOf(sweep))
        log(`sim: wrote ${file}`)
      }
      process.stdout.write(`wrote ${written.json}${written.svg === undefined ? '' : ` and ${written.svg}`}\n`)
    }
    if (!args.check) return 0
    // Every failure is reported, not only the first.
    let code = 0
    if (beating.length > 0) {
      process.stderr.write(`sim --check: ${beating.join(', ')} beat honest work at the defaults\n`)
      code = 1
    }
    if (leases !== undefined && leaseCheck(leases) !== 0) code = 1
    if (capture !== undefined && !captureHolds(capture)) code = 1
    return code
  } finally {
    await session.close()
  }
}

/** 1 (reported) when a lease strategy beat honest play beyond what the rules let it take, on both sets of seeds. */
function leaseCheck(leases: LeaseTableResult): number {
  if (leases.failing.length === 0) return 0
  process.stderr.write(
    `sim --check: lease strategies ${leases.failing.join(', ')} beat honest play at the defaults\n`,
  )
  return 1
}

/** Whether the chain's seat races give what the exact stake-weighted race says (reported when they do not). */
function captureHolds(capture: CaptureResult): boolean {
  const off = capture.cells.filter((cell) => !withinSamplingError(cell))
  for (const cell of off) {
    process.stderr.write(
      `sim --check: capture at f = ${cell.fraction}, k = ${cell.replicas}: measured ${cell.measured.toFixed(4)}, exact ${cell.exact.toFixed(4)} (σ ${cell.sigma.toFixed(4)}), ${cell.mismatches} seats not the lowest tickets\n`,
    )
  }
  return off.length === 0
}

interface SweepResult {
  parameter: string
  values: number[]
  seeds: number
  series: SweepSeries[]
  points: { x: number; result: ExperimentResult }[]
}

/** Runs the strategies `sweep` concerns at each of its values; undefined when it concerns none of them. */
async function runSweep(
  session: Session,
  sweep: Sweep,
  strategies: readonly Strategy[],
  set: Record<string, number>,
  seedCount: number,
  log: (line: string) => void,
): Promise<SweepResult | undefined> {
  const concerned =
    sweep.strategies === undefined ? strategies : strategies.filter((s) => sweep.strategies?.includes(s.name))
  if (concerned.length === 0) return undefined
  log(
    `sim: sweeping ${sweep.parameter} over ${sweep.values.join(', ')} (${concerned.length} strategies × ${seedCount} seeds)`,
  )
  const points: SweepResult['points'] = []
  for (const x of sweep.values) {
    const swept = resolveParams({ ...set, [sweep.parameter]: x })
    const result = await runExperiment(session, {
      params: swept,
      seeds: seeds(seedCount),
      strategies: concerned,
    })
    log(`  ${sweep.parameter} = ${x}: ${result.runs} runs in ${result.seconds.toFixed(1)} s`)
    for (const line of measureLines(result, swept)) log(`    ${line}`)
    points.push({ x, result })
  }
  const series = concerned.map((strategy, i) => ({
    name: strategy.name,
    points: points.map(({ x, result }) => {
      const row = (result.outcomes[i] as (typeof result.outcomes)[number]).row
      return { x, mean: row.profitVsHonest, ci95: row.ci95 }
    }),
  }))
  return { parameter: sweep.parameter, values: sweep.values, seeds: seedCount, series, points }
}

function chartOf(sweep: SweepResult): string {
  return sweepChartSvg({
    title: `Profit over honest work against ${sweep.parameter} (${sweep.seeds} seeds, 95% intervals)`,
    xLabel: sweep.parameter,
    yLabel: 'extra profit per task / mean task price',
    series: sweep.series,
  })
}

/**
 * Each strategy's own figures (mean over seeds), for the strategies that have any, `audits`: what the audits of
 * held results and disputes did over every run of the experiment, and `seat_races`: what the races for the seats
 * of k > 1 tasks did.
 */
function measuresOf(result: ExperimentResult): Record<string, Record<string, number>> {
  const own = result.outcomes
    .filter((o) => Object.keys(o.measures).length > 0)
    .map((o): [string, Record<string, number>] => [o.strategy.name, o.measures])
  return Object.fromEntries([
    ...own,
    ['audits', auditMeasures(result.audits)],
    ['seat_races', raceMeasures(result.races)],
  ])
}

function measureLines(result: ExperimentResult, params: SimParams): string[] {
  return Object.entries(measuresOf(result)).flatMap(([name, measures]) =>
    name === 'audits'
      ? auditLines(measures, result.runs)
      : name === 'seat_races'
        ? [raceLine(measures)]
        : Object.entries(measures).map(([measure, value]) =>
            measure === 'capture_rate'
              ? `${name}: holds a majority of ${(value * 100).toFixed(0)}% of the consensus tasks with ${(params.sybilFraction * 100).toFixed(0)}% of the providers`
              : `${name}: ${measure} ${value.toFixed(3)}`,
          ),
  )
}

/** `count` seeds from `first` on. */
function seeds(count: number, first = 1): number[] {
  return Array.from({ length: count }, (_, i) => i + first)
}

function pick(names: readonly string[] | undefined): Strategy[] {
  if (names === undefined) return [...allStrategies]
  return names.map((name) => {
    const strategy = allStrategies.find((s) => s.name === name)
    if (strategy === undefined) {
      throw new SimArgsError(
        `unknown strategy "${name}"; the strategies are: ${allStrategies.map((s) => s.name).join(', ')}`,
      )
    }
    return strategy
  })
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code
  },
  (error: unknown) => {
    if (error instanceof SimArgsError || error instanceof SimParamError) {
      process.stderr.write(`sim: ${error.message}\n\n${simUsage}`)
      process.exitCode = 2
      return
    }
    process.stderr.write(`sim: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
    process.exitCode = 1
  },
)
