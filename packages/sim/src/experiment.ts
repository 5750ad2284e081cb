/**
 * An experiment: every strategy against honest behaviour over several seeds, on one in-process chain.
 * Each seed runs the honest market once (and once per other baseline), then one market per strategy in
 * which only the strategy's participant deviates; the strategy's sample for that seed is what its
 * participant earned minus what the same participant earned honestly in the same market, per task it took
 * part in honestly, as a fraction of the mean task price.
 */
import type { Address } from 'viem'
import { type Chain, startChain } from './chain.js'
import type { RunRecord } from './market/engine.js'
import { type HonestBehaviours, honestBehaviours, runMarket } from './market/run.js'
import { accountsNeeded, setUpWorld, type World, type WorldShape } from './market/world.js'
import type { SimParams } from './params.js'
import { type Payoff, payoff } from './payoff.js'
import { type AuditSample, addAudits, emptyAuditSample } from './report/audits.js'
import { addRaces, emptyRaceSample, type RaceSample } from './report/races.js'
import { beatsHonest, meanInterval } from './report/stats.js'
import type { StrategyRow } from './report/table.js'
import { baselines } from './strategies/index.js'
import type { Deviation, Strategy } from './strategies/types.js'

/** Accounts of the simulation chain: enough for 30 providers and 6 clients. */
const CHAIN_ACCOUNTS = 40

/** One chain for a whole experiment (or several), with a set-up world per shape. */
export class Session {
  readonly #chain: Chain
  #deployed: `0x${string}`
  #world: World | undefined

  private constructor(chain: Chain, deployed: `0x${string}`) {
    this.#chain = chain
    this.#deployed = deployed
  }

  static async open(): Promise<Session> {
    const chain = await startChain({ accountCount: CHAIN_ACCOUNTS })
    return new Session(chain, await chain.snapshot())
  }

  /** The world of `params`' shape, set up from the fresh deployment when the shape changed. */
  async world(params: SimParams): Promise<World> {
    const shape: WorldShape = {
      providers: params.providers,
      clients: params.clients,
      providerStake: params.providerStake,
      sourceMaxRuntimeSec: params.sourceMaxRuntimeSec,
      failureFeeBps: params.failureFeeBps,
    }
    if (accountsNeeded(shape) > CHAIN_ACCOUNTS) {
      throw new RangeError(
        `sim: at most ${CHAIN_ACCOUNTS} accounts (providers + clients ≤ ${CHAIN_ACCOUNTS - 4})`,
      )
    }
    const current = this.#world
    if (current !== undefined && JSON.stringify(current.shape) === JSON.stringify(shape)) return current
    await this.#chain.revert(this.#deployed)
    this.#deployed = await this.#chain.snapshot()
    this.#world = await setUpWorld(this.#chain, shape)
    return this.#world
  }

  /**
   * The chain as deployed, nothing set up (for a measurement with a cast of its own, such as the capture table):
   * the next `world` sets its world up again.
   */
  async deployment(): Promise<Chain> {
    await this.#chain.revert(this.#deployed)
    this.#deployed = await this.#chain.snapshot()
    this.#world = undefined
    return this.#chain
  }

  close() {
    return this.#chain.close()
  }
}

export interface StrategySample {
  seed: number
  /** The sample: extra profit per task over honest, as a fraction of the mean task price. */
  relative: number
  deviant: Payoff
  honest: Payoff
  /** Tasks (clients) or slots (providers) of the participant in the honest market. */
  participation: number
  /** The strategy's own figures of its run (`Strategy.measure`). */
  measures: Record<string, number>
}

export interface StrategyOutcome {
  strategy: Strategy
  samples: StrategySample[]
  row: StrategyRow
  /** Mean of each of the strategy's own figures over the seeds. */
  measures: Record<string, number>
}

export interface ExperimentResult {
  outcomes: StrategyOutcome[]
  /** The audits of every run played (honest and deviating markets). */
  audits: AuditSample
  /** The seat races of every run played. */
  races: RaceSample
  runs: number
  /** Tasks submitted over all runs, and the wall-clock seconds they took. */
  tasks: number
  seconds: number
}

