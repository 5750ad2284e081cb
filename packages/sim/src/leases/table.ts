/**
 * The lease table of `pnpm sim`: the lease strategies against honest play, printed after the task table (or
 * alone with `--leases`), written to sim.json under `leases`, and checked by `--check` with the task table's rule:
 * a strategy whose interval lies above its bound on the first seeds is played again on fresh seeds and fails the
 * check only if it lies above there too.
 */
import type { World } from '../market/world.js'
import type { SimParams } from '../params.js'
import { formatSigned, formatTable } from '../report/table.js'
import { type LeaseExperimentResult, runLeaseExperiment } from './experiment.js'
import { defaultLeaseSimParams, type LeaseSimParams } from './params.js'
import { type LeaseStrategy, leaseStrategies } from './strategies.js'

export interface LeaseTableOptions {
  world: World
  gas: Pick<SimParams, 'gasPriceGwei' | 'gridPerEth'>
  seeds: readonly number[]
  /** Seeds of the second play of a strategy above its bound (only with `check`). */
  confirmSeeds: readonly number[]
  check: boolean
  params?: LeaseSimParams
  strategies?: readonly LeaseStrategy[]
  write: (line: string) => void
  log: (line: string) => void
}

export interface LeaseTableResult {
  /** What goes under `leases` in sim.json. */
  results: Record<string, unknown>
  /** Strategies above their bound on the first seeds and on the fresh ones: what fails `--check`. */
  failing: string[]
  runs: number
  leases: number
  seconds: number
}

/** What a lease row's number means. */
const leaseLegend =
  'profit vs honest: extra profit per lease of the deviating participant over the same participant playing honest in the same leases, as a fraction of the mean lease value (price × duration)'

export async function playLeaseTable(options: LeaseTableOptions): Promise<LeaseTableResult> {
  const params = options.params ?? defaultLeaseSimParams
  const strategies = options.strategies ?? leaseStrategies
  const { world, gas, seeds, log, write } = options
  log(`sim: ${strategies.length} lease strategies × ${seeds.length} seeds (${params.leases} leases a run)`)
  const onRun = ({
    seed,
    name,
    record,
    ms,
  }: {
    seed: number
    name: string
    record: { transactions: number }
    ms: number
  }) =>
    log(
      `  seed ${seed} ${name.padEnd(22)} ${params.leases} leases, ${record.transactions} txs, ${Math.round(ms)} ms`,
    )
  const table = await runLeaseExperiment({ world, params, gas, seeds, strategies, onRun })
  write(
    formatTable(
      table.outcomes.map((o) => o.row),
      `Lease strategies against honest play (${seeds.length} seeds)`,
      leaseLegend,
    ),
  )
  for (const line of leaseMeasureLines(table)) write(line)

  const flagged = table.outcomes.filter((o) => o.beyondBound).map((o) => o.strategy.name)
  let failing = flagged
  let confirmation: LeaseExperimentResult | undefined
  if (options.check && flagged.length > 0) {
    log(
      `sim --check: ${flagged.join(', ')} beat honest on ${seeds.length} seeds: playing again on fresh seeds`,
    )
    confirmation = await runLeaseExperiment({
      world,
      params,
      gas,
      seeds: options.confirmSeeds,
      strategies: strategies.filter((s) => flagged.includes(s.name)),
      onRun,
    })
    write(
      formatTable(
        confirmation.outcomes.map((o) => o.row),
        `Flagged lease strategies on ${options.confirmSeeds.length} fresh seeds`,
        leaseLegend,
      ),
    )
    failing = confirmation.outcomes.filter((o) => o.beyondBound).map((o) => o.strategy.name)
  }
  return {
    results: {
      params,
      seeds: seeds.length,
      strategies: rowsOf(table),
      samples: Object.fromEntries(
        table.outcomes.map((o) => [o.strategy.name, o.samples.map((s) => s.relative)]),
      ),
      measures: Object.fromEntries(table.outcomes.map((o) => [o.strategy.name, o.measures])),
      ...(confirmation === undefined
        ? {}
        : { confirmation: { seeds: options.confirmSeeds, strategies: rowsOf(confirmation) } }),
      runs: table.runs + (confirmation?.runs ?? 0),
      leases_simulated: table.leases + (confirmation?.leases ?? 0),
      transactions: table.transactions + (confirmation?.transactions ?? 0),
      seconds: Math.round((table.seconds + (confirmation?.seconds ?? 0)) * 10) / 10,
    },
    failing,
    runs: table.runs + (confirmation?.runs ?? 0),
    leases: table.leases + (confirmation?.leases ?? 0),
    seconds: table.seconds + (confirmation?.seconds ?? 0),
  }
}

function rowsOf(result: LeaseExperimentResult) {
  return Object.fromEntries(
    result.outcomes.map((o) => [
      o.strategy.name,
      {
        profit_vs_honest: o.row.profitVsHonest,
        ci95: o.row.ci95,
        beats_honest: o.row.beatsHonest,
        bound: o.bound,
        beyond_bound: o.beyondBound,
      },
    ]),
  )
}

/** Each strategy's bound (where the rules allow it something) and its measured figures, per run. */
export function leaseMeasureLines(result: LeaseExperimentResult): string[] {
  return result.outcomes.flatMap((o) => {
    const m = o.measures
    const ends = Object.entries(m)
      .filter(([name]) => name.startsWith('end_'))
      .map(([name, count]) => `${name.slice(4)} ${count.toFixed(1)}`)
      .join(', ')
    const lines = [
      `${o.strategy.name}: per run ${m.leases?.toFixed(1)} leases; ends ${ends}; penalties ${m.penalties?.toFixed(1)} (${m.penalty_grid?.toFixed(2)} GRID); served ${m.served_sec?.toFixed(0)} s, paid ${m.paid_sec?.toFixed(0)} s, served unpaid ${m.served_unpaid_sec?.toFixed(0)} s; cut off ${m.cut_off?.toFixed(1)}; offline reports ${m.reports?.toFixed(1)} (answered ${m.reports_answered?.toFixed(1)})`,
    ]
    if (o.bound > 0) {
      lines.push(
        `${o.strategy.name}: the rules let it take at most ${formatSigned(o.bound)} (the gateway's cut-off); ${o.beyondBound ? 'ABOVE that bound: the check fails' : 'not above it: the check passes'}`,
      )
    }
    return lines
  })
}
