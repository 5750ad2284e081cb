/**
 * What a strategy is: a small module that replaces the behaviour of one participant (a provider account,
 * a group of them, or a client with its second accounts) in an otherwise honest market.
 */
import type { Address, Hex } from 'viem'
import type { Engine, RunRecord, SimTask, TaskOutcome } from '../market/engine.js'
import type { SimParams } from '../params.js'

/** The work a provider account hands in for one claimed slot. */
export interface Delivery {
  /** The result digest submitted (k = 1) or committed and revealed (k > 1); undefined: nothing is submitted. */
  digest: Hex | undefined
  /** GPU-seconds it spent. */
  computeSec: number
  /** The runtime it reports (the chain caps it at the time since the claim). */
  runtimeSec: number
}

/** What a provider account sees when it decides what to deliver. */
export interface WorkContext {
  task: SimTask
  /** Claimants of the task's slots now (the chain's `getSlots`). */
  holders: readonly Address[]
  claimedAt: number
  dueAt: number
  now: number
  /** The digest of a correct run's output (an honest run hands in a failure report where it fails). */
  correct: Hex
  /** A result published earlier for the same input, if any (a cached answer). */
  publicResult: Hex | undefined
}

/** What an auditor sees when it hands in its audit of a held single-replica result or of a dispute. */
export interface AuditContext {
  task: SimTask
  /** The provider whose held result is audited; zeroAddress in a dispute. */
  provider: Address
  /**
   * The results audited, public: the held result's seal, or each seal the replicas of a dispute revealed (their
   * ResultRevealed events). A seal is keccak256(taskId, digest); a failure report is its own seal.
   */
  results: readonly Hex[]
  /** The resultDigest of the held result's ResultSubmitted event, its seal (undefined in a dispute). */
  resultDigest: Hex | undefined
  /**
   * The resultCID of that event: an output's envelope (encrypted to the client: it tells nothing of the digest),
   * or a failure report's logs.
   */
  resultCID: string | undefined
  /** The digest of a correct run's output (an honest auditor's re-run hands in a failure where it fails). */
  correct: Hex
  /** The audit's round: 1 for the first auditor, 2.. for the escalations. */
  round: number
}

/** How a provider account audits the held results drawn for an audit. */
export interface AuditorBehaviour {
  /** Whether it joins this round of the audit of `task` when it may (eligible; online and idle unless it watches). */
  joins(task: SimTask, audit: { provider: Address; round: number }): boolean
  /** Joins this audit whenever it is eligible, online or not, busy or not (it does not need its GPU for it). */
  watches?(task: SimTask, audit: { provider: Address; round: number }): boolean
  /** Seconds from the close of joining until it commits, and how long its GPU is busy from then. */
  plan(task: SimTask): { readyAfter: number; busyFor: number }
  /** What it commits to and reveals (undefined: nothing; it forfeits its collateral). */
  deliver(context: AuditContext): Delivery
}

/** How one provider account behaves. */
export interface ProviderBehaviour {
  /**
   * Watches the market for this task: always there for it (online whatever the online probability). A watcher
   * claims a single-replica task ahead of honest providers (first come); a k > 1 task's seats are raced for with
   * stake-weighted tickets, where being there is all it wins: it joins every such race.
   */
  watches(task: SimTask): boolean
  /** Whether it takes this task when it may. */
  wants(task: SimTask): boolean
  /** Seconds from the claim until it hands in (`readyAfter`), and how long its GPU is busy. */
  plan(
    task: SimTask,
    claim: { claimedAt: number; dueAt: number; publicResult: Hex | undefined },
  ): {
    readyAfter: number
    busyFor: number
  }
  /** What it hands in when ready. */
  deliver(context: WorkContext): Delivery
  /** Reveals after every other replica (the vetoing client's second account). */
  revealsLast?: boolean
  /** How it audits drawn results (default: as an honest provider does, `honestAuditor`). */
  auditor?: AuditorBehaviour
}

/** How a client behaves beyond submitting its tasks and using correct results. */
export interface ClientBehaviour {
  /** Submits its whole workload at the arrival of its first task, in one `submitTasks`. */
  batches?: boolean
  /** Changes a task before it is submitted (a honeypot's deadline or input). */
  shape?(task: SimTask): SimTask
  beforeSubmit?(engine: Engine, tasks: readonly SimTask[]): Promise<void>
  afterSubmit?(engine: Engine, tasks: readonly SimTask[]): Promise<void>
  afterSettle?(engine: Engine, task: SimTask, outcome: TaskOutcome): Promise<void>
  /** The value it draws from a settled task, in GRID (default: the task's value when the result is right). */
  value?(task: SimTask, outcome: TaskOutcome, params: SimParams): number
}

/** The participants a strategy takes over in one run. */
export interface Deviation {
  /** Accounts whose payoffs are added up: the strategy's participant. */
  identity: readonly Address[]
  /** Provider accounts it drives (they are honest otherwise). */
  providers?: ReadonlyMap<Address, ProviderBehaviour>
  /** The client account it drives. */
  client?: { account: Address; behaviour: ClientBehaviour }
  /** Set-up at the start of the run (staking a second account, self-dealt tasks). */
  prepare?(engine: Engine): Promise<void>
}

/** The accounts a run has, by role. */
export interface Cast {
  providers: readonly Address[]
  clients: readonly Address[]
  /** Accounts no honest participant uses: a strategy's second accounts. */
  spare: readonly Address[]
}

export interface Strategy {
  name: string
  role: 'provider' | 'client'
  /** One sentence: what it does. */
  doc: string
  /**
   * What it is compared with: `honest` (default), the same participant playing honest in the same market;
   * `honest-staker`, a client that stakes for its discount and keeps the stake until its tasks settle;
   * `honest-auditor`, an honest provider whose second account stakes as much as the colluding auditor and
   * audits honestly;
   * `abstain`, staying out (payoff 0): the honest choice of a participant that has no use for the market.
   */
  baseline?: 'honest' | 'honest-staker' | 'honest-auditor' | 'abstain'
  deviate(cast: Cast, parameters: { sybilFraction: number }): Deviation
  /** Figures of a run worth reporting besides the payoff (e.g. how often the sybil captured a majority). */
  measure?(record: RunRecord, deviation: Deviation): Record<string, number>
}
