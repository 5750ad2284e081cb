/**
 * Everything a simulated market depends on. The protocol's own parameters (the `MarketParams` of
 * TaskMarket, the discount tier, the minimum provider stake) are written to the chain at the start of a
 * run; the rest describes what happens off chain. Every field can be set with `--set name=value` and swept
 * with `--sweep name=lo..hi`.
 */
export interface SimParams {
  // ─── The market ───
  /** Tasks submitted per run. */
  tasks: number
  /** Provider accounts (honest unless a strategy takes some of them). */
  providers: number
  /** Client accounts. */
  clients: number
  /** Mean seconds between two submissions (arrivals are a Poisson process). */
  arrivalSpacingSec: number
  /** Share of tasks with 2 and with 3 replicas; the rest have 1. */
  k2Share: number
  k3Share: number
  /** Share of tasks billed per second (`pricePerSecond > 0`). */
  meteredShare: number
  /** Share of tasks that are valuable and gate on reputation (`minCompleted`, `minSuccessBps`). */
  gatedShare: number
  /** Price of a gated task relative to an ordinary one of the same runtime. */
  gatedPriceMultiple: number
  gateMinCompleted: number
  gateMinSuccessBps: number
  /** Share of tasks whose input repeats an earlier task's (a cached result is then the right answer). */
  duplicateInputShare: number
  /** Seconds from submission to the task's deadline. */
  deadlineSec: number
  // ─── Work and money off chain ───
  /** The source's runtime limit (`maxRuntimeSec`). */
  sourceMaxRuntimeSec: number
  /**
   * The source's failure fee (`failureFeeBps`, 0..10000): what a run handed in as a failure (non-zero exit,
   * timeout at the runtime limit, out of memory, output over the cap) is paid on a fixed-price task, in bps of
   * its price. A metered task pays a failed run for the runtime it used.
   */
  failureFeeBps: number
  /** A task's real runtime is drawn in [runtimeMin, runtimeMax] × the source's limit. */
  runtimeMin: number
  runtimeMax: number
  /** What clients pay per GPU-hour (fixed prices are quoted from the expected runtime), in GRID. */
  pricePerGpuHour: number
  /** What a GPU-hour costs a provider (power, hardware, hosting), in GRID. */
  gpuCostPerHour: number
  /** A metered task's `maxPayment` is the source's limit × the per-second price × this headroom. */
  meteredHeadroom: number
  /** What a correct result is worth to its client, as a multiple of what it escrowed. */
  valueMultiple: number
  /** Probability that a provider is online when a task is offered. */
  onlineProbability: number
  /** GRID each provider stakes. */
  providerStake: number
  /** Gas price in gwei, and GRID per ETH: gas cost = gas used × price. */
  gasPriceGwei: number
  gridPerEth: number
  /** Yearly cost of capital locked as stake, unbonding stake, collateral or escrow. */
  interestRatePerYear: number
  // ─── The protocol (written on chain at the start of each run) ───
  protocolFeeBps: number
  stakerShareBps: number
  collateralBps: number
  slashToClientBps: number
  revealWindow: number
  claimGrace: number
  /** Minimum collateral per claim, in GRID. */
  minCollateral: number
  /**
   * Probability that a single-replica result is audited, in bps (`MarketParams.auditBps`, 100..10000): every
   * task of the simulated source (a deterministic one) with one replica is auditable. Tasks ask for the default.
   */
  auditBps: number
  /** Seconds eligible providers have to join an audit round (`MarketParams.auditJoinWindow`, 60..86400). */
  auditJoinWindow: number
  /** The one fee-discount tier: stake (GRID) and discount of the fee (bps). */
  discountTierStake: number
  discountTierBps: number
  // ─── Strategies ───
  /** Fraction of the provider accounts a sybil operator holds. */
  sybilFraction: number
  /**
   * GRID the colluding auditor (and the honest auditor it is compared with) stakes: its chance of an audit's
   * seat grows with its stake (at most what a spare account holds).
   */
  colluderStake: number
  /**
   * GRID the vetoing client's second account stakes: its ticket in the race for a seat of its own tasks is
   * weighted by it (at most what a spare account holds).
   */
  vetoerStake: number
}

