import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { Capabilities } from '@gridforge/sdk'
import { getTask, getTasks, isSubscribed, type Task } from '@gridforge/sdk'
import type { Logger } from '../logger.js'
import type { GpuPool } from '../runtime/gpuPool.js'
import { messageOf } from './errorKind.js'
import { finalSteps, type JournalEntry, newEntry } from './journal.js'
import type { MarketLog } from './marketWatch.js'
import type { ResolvedPolicy } from './policy.js'
import { taskRefusal } from './policy.js'
import { prepareToClaim } from './steps/prepare.js'
import type { StepContext, TaskMemory } from './steps/step.js'
import { assess, createTaskBook } from './taskBook.js'
import { isRunPhase, type RunnerContext, runTask } from './taskRunner.js'

/** What the scheduler shares with every task, besides each task's own logger and folder. */
export type SharedContext = Omit<RunnerContext, 'logger' | 'workDir' | 'nextEvent'> & { logger: Logger }

export interface SchedulerParameters {
  context: SharedContext
  policy: ResolvedPolicy
  capabilities: Capabilities
  gpus: GpuPool
  workRoot: string
  /** A task whose preparation failed before a claim is looked at again after this many ms. */
  postponeMs: number
}

/**
 * Decides which tasks the agent works on and runs them: the tasks in flight
 * (each through {@link runTask}), the book of tasks it may take, and the
 * wake-ups of waiting tasks. It reads the chain only for tasks an event (or a
 * timer it set) made due.
 */
