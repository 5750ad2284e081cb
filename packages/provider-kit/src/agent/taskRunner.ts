import { getBlockNumber } from 'viem/actions'
import { readAndDecide } from './decide.js'
import { errorKind, messageOf } from './errorKind.js'
import { TaskRefusedError } from './errors.js'
import { finalSteps, isBefore, type Journal, type JournalEntry, type JournalStep } from './journal.js'
import { backoffDelay, sleep } from './retry.js'
import { awaitAuditReveal, awaitJoinClose, join, watchAudit } from './steps/audit.js'
import { claim } from './steps/claim.js'
import { announceCommit, commit } from './steps/commit.js'
import { finalize } from './steps/finalize.js'
import { release } from './steps/release.js'
import { awaitReveal, reveal } from './steps/reveal.js'
import { awaitRun, startRun } from './steps/run.js'
import { abandon, type Step, type StepContext, type StepResult, type TaskMemory } from './steps/step.js'
import { store } from './steps/store.js'
import { announceSubmit, submit } from './steps/submit.js'

/** The step that moves a task on from each journaled step (an auditor's entry has `audit`). */
const steps: Record<Exclude<JournalStep, 'done' | 'abandoned'>, Step> = {
  joining: join,
  joined: awaitJoinClose,
  claiming: claim,
  claimed: startRun,
  running: awaitRun,
  ran: store,
  stored: (context, entry, memory) =>
    (entry.replicas === 1 && entry.audit === undefined ? announceSubmit : announceCommit)(
      context,
      entry,
      memory,
    ),
  submitting: submit,
  held: release,
  auditing: watchAudit,
  committing: commit,
  committed: (context, entry, memory) =>
    (entry.audit === undefined ? awaitReveal : awaitAuditReveal)(context, entry, memory),
  revealing: reveal,
  revealed: (context, entry, memory) =>
    (entry.audit === undefined ? finalize : watchAudit)(context, entry, memory),
}

/** Steps that may already have reached the chain when the agent resumes them: the chain is read first. */
const sentSteps: readonly JournalStep[] = ['joining', 'claiming', 'submitting', 'committing', 'revealing']

/** Tasks before this step use the host (prepare, run, store): they count against the policy's concurrency. */
export function isRunPhase(step: JournalStep): boolean {
  return isBefore(step, 'stored')
}

export interface RunnerContext extends StepContext {
  journal: Journal
  /** Resolves at the next chain event of this task, or after `ms`. */
  nextEvent: (taskId: bigint, ms: number) => Promise<void>
  /** Longest wait between two looks at a waiting task (events may be missed). */
  maxWaitMs: number
  /** Milliseconds between looks at the chain head while a task waits for a block. */
  pollingInterval: number
}

/** How a task left the runner. */
export type TaskEnd =
  | { entry: JournalEntry }
  | { dropped: string; refused: boolean }
  /** The agent stopped; the journal says where the task is. */
  | { stopped: true }

/**
 * Takes one task from its journaled step to the end: runs the step for the
 * entry's step, journals the entry it returns, and so on. Errors are handled
 * here, once for every step (see {@link errorKind}): a transient one retries
 * the step with backoff, a revert asks the chain what happened
 * ({@link readAndDecide}), a permanent one ends the task with its reason.
 * `onEntry` is told each new entry (the scheduler counts what runs).
 */
