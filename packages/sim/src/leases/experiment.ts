/**
 * The lease experiment: for each seed the honest lease world once, then one world per strategy in which only its
 * participant deviates. A strategy's sample for a seed is what its participant earned over what it earned
 * honestly in the same leases, per lease it had, as a fraction of the mean lease value (price × duration).
 * Every lease is checked against its timeline: the chain must record the end, the seconds paid and the penalty
 * the model predicted, or the model broke a rule and the run is an error.
 */
import type { Address } from 'viem'
import type { World } from '../market/world.js'
import type { SimParams } from '../params.js'
import { beatsHonest, meanInterval } from '../report/stats.js'
import type { StrategyRow } from '../report/table.js'
import type { LeaseSimParams } from './params.js'
import { leasePayoff } from './payoff.js'
import { type LeaseRunRecord, runLeases } from './run.js'
import type { LeaseStrategy } from './strategies.js'

export interface LeaseSample {
  seed: number
  relative: number
  /** The most the rules let the strategy take, in the same unit as `relative`. */
  bound: number
  leases: number
  measures: Record<string, number>
}

export interface LeaseOutcomeRow {
  strategy: LeaseStrategy
  samples: LeaseSample[]
  row: StrategyRow
  /** Mean of `bound` over the seeds. */
  bound: number
  /** Whether the interval lies above the bound: what fails `--check`. */
  beyondBound: boolean
  measures: Record<string, number>
}

export interface LeaseExperimentResult {
  outcomes: LeaseOutcomeRow[]
  runs: number
  leases: number
  transactions: number
  seconds: number
}

export interface LeaseExperimentOptions {
  world: World
  params: LeaseSimParams
  /** Gas price and GRID per ETH of the task simulation. */
  gas: Pick<SimParams, 'gasPriceGwei' | 'gridPerEth'>
  seeds: readonly number[]
  strategies: readonly LeaseStrategy[]
  onRun?: (info: { seed: number; name: string; record: LeaseRunRecord; ms: number }) => void
}

export async function runLeaseExperiment(options: LeaseExperimentOptions): Promise<LeaseExperimentResult> {
  const { world, params, gas, seeds, strategies } = options
  const started = performance.now()
  let runs = 0
  let leases = 0
  let transactions = 0
  const play = async (seed: number, name: string, strategy: LeaseStrategy | undefined) => {
    const runStarted = performance.now()
    const record = await runLeases(world, params, seed, strategy?.deviation)
    checkAgainstModel(record)
    runs++
    leases += record.leases.length
    transactions += record.transactions
    options.onRun?.({ seed, name, record, ms: performance.now() - runStarted })
    return record
  }
  const samples = new Map<LeaseStrategy, LeaseSample[]>(strategies.map((s) => [s, []]))
  for (const seed of seeds) {
    const honest = await play(seed, 'honest', undefined)
    for (const strategy of strategies) {
      const deviates = strategy.deviation.provider !== undefined || strategy.deviation.renter !== undefined
      const record = deviates ? await play(seed, strategy.name, strategy) : honest
      samples.get(strategy)?.push(compare(strategy, record, honest, params, gas, seed))
    }
  }
  const outcomes = strategies.map((strategy): LeaseOutcomeRow => {
    const own = samples.get(strategy) ?? []
    const interval = meanInterval(own.map((s) => s.relative))
    const bound = own.reduce((sum, s) => sum + s.bound, 0) / Math.max(1, own.length)
    const names = [...new Set(own.flatMap((s) => Object.keys(s.measures)))]
    return {
      strategy,
      samples: own,
      bound,
      // Above the bound: the interval of each seed's gain beyond what the rules let the strategy take lies above 0.
      beyondBound: beatsHonest(meanInterval(own.map((s) => s.relative - s.bound))),
      measures: Object.fromEntries(
        names.map((name) => [name, own.reduce((sum, s) => sum + (s.measures[name] ?? 0), 0) / own.length]),
      ),
      row: {
        name: strategy.name,
        role: strategy.role,
        profitVsHonest: interval.mean,
        ci95: interval.ci95,
        beatsHonest: beatsHonest(interval),
        seeds: own.length,
        doc: strategy.doc,
      },
    }
  })
  return { outcomes, runs, leases, transactions, seconds: (performance.now() - started) / 1000 }
}