export const defaultParams: SimParams = {
  tasks: 60,
  providers: 10,
  clients: 4,
  arrivalSpacingSec: 600,
  k2Share: 0.25,
  k3Share: 0.25,
  meteredShare: 0.3,
  gatedShare: 0.2,
  gatedPriceMultiple: 4,
  gateMinCompleted: 5,
  gateMinSuccessBps: 9_000,
  duplicateInputShare: 0,
  deadlineSec: 6 * 3600,
  sourceMaxRuntimeSec: 3600,
  failureFeeBps: 2_500,
  runtimeMin: 0.2,
  runtimeMax: 0.8,
  pricePerGpuHour: 3,
  gpuCostPerHour: 2,
  meteredHeadroom: 1.25,
  valueMultiple: 1.2,
  onlineProbability: 0.9,
  providerStake: 1000,
  gasPriceGwei: 0.1,
  gridPerEth: 3000,
  interestRatePerYear: 0.05,
  protocolFeeBps: 500,
  stakerShareBps: 1_200,
  collateralBps: 5_000,
  slashToClientBps: 5_000,
  revealWindow: 600,
  claimGrace: 300,
  minCollateral: 0,
  auditBps: 1_000,
  auditJoinWindow: 120,
  discountTierStake: 1000,
  discountTierBps: 2_000,
  sybilFraction: 0.3,
  colluderStake: 1000,
  vetoerStake: 1000,
}

/** GRID each spare account (a strategy's second identity) is given when a world is set up. */
export const SPARE_ACCOUNT_GRID = 100_000

/** Parameters that must be whole numbers (counts, seconds, basis points). */
const integral = new Set<keyof SimParams>([
  'tasks',
  'providers',
  'clients',
  'gateMinCompleted',
  'gateMinSuccessBps',
  'deadlineSec',
  'sourceMaxRuntimeSec',
  'failureFeeBps',
  'protocolFeeBps',
  'stakerShareBps',
  'collateralBps',
  'slashToClientBps',
  'revealWindow',
  'claimGrace',
  'discountTierBps',
  'auditBps',
  'auditJoinWindow',
])

/** Thrown for an unknown parameter name or a value it cannot take. */
export class SimParamError extends Error {
  override name = 'SimParamError'
}

/** `defaultParams` with `overrides` applied, each checked. */
export function resolveParams(overrides: Readonly<Record<string, number>> = {}): SimParams {
  const params: SimParams = { ...defaultParams }
  for (const [name, value] of Object.entries(overrides)) {
    if (!(name in defaultParams)) {
      throw new SimParamError(
        `unknown parameter "${name}"; the parameters are: ${Object.keys(defaultParams).join(', ')}`,
      )
    }
    const key = name as keyof SimParams
    if (!Number.isFinite(value) || value < 0)
      throw new SimParamError(`${name} must be a number ≥ 0, got ${value}`)
    if (integral.has(key) && !Number.isInteger(value)) {
      throw new SimParamError(`${name} must be a whole number, got ${value}`)
    }
    params[key] = value
  }
  if (params.providers < 3)
    throw new SimParamError('providers must be at least 3 (tasks have up to 3 replicas)')
  if (params.k2Share + params.k3Share > 1) throw new SimParamError('k2Share + k3Share must be at most 1')
  if (params.failureFeeBps > 10_000) throw new SimParamError('failureFeeBps must be at most 10000')
  if (params.runtimeMin > params.runtimeMax) throw new SimParamError('runtimeMin must not exceed runtimeMax')
  for (const name of ['colluderStake', 'vetoerStake'] as const) {
    if (params[name] > SPARE_ACCOUNT_GRID || params[name] < 100) {
      throw new SimParamError(
        `${name} must be between 100 (the least stake to register) and ${SPARE_ACCOUNT_GRID} (what a spare account holds)`,
      )
    }
  }
  return params
}