export async function runTask(
  context: RunnerContext,
  entry: JournalEntry,
  memory: TaskMemory,
  { resumed, onEntry }: { resumed: boolean; onEntry: (entry: JournalEntry) => void },
): Promise<TaskEnd> {
  const { journal, logger, signal } = context
  let current = entry
  let failures = 0
  let checkChain = resumed && sentSteps.includes(entry.step)
  while (!finalSteps.includes(current.step)) {
    let result: StepResult | 'retry'
    try {
      const decided = checkChain ? await readAndDecide(context, current, memory) : undefined
      checkChain = false
      result = decided ?? (await steps[current.step as keyof typeof steps](context, current, memory))
      failures = 0
    } catch (error) {
      if (signal.aborted) return { stopped: true }
      result = await recover(context, current, memory, error, ++failures)
    }
    if (result === 'retry') continue
    if ('drop' in result) {
      await journal.remove(BigInt(current.taskId))
      logger[result.refused ? 'warn' : result.quiet ? 'debug' : 'info'](
        result.refused ? 'task refused' : 'task dropped',
        { reason: result.drop },
      )
      return { dropped: result.drop, refused: result.refused === true }
    }
    if ('wait' in result) {
      await waitFor(context, BigInt(current.taskId), result.wait)
      if (signal.aborted) return { stopped: true }
      continue
    }
    current = result.next
    await journal.put(current)
    onEntry(current)
    if (current.step === 'abandoned') logger.warn('task abandoned', { reason: current.reason })
  }
  return { entry: current }
}

/** What to do after a step threw: see {@link runTask}. */
async function recover(
  context: RunnerContext,
  entry: JournalEntry,
  memory: TaskMemory,
  error: unknown,
  attempt: number,
): Promise<StepResult | 'retry'> {
  const kind = errorKind(error)
  const reason = error instanceof TaskRefusedError ? error.reason : messageOf(error)
  if (kind === 'permanent') {
    if (entry.step === 'claiming') return { drop: reason, refused: true }
    // Nothing is locked before an audit is joined: an audit the agent cannot run is not joined.
    if (entry.step === 'joining') return { drop: reason }
    return abandon(entry, reason)
  }
  if (kind === 'revert') {
    try {
      return (await readAndDecide(context, entry, memory, reason)) ?? abandon(entry, reason)
    } catch (readError) {
      if (context.signal.aborted) throw readError
      // Reading the task failed too: try the step again, which reads the chain before it sends.
    }
  }
  // Transient, until the claim is due: after that, nothing sent for this slot can count any more.
  if (entry.dueAt !== undefined && isBefore(entry.step, 'submitting') && entry.step !== 'claiming') {
    const now = await context.chainNow().catch(() => 0)
    if (now > entry.dueAt)
      return abandon(entry, `the claim was due before ${entry.step} succeeded: ${reason}`)
  }
  const delay = backoffDelay(attempt)
  context.logger.warn(`${what[entry.step]} failed, retrying`, { attempt, delayMs: delay, error: reason })
  await sleep(delay, context.signal).catch(() => {})
  return 'retry'
}

/**
 * Waits for an event of the task or `untilChainTime` (seconds); or for the latest block to reach
 * `untilBlock` (looking every `pollingInterval`; events do not end this wait: it is a block or two),
 * or `maxWaitMs`, whichever comes first.
 */
async function waitFor(
  context: RunnerContext,
  taskId: bigint,
  { untilChainTime, untilBlock }: { untilChainTime?: number | undefined; untilBlock?: bigint | undefined },
) {
  let ms = context.maxWaitMs
  if (untilChainTime !== undefined) {
    const now = await context.chainNow().catch(() => untilChainTime)
    ms = Math.min(ms, Math.max(0, (untilChainTime - now) * 1000))
  }
  if (untilBlock === undefined) return context.nextEvent(taskId, ms)
  const end = Date.now() + ms
  while (!context.signal.aborted && Date.now() < end) {
    const head = await getBlockNumber(context.client, { cacheTime: 0 }).catch(() => undefined)
    if (head !== undefined && head >= untilBlock) return
    await context.nextEvent(taskId, Math.max(1, Math.min(context.pollingInterval, end - Date.now())))
  }
}

/** What each step does, for the retry warnings. */
const what: Record<JournalStep, string> = {
  joining: 'joining the audit',
  joined: 'holding the audit seat',
  claiming: 'claiming',
  claimed: 'preparing the run',
  running: 'running',
  ran: 'storing the output',
  stored: 'recording the result',
  submitting: 'submitting the result',
  held: 'releasing the result',
  auditing: 'watching the audit',
  committing: 'committing the result',
  committed: 'waiting for the reveal',
  revealing: 'revealing the result',
  revealed: 'finalizing',
  done: 'done',
  abandoned: 'abandoned',
}