/** The participant of `strategy`: provider 0 or renter 0 of the lease world. */
function participantOf(strategy: LeaseStrategy, record: LeaseRunRecord): Address {
  const index = strategy.deviation.provider?.index ?? strategy.deviation.renter?.index ?? 0
  const cast = strategy.role === 'provider' ? record.providers : record.renters
  return cast[index] as Address
}

function compare(
  strategy: LeaseStrategy,
  deviant: LeaseRunRecord,
  honest: LeaseRunRecord,
  params: LeaseSimParams,
  gas: Pick<SimParams, 'gasPriceGwei' | 'gridPerEth'>,
  seed: number,
): LeaseSample {
  const account = participantOf(strategy, honest)
  const mine = leasePayoff(deviant, account, params, gas)
  const reference = leasePayoff(honest, account, params, gas)
  const own = honest.leases.filter((l) => (strategy.role === 'provider' ? l.provider : l.renter) === account)
  const meanValue =
    honest.leases.reduce((sum, l) => sum + l.terms.pricePerSec * l.terms.durationSec, 0) /
    Math.max(1, honest.leases.length)
  const per = Math.max(1, own.length) * meanValue
  const boundSec = strategy.boundSec?.(honest.rules, params) ?? 0
  const bound = own.reduce((sum, l) => sum + boundSec * l.terms.pricePerSec, 0) / per
  return {
    seed,
    relative: (mine.total - reference.total) / per,
    bound,
    leases: own.length,
    measures: measure(deviant, account, strategy.role),
  }
}

/** The participant's leases in a run: penalties, ends, service given or got and not paid, reports. */
export function measure(record: LeaseRunRecord, account: Address, role: LeaseStrategy['role']) {
  const own = record.leases.filter((l) => (role === 'provider' ? l.provider : l.renter) === account)
  const measures: Record<string, number> = {
    leases: own.length,
    penalties: 0,
    penalty_grid: 0,
    served_sec: 0,
    paid_sec: 0,
    served_unpaid_sec: 0,
    cut_off: 0,
    reports: 0,
    reports_answered: 0,
  }
  const add = (name: string, value: number) => {
    measures[name] = (measures[name] ?? 0) + value
  }
  for (const lease of own) {
    const entry = record.books.lease(lease.leaseId)
    add('penalties', entry.penalty > 0n ? 1 : 0)
    add('penalty_grid', Number(entry.penalty) / 1e18)
    add('served_sec', lease.timeline.servedSec)
    add('paid_sec', entry.servedSec)
    add('served_unpaid_sec', Math.max(0, lease.timeline.servedSec - entry.servedSec))
    add('cut_off', lease.timeline.cutAt === undefined ? 0 : 1)
    add('reports', entry.reports)
    add('reports_answered', entry.reportsAnswered)
    add(`end_${entry.reason ?? 'None'}`, 1)
  }
  return measures
}

/** Throws when the chain recorded a lease otherwise than its timeline predicted. */
export function checkAgainstModel(record: LeaseRunRecord) {
  for (const lease of record.leases) {
    const entry = record.books.lease(lease.leaseId)
    const { timeline } = lease
    const penalty = entry.penalty > 0n
    if (
      entry.reason !== timeline.reason ||
      entry.servedSec !== timeline.redeemedSec ||
      penalty !== timeline.penalty ||
      entry.reports !== timeline.reports ||
      entry.reportsAnswered !== timeline.reportsAnswered
    ) {
      throw new Error(
        `sim: lease ${lease.leaseId} (${lease.plays.provider} provider, ${lease.plays.renter} renter) settled ${entry.reason} with ${entry.servedSec} s paid, penalty ${penalty}, ${entry.reportsAnswered}/${entry.reports} reports answered; the model said ${timeline.reason}, ${timeline.redeemedSec} s, ${timeline.penalty}, ${timeline.reportsAnswered}/${timeline.reports}`,
      )
    }
  }
}