export interface ExperimentOptions {
  params: SimParams
  seeds: readonly number[]
  strategies: readonly Strategy[]
  /** What honest participants do (a test breaks it on purpose). */
  honest?: HonestBehaviours
  /** Called after every run. */
  onRun?: (info: { seed: number; name: string; record: RunRecord; ms: number }) => void
}

/** Plays every strategy of `options` against honest behaviour for each seed. */
export async function runExperiment(session: Session, options: ExperimentOptions): Promise<ExperimentResult> {
  const { params, seeds, strategies } = options
  const honest = options.honest ?? honestBehaviours
  const world = await session.world(params)
  const started = performance.now()
  let runs = 0
  let tasks = 0
  const audits = emptyAuditSample()
  const races = emptyRaceSample()
  const play = async (seed: number, name: string, deviation: Deviation | undefined) => {
    const runStarted = performance.now()
    const record = await runMarket(world, params, seed, deviation, honest)
    runs++
    tasks += record.tasks.length
    addAudits(audits, record.tasks)
    addRaces(races, record.tasks)
    options.onRun?.({ seed, name, record, ms: performance.now() - runStarted })
    return record
  }

  const samples = new Map<Strategy, StrategySample[]>(strategies.map((s) => [s, []]))
  for (const seed of seeds) {
    const baselineRuns = new Map<string, RunRecord>()
    const baselineOf = async (name: string) => {
      let record = baselineRuns.get(name)
      if (record === undefined) {
        const strategy = baselines[name]
        record = await play(seed, name, strategy?.deviate(world.cast, params))
        baselineRuns.set(name, record)
      }
      return record
    }
    for (const strategy of strategies) {
      const deviation = strategy.deviate(world.cast, params)
      const baseline = strategy.baseline ?? 'honest'
      const base = baseline === 'abstain' ? undefined : await baselineOf(baseline)
      // A strategy that changes nobody's behaviour is the baseline itself.
      const changes =
        deviation.providers !== undefined || deviation.client !== undefined || deviation.prepare !== undefined
      const record = changes || base === undefined ? await play(seed, strategy.name, deviation) : base
      samples.get(strategy)?.push({
        ...compare(record, base, deviation.identity, params, seed),
        measures: strategy.measure?.(record, deviation) ?? {},
      })
    }
  }

  const outcomes = strategies.map((strategy) => {
    const own = samples.get(strategy) ?? []
    const interval = meanInterval(own.map((s) => s.relative))
    const names = [...new Set(own.flatMap((s) => Object.keys(s.measures)))]
    const measures = Object.fromEntries(
      names.map((name) => [name, own.reduce((sum, s) => sum + (s.measures[name] ?? 0), 0) / own.length]),
    )
    return {
      strategy,
      samples: own,
      measures,
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
  return { outcomes, audits, races, runs, tasks, seconds: (performance.now() - started) / 1000 }
}

/**
 * The sample of one seed: what the participant earned in `deviant` over what it earned in `base`, per task it
 * took part in there, as a fraction of the mean task price. Without a base (the participant's honest choice
 * is to stay out, which earns nothing) the payoff itself, per task it took part in.
 */
function compare(
  deviant: RunRecord,
  base: RunRecord | undefined,
  identity: readonly Address[],
  params: SimParams,
  seed: number,
): Omit<StrategySample, 'measures'> {
  const mine = payoff(deviant.ledger, deviant.opening, identity, params)
  const reference = base ?? deviant
  const honest: Payoff =
    base === undefined
      ? { holdings: 0, value: 0, gas: 0, compute: 0, capital: 0, total: 0 }
      : payoff(base.ledger, base.opening, identity, params)
  const participation = identity.reduce(
    (sum, account) => sum + (reference.participation.get(account.toLowerCase() as Address) ?? 0),
    0,
  )
  const relative = (mine.total - honest.total) / Math.max(1, participation) / reference.meanPrice
  return { seed, relative, deviant: mine, honest, participation }
}

/** The strategies that beat honest work in `result`: what makes `pnpm sim --check` fail. */
export function strategiesBeatingHonest(result: ExperimentResult): string[] {
  return result.outcomes.filter((o) => o.row.beatsHonest).map((o) => o.strategy.name)
}