export function createScheduler(parameters: SchedulerParameters) {
  const { context, policy, capabilities, gpus, workRoot, postponeMs } = parameters
  const { client, deployment, address, logger, signal } = context
  const book = createTaskBook()
  const inFlight = new Map<bigint, { entry: JournalEntry | undefined; work: Promise<void> }>()
  const waiters = new Map<bigint, () => void>()
  const subscribed = new Set<number>()
  let timer: NodeJS.Timeout | undefined
  let looking: Promise<void> | undefined
  let lookAgain = false

  const taskContext = (taskId: bigint): RunnerContext => ({
    ...context,
    logger: logger.child({ taskId }),
    workDir: join(workRoot, taskId.toString()),
    nextEvent,
  })

  function nextEvent(taskId: bigint, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(wait)
        waiters.delete(taskId)
        signal.removeEventListener('abort', done)
        resolve()
      }
      const wait = setTimeout(done, ms)
      waiters.set(taskId, done)
      signal.addEventListener('abort', done, { once: true })
    })
  }

  const running = () =>
    [...inFlight.values()].filter(({ entry }) => entry === undefined || isRunPhase(entry.step)).length

  /** Runs a journaled task to its end in the background. */
  function launch(entry: JournalEntry, memory: TaskMemory, options: { resumed: boolean; gpus: string[] }) {
    const taskId = BigInt(entry.taskId)
    const slot = { entry: entry as JournalEntry | undefined, work: Promise.resolve() }
    inFlight.set(taskId, slot)
    slot.work = runTask(taskContext(taskId), entry, memory, {
      resumed: options.resumed,
      onEntry: (next) => {
        const leftRunPhase = slot.entry !== undefined && isRunPhase(slot.entry.step) && !isRunPhase(next.step)
        slot.entry = next
        if (leftRunPhase) freed()
      },
    })
      .then((end) => {
        if ('refused' in end && end.refused) book.refuse(taskId)
        return end
      })
      .catch((error: unknown) => {
        // runTask handles every error of a step; this is the last line of defence: never crash the agent.
        if (!signal.aborted) logger.error('task failed', { taskId, error: messageOf(error) })
      })
      .then(() => finish(taskId, options.gpus, slot.entry))
  }

  async function finish(taskId: bigint, taken: string[], entry: JournalEntry | undefined) {
    inFlight.delete(taskId)
    if (taken.length > 0) gpus.release(taken)
    if (entry === undefined || finalSteps.includes(entry.step))
      await rm(join(workRoot, taskId.toString()), { recursive: true, force: true }).catch(() => {})
    freed()
  }

  /** Capacity came back: look at tasks that waited for it. */
  function freed() {
    book.release('capacity')
    schedule(0)
  }

  /** Prepares a task, then (nothing looked wrong) journals and claims it. */
  function take(task: Task & { inputCID: string }, reopen: number | undefined, taken: string[]) {
    const taskId = task.taskId
    book.remove(taskId)
    const slot = { entry: undefined as JournalEntry | undefined, work: Promise.resolve() }
    inFlight.set(taskId, slot)
    const taskLogger = logger.child({ taskId })
    slot.work = (async () => {
      const preparation = await prepareToClaim(taskContext(taskId), task)
      if ('refused' in preparation) {
        taskLogger.warn('task refused', { reason: preparation.refused })
        book.refuse(taskId)
      } else if ('postponed' in preparation) {
        taskLogger.warn('task postponed', { reason: preparation.postponed })
        book.add(taskId, task.sourceId, task.inputCID)
        book.later(taskId, Date.now() + postponeMs)
      }
      if (!('prepared' in preparation)) return finish(taskId, taken, undefined)
      const entry = { ...newEntry(task), gpus: taken, reopen }
      await context.journal.put(entry)
      inFlight.delete(taskId)
      launch(entry, { task, prepared: preparation.prepared }, { resumed: false, gpus: taken })
    })().catch((error: unknown) => {
      if (!signal.aborted) taskLogger.error('task failed', { error: messageOf(error) })
      return finish(taskId, taken, undefined)
    })
  }

  /** A claim of ours the journal does not know (it was lost): adopt it rather than be slashed. */
  async function adopt(task: Task & { inputCID?: string | undefined }, slot: number) {
    if (inFlight.has(task.taskId) || (await context.journal.get(task.taskId)) !== undefined) return
    logger.warn('adopting a claim missing from the journal', { taskId: task.taskId, slot })
    const mine = task.slots[slot]
    const entry: JournalEntry = {
      ...newEntry(task),
      step: 'claimed',
      slot,
      dueAt: mine?.dueAt === undefined ? undefined : Math.floor(mine.dueAt.getTime() / 1000),
    }
    await context.journal.put(entry)
    const taken = gpus.acquire(task.requirements.minGpus) ?? []
    launch(entry, { task }, { resumed: true, gpus: taken })
  }

  /** Whether the provider's on-chain pools let it take tasks of `sourceId` (a policy naming sources decides alone). */
  async function mayTake(sourceId: number): Promise<boolean> {
    if (policy.sources !== undefined || subscribed.has(sourceId)) return true
    if (!(await isSubscribed(client, { deployment, sourceId }))) return false
    subscribed.add(sourceId)
    return true
  }

  async function consider(task: Task & { inputCID?: string | undefined }, chainNow: number) {
    const taskId = task.taskId
    if (signal.aborted || inFlight.has(taskId)) return
    const assessment = assess(task, address, chainNow)
    if (assessment.kind === 'gone') return book.remove(taskId)
    if (assessment.kind === 'mine') return adopt(task, assessment.slot)
    if (assessment.kind === 'full') {
      const due =
        assessment.dueAt === undefined ? undefined : Date.now() + (assessment.dueAt + 1 - chainNow) * 1000
      return book.later(taskId, due)
    }
    const refusal = taskRefusal(task, capabilities, policy)
    if (refusal !== undefined) {
      logger.debug('not taking task', { taskId, reason: refusal })
      return book.refuse(taskId)
    }
    if (!(await mayTake(task.sourceId))) return book.later(taskId, undefined, 'subscription')
    const taken = running() < policy.concurrency ? gpus.acquire(task.requirements.minGpus) : undefined
    if (taken === undefined) return book.later(taskId, undefined, 'capacity')
    const inputCID = task.inputCID ?? book.get(taskId)?.inputCID ?? (await readInput(taskId))
    take({ ...task, inputCID }, assessment.reopen, taken)
  }

  const readInput = async (taskId: bigint) =>
    (await getTask(client, { deployment, taskId, includeInput: true })).inputCID as string

  /** Reads every task due for a look (one multicall per 500) and decides about each. */
  async function lookOnce() {
    const due = book.due(Date.now()).filter((candidate) => !inFlight.has(candidate.taskId))
    for (const candidate of due) book.later(candidate.taskId, undefined)
    try {
      const chainNow = due.length === 0 ? 0 : await context.chainNow()
      for (let start = 0; start < due.length; start += 500) {
        const chunk = due.slice(start, start + 500)
        const tasks = await getTasks(client, {
          deployment,
          taskIds: chunk.map((candidate) => candidate.taskId),
        })
        for (const [index, task] of tasks.entries())
          await consider({ ...task, inputCID: chunk[index]?.inputCID }, chainNow)
      }
    } catch (error) {
      if (signal.aborted) return
      logger.warn('reading tasks failed, retrying', { error: messageOf(error) })
      // Looked at again in a few seconds (those already decided are no longer due).
      for (const candidate of due)
        if (book.get(candidate.taskId)?.lookAt === undefined) book.later(candidate.taskId, Date.now() + 2_000)
    }
  }

  function look(): Promise<void> {
    if (looking !== undefined) {
      lookAgain = true
      return looking
    }
    looking = (async () => {
      do {
        lookAgain = false
        await lookOnce()
      } while (lookAgain && !signal.aborted)
      looking = undefined
      const next = book.nextLook()
      if (next !== undefined) schedule(Math.max(0, next - Date.now()))
    })()
    return looking
  }

  function schedule(delay: number) {
    if (signal.aborted) return
    clearTimeout(timer)
    timer = setTimeout(() => void look(), Math.min(delay, 2 ** 31 - 1))
  }

  /** Acts on a batch of market events: new tasks join the book, others wake what they concern. */
  function onLogs(logs: readonly MarketLog[]) {
    for (const log of logs) {
      if (log.eventName === 'ProviderSubscribed') {
        if (log.args.provider === address) {
          subscribed.add(Number(log.args.sourceId))
          book.release('subscription', Number(log.args.sourceId))
        }
        continue
      }
      const taskId = log.args.taskId
      if (log.eventName === 'TaskSubmitted') {
        const sourceId = Number(log.args.sourceId)
        if (policy.sources !== undefined && !policy.sources.has(sourceId)) book.refuse(taskId)
        else book.add(taskId, sourceId, log.args.inputCID)
      } else if (log.eventName === 'TaskFinalized') book.remove(taskId)
      else if (log.eventName === 'TaskClaimed' && log.args.provider === address && !inFlight.has(taskId))
        book.add(taskId, 0, undefined)
      else book.touch(taskId)
      waiters.get(taskId)?.()
    }
    schedule(0)
  }

  return {
    book,
    onLogs,
    look,
    launch,
    /** Tasks in flight. */
    tasks: () => [...inFlight.keys()],
    /** Resolves once every task in flight has stopped or ended. */
    async stop() {
      clearTimeout(timer)
      for (const wake of waiters.values()) wake()
      await Promise.allSettled([...inFlight.values()].map(({ work }) => work))
    },
  }
}

export type Scheduler = ReturnType<typeof createScheduler>
export type { StepContext }
