import { mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { Failure, Validation } from '@gridforge/sdk'
import type { Hex } from 'viem'
import type { RunOutcome } from '../runtime/ContainerRuntime.js'

/**
 * Where the agent is with one task. Steps only move forward; each is written
 * to disk before the action it announces, so that a restarted agent knows what
 * may already be on chain and checks before doing it again:
 *
 * `claiming` → `claimed` → `running` → `ran` → `stored` → (1 replica) `submitting` → `done`
 *                                                     ↘ (replicas > 1) `committing` → `committed` → `revealing` → `revealed` → `done`
 *
 * The seats of a task with replicas > 1 are raced for (stake-weighted tickets) until the race ends: a
 * claim then is `claimed` with its `seatFinalAt`, and runs only from that time, once the chain shows the
 * seat is still ours (a better ticket that took it first ends the task: dropped, its collateral unlocked).
 * When the replicas' revealed results differ, the task is disputed: `revealed` → `auditing` → `done`
 * (auditors re-run it; `abandoned` with the verdict when they do not confirm our result: slashed).
 *
 * A run that failed by the workload's own doing (see `runFailure.ts`) goes the same way: `stored` keeps
 * the `failure`, and its logs are the result it hands in.
 *
 * A single-replica result the market holds for its audit draw (a deterministic source) goes on:
 * `submitting` → `held` → `done` (released: paid), or `held` → `auditing` → `done` (drawn: paid once
 * the audit upholds it; `abandoned` with the verdict when it is overturned).
 *
 * An audit of another provider's result (the entry has `audit`) starts by joining a round and then
 * runs like a consensus replica: `joining` → `joined` → `claimed` → … → `revealed` → `done`; it runs
 * the task's source again, or the source's validator on the result (`audit.check`).
 *
 * `abandoned` ends a task the agent gave up on (the reason is kept).
 */
export type JournalStep =
  | 'joining'
  | 'joined'
  | 'claiming'
  | 'claimed'
  | 'running'
  | 'ran'
  | 'stored'
  | 'submitting'
  | 'held'
  | 'auditing'
  | 'committing'
  | 'committed'
  | 'revealing'
  | 'revealed'
  | 'done'
  | 'abandoned'

/** What the agent records about a finished container. */
export interface JournalRun {
  outcome: RunOutcome
  exitCode: number | undefined
  /** Unix seconds. */
  startedAt: number
  /** Unix seconds. */
  finishedAt: number
  /** Set by the `stored` step (older journals set it at `ran`). */
  logsCID?: string | undefined
  /** Set by the `stored` step when the run produced an output: the imported output directory. */
  outputCID?: string | undefined
  /**
   * Set by the `stored` step when the output is sealed to the task's client (its `resultKey`): the CID of the
   * envelope, which is what is handed in; the seal on chain is of `outputCID`.
   */
  sealedCID?: string | undefined
  reason: string | undefined
  /** The limits the run had (older journals: unknown, and its kills are taken for the agent's own). */
  limits?: JournalRunLimits | undefined
}

/**
 * The limits a run was killed at, and whose they were: a kill at the market's
 * runtime limit or at the source's memory is the workload's failure (a result),
 * one at a lower limit of this agent's is the agent's own (nothing is handed in).
 */
export interface JournalRunLimits {
  /** Seconds the run had before it was killed (`timeout`). */
  runtimeSec: number
  /**
   * Whether `runtimeSec` is the whole runtime limit on chain (the task's; a validator's, its source's),
   * not less because the source's metadata or the time left before the claim is due said less.
   */
  marketRuntime: boolean
  /** Whether the memory limit was the source's `memoryMiB`, not this agent's lower `limits.memoryBytes`. */
  sourceMemory: boolean
}

/** The audit round an auditor's entry is about. */
export interface JournalAudit {
  round: number
  /** Unix seconds (chain time): joining closes then, and the work starts. */
  joinDeadline: number
  /** Unix seconds: the round's commitments are due then. */
  commitDeadline: number
  /**
   * How the result is checked, once known (joined, or at the latest when the run starts): by running
   * the task's source again (`rerun`: a deterministic source, or a failure), or by running the source's
   * `validator` on the task's input and the provider's result (`resultCID`).
   */
  check?: AuditCheck | undefined
}

/** See {@link JournalAudit.check}. */
export type AuditCheck = 'rerun' | { validator: number; resultCID: string }

/** One task as the journal holds it (a JSON file per task). */
export interface JournalEntry {
  version: 1
  /** Decimal string: JSON has no 256-bit integers. */
  taskId: string
  step: JournalStep
  sourceId: number
  replicas: number
  slot: number | undefined
  /** When the claimed slot is due (Unix seconds, chain time). */
  dueAt: number | undefined
  /**
   * Replicas > 1: when the claimed seat is final and its time starts (Unix seconds, chain time: the slot's
   * `claimedAt`). A seat won in the race is final once the race ends, and a better ticket may take it until
   * then: the run starts at this time, not before. A seat claimed first come after the race: its claim time.
   */
  seatFinalAt?: number | undefined
  containerId: string | undefined
  /** GPU device ids the container runs on. */
  gpus: string[]
  run: JournalRun | undefined
  receiptCID: string | undefined
  runtimeSec: number | undefined
  /** Replicas > 1: the secret salt of the commitment (lost salt = no reveal = slashed, so it is written before the commit is sent). */
  salt: Hex | undefined
  /**
   * Set by the `stored` step when the run failed by the workload's doing: the failure handed in
   * (submitted, or committed and revealed with the salt), the run's logs as its result CID.
   */
  failure?: Failure | undefined
  /** An audit that ran the source's validator: what it said, the validator's logs as the result CID. */
  validation?: Validation | undefined
  /** Reopen this overdue slot before claiming (a `claiming` entry only). */
  reopen?: number | undefined
  /** `held`: the block the held result was submitted in (decimal string); it can be released two blocks later. */
  submittedBlock?: string | undefined
  /** Set on an audit of another provider's result: the round the agent joins (its slot is `slot`). */
  audit?: JournalAudit | undefined
  /** How the audit of the task ended (`upheld`, `overturned`, …), once it has. */
  verdict?: string | undefined
  /** The last transaction sent for the current step. */
  txHash: Hex | undefined
  /** Why the task was abandoned or a run failed. */
  reason: string | undefined
  updatedAt: string
}

export interface Journal {
  readonly dir: string
  get(taskId: bigint): Promise<JournalEntry | undefined>
  /** Writes an entry atomically and durably (temp file, fsync, rename, fsync of the directory). */
  put(entry: JournalEntry): Promise<void>
  /** Every entry, oldest task first. */
  list(): Promise<JournalEntry[]>
  /** Forgets a task (a claim that never reached the chain). */
  remove(taskId: bigint): Promise<void>
}

/** Every step, in the order a task goes through them. */
export const journalSteps: readonly JournalStep[] = [
  'joining',
  'joined',
  'claiming',
  'claimed',
  'running',
  'ran',
  'stored',
  'submitting',
  'held',
  'auditing',
  'committing',
  'committed',
  'revealing',
  'revealed',
  'done',
  'abandoned',
]

/** Steps after which nothing is left to do. */
export const finalSteps: readonly JournalStep[] = ['done', 'abandoned']

/** Whether `step` comes before `other` in a task's life. */
export function isBefore(step: JournalStep, other: JournalStep): boolean {
  return journalSteps.indexOf(step) < journalSteps.indexOf(other)
}

/**
 * Opens (and creates) the journal in `dir`. One file per task,
 * `<taskId>.json`, replaced atomically: a crash leaves either the old or the
 * new entry, never half of one.
 *
 * @example
 * const journal = await openJournal('/var/lib/gridforge/journal')
 * for (const entry of await journal.list()) console.log(entry.taskId, entry.step)
 */
export async function openJournal(dir: string): Promise<Journal> {
  await mkdir(dir, { recursive: true })
  const file = (taskId: bigint | string) => join(dir, `${taskId}.json`)
  return {
    dir,
    async get(taskId) {
      try {
        return parseEntry(await readFile(file(taskId), 'utf8'))
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
        throw error
      }
    },
    async put(entry) {
      await writeDurably(file(entry.taskId), `${JSON.stringify(entry, null, 2)}\n`)
    },
    async list() {
      const names = (await readdir(dir)).filter((name) => /^\d+\.json$/.test(name))
      const entries: JournalEntry[] = []
      for (const name of names) {
        try {
          entries.push(parseEntry(await readFile(join(dir, name), 'utf8')))
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
        }
      }
      return entries.sort((a, b) => (BigInt(a.taskId) < BigInt(b.taskId) ? -1 : 1))
    },
    async remove(taskId) {
      await rm(file(taskId), { force: true })
    },
  }
}

/**
 * Replaces `target` with `text` atomically and durably: a temp file, fsync, rename,
 * fsync of the directory. A crash leaves the old or the new content, never half.
 */
export async function writeDurably(target: string, text: string): Promise<void> {
  const temporary = `${target}.${process.pid}.tmp`
  const handle = await open(temporary, 'w')
  try {
    await handle.writeFile(text)
    await handle.sync()
  } finally {
    await handle.close()
  }
  await rename(temporary, target)
  const directory = await open(dirname(target), 'r')
  try {
    await directory.sync()
  } finally {
    await directory.close()
  }
}

/** Removes temp files a crash left mid-write. */
export async function cleanJournal(dir: string): Promise<void> {
  for (const name of await readdir(dir).catch(() => [])) {
    if (name.endsWith('.tmp')) await rm(join(dir, name), { force: true })
  }
}

function parseEntry(text: string): JournalEntry {
  const entry = JSON.parse(text) as JournalEntry
  if (entry.version !== 1 || typeof entry.taskId !== 'string' || typeof entry.step !== 'string') {
    throw new Error(`not a journal entry of this version: ${text.slice(0, 80)}`)
  }
  return entry
}

/**
 * What the entry hands in once `stored`: the output's CID, or, for a failure or a validation, the
 * run's logs (`result` is then a logs CID), with the `failure` or `validation` the SDK's
 * `submitResult`, `commitResult` and `revealResult` take.
 */
export function resultOf(entry: JournalEntry): {
  /** What is handed in: the output's CID, its sealed envelope's, or the run's logs'. */
  result: string
  /** The plain output's CID, when `result` is its sealed envelope. */
  output: string | undefined
  failure: Failure | undefined
  validation: Validation | undefined
} {
  const { run, failure, validation } = entry
  const report = failure !== undefined || validation !== undefined
  const result = report ? run?.logsCID : (run?.sealedCID ?? run?.outputCID)
  if (result === undefined)
    throw new Error(`journal entry of task ${entry.taskId} at ${entry.step} has no result to hand in`)
  return { result, output: report ? undefined : run?.outputCID, failure, validation }
}

/** A new entry for a task about to be claimed. */
export function newEntry(task: { taskId: bigint; sourceId: number; replicas: number }): JournalEntry {
  return {
    version: 1,
    taskId: task.taskId.toString(),
    step: 'claiming',
    sourceId: task.sourceId,
    replicas: task.replicas,
    slot: undefined,
    dueAt: undefined,
    containerId: undefined,
    gpus: [],
    run: undefined,
    receiptCID: undefined,
    runtimeSec: undefined,
    salt: undefined,
    txHash: undefined,
    reason: undefined,
    updatedAt: new Date().toISOString(),
  }
}
