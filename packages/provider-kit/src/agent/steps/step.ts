import type { Deployment, Task } from '@gridforge/sdk'
import type { ContentStore } from '@gridforge/sdk/storage'
import type { Account, Address, Chain, Client, Transport } from 'viem'
import type { HostReport } from '../../detect/HostReport.js'
import type { Logger } from '../../logger.js'
import type { ContainerRuntime, ResourceLimits, TaskContainer } from '../../runtime/ContainerRuntime.js'
import type { HeldResults } from '../heldResults.js'
import type { JournalEntry } from '../journal.js'
import type { PreparedTask } from '../prepareTask.js'
import type { SeatRace } from '../seatRace.js'

/** What the steps of one task need, and nothing of the scheduler. */
export interface StepContext {
  client: Client<Transport, Chain, Account>
  deployment: Deployment
  store: ContentStore
  runtime: ContainerRuntime
  host: HostReport
  /** The provider account. */
  address: Address
  /** The label value that marks this agent's containers. */
  owner: string
  limits: Omit<ResourceLimits, 'memoryBytes' | 'cpus'> & Partial<Pick<ResourceLimits, 'memoryBytes' | 'cpus'>>
  /** Seconds kept free before a claim's deadline to upload and submit. */
  submitMarginSec: number
  /** The agent's held results that its next claim releases (shared by every task). */
  heldResults: HeldResults
  /** Seconds a held result whose draw is ready waits for a claim to carry its release before releasing it alone. */
  releaseWaitSec: number
  /** Aborts when the agent stops. */
  signal: AbortSignal
  /** Names the task on every line. */
  logger: Logger
  /** The task's own folder (`input/`, `output/`). */
  workDir: string
  /**
   * Sends one transaction at a time (and waits for it): an agent's tasks run
   * concurrently, and nodes that mine on arrival (Hardhat, Anvil) refuse a
   * nonce that arrives before the one below it.
   */
  transact: <T>(send: () => Promise<T>) => Promise<T>
  /** The latest block's timestamp: deadlines are chain time, whatever this host's clock says. */
  chainNow: () => Promise<number>
  /**
   * Reads and checks the task's source, metadata, image and (when `fetch`) input; with `validator`,
   * the validator's, and the result under audit beside the input (see `prepareTask`).
   */
  prepare: (
    task: Task & { inputCID: string },
    fetch: boolean,
    validator?: { sourceId: number; resultCID: string },
  ) => Promise<PreparedTask>
}

/** What a task's steps keep in memory between them (lost on restart: each step can do without it). */
export interface TaskMemory {
  /** The task as last read. */
  task?: (Task & { inputCID?: string | undefined }) | undefined
  prepared?: PreparedTask | undefined
  /** A container a crash left for this task, to re-attach to. */
  container?: TaskContainer | undefined
  /** Replicas > 1: the race for the task's seats, once read (it does not change). */
  race?: SeatRace | undefined
  /** A held result: the chain time by which it is released on its own if no claim has carried it. */
  releaseBy?: number | undefined
}

/**
 * Where a step leaves the task:
 * - `next`: the new entry, journaled before the step it announces runs;
 * - `wait`: nothing to do until the chain moves: run the same step again after an event of this task,
 *   at `untilChainTime` (seconds), or once the latest block is `untilBlock`, whichever comes first;
 * - `drop`: no claim of ours is on chain: forget the task (`refused`: and never look at it again;
 *   `quiet`: an everyday outcome, logged at debug level).
 */
export type StepResult =
  | { next: JournalEntry }
  | { wait: { untilChainTime?: number | undefined; untilBlock?: bigint | undefined } }
  | { drop: string; refused?: boolean | undefined; quiet?: boolean | undefined }

/** One step: from the task's journaled state to the next. */
export type Step = (context: StepContext, entry: JournalEntry, memory: TaskMemory) => Promise<StepResult>

/** The entry moved to `patch.step` (and whatever else `patch` sets). */
export function next(entry: JournalEntry, patch: Partial<JournalEntry>): StepResult {
  return { next: { ...entry, ...patch, updatedAt: new Date().toISOString() } }
}

/** The entry ended for good with `reason`. */
export function abandon(entry: JournalEntry, reason: string): StepResult {
  return next(entry, { step: 'abandoned', reason })
}

/** Unix seconds of a date (0 when absent). */
export function seconds(date: Date | undefined): number {
  return date === undefined ? 0 : Math.floor(date.getTime() / 1000)
}
