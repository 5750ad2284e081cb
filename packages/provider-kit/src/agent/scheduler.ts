import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { type Capabilities, getTask, getTasks, isSubscribed, type Task } from '@gridforge/sdk'
import { getBlockNumber } from 'viem/actions'
import type { Logger } from '../logger.js'
import type { GpuPool } from '../runtime/gpuPool.js'
import { messageOf } from './errorKind.js'
import { finalSteps, type JournalEntry, newEntry } from './journal.js'
import type { MarketLog } from './marketWatch.js'
import { auditRefusal, type ResolvedPolicy, taskRefusal } from './policy.js'
import { isRacing, readSeatRace, type SeatRace } from './seatRace.js'
import { prepareToClaim } from './steps/prepare.js'
import type { TaskMemory } from './steps/step.js'
import { assess, createTaskBook, type TaskBook } from './taskBook.js'
import { isRunPhase, type RunnerContext, runTask } from './taskRunner.js'
import { Wakeups } from './wakeups.js'

/** What the scheduler shares with every task, besides each task's own logger, folder and wake-ups. */
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

/** A task the agent works on: its latest journal entry (none while it is prepared for a claim). */
interface InFlight {
  entry: JournalEntry | undefined
  work: Promise<void>
}

/**
 * Decides which tasks the agent works on and runs them: the tasks in flight
 * (each through {@link runTask}), the {@link TaskBook} of tasks it may take,
 * and the wake-ups of waiting tasks. It reads the chain only for tasks an
 * event (or a timer it set) made due.
 */
export class TaskScheduler {
  readonly book: TaskBook = createTaskBook()
  readonly #parameters: SchedulerParameters
  readonly #inFlight = new Map<bigint, InFlight>()
  readonly #wakeups: Wakeups
  readonly #subscribed = new Set<number>()
  #timer: NodeJS.Timeout | undefined
  #looking: Promise<void> | undefined
  #lookAgain = false

  constructor(parameters: SchedulerParameters) {
    this.#parameters = parameters
    this.#wakeups = new Wakeups(parameters.context.signal)
  }

  /** Tasks in flight. */
  tasks(): bigint[] {
    return [...this.#inFlight.keys()]
  }

  /** Runs a journaled task to its end in the background. */
  launch(entry: JournalEntry, memory: TaskMemory, options: { resumed: boolean; gpus: string[] }): void {
    const taskId = BigInt(entry.taskId)
    const flight: InFlight = { entry, work: Promise.resolve() }
    this.#inFlight.set(taskId, flight)
    const onEntry = (next: JournalEntry) => {
      const leftRunPhase =
        flight.entry !== undefined && isRunPhase(flight.entry.step) && !isRunPhase(next.step)
      flight.entry = next
      if (leftRunPhase) this.#freed()
    }
    flight.work = runTask(this.#taskContext(taskId), entry, memory, { resumed: options.resumed, onEntry })
      .then((end) => {
        // An audit the agent did not join is not a task to claim.
        if (!('dropped' in end) || entry.audit !== undefined) return
        // Refused by the market: never again. Taken by another provider first: a candidate again, in
        // case that claim comes due without a result.
        if (end.refused) return this.book.refuse(taskId)
        this.book.add(taskId, entry.sourceId, memory.task?.inputCID)
        // A claim during the race for the seats that came to nothing (a worse ticket than every seated
        // one, or a seat taken by a better one): the ticket stays the same until the race ends.
        if (memory.race !== undefined) this.book.hold(taskId, memory.race.end + 1)
      })
      .catch((error: unknown) => this.#failed(taskId, error))
      .then(() => this.#finish(taskId, options.gpus, flight.entry))
  }

  /** Acts on a batch of market events: new tasks join the book, others wake what they concern. */
  onLogs(logs: readonly MarketLog[]): void {
    const { address } = this.#parameters.context
    for (const log of logs) {
      if (log.eventName === 'ProviderSubscribed') {
        if (log.args.provider !== address) continue
        this.#subscribed.add(Number(log.args.sourceId))
        this.book.release('subscription', Number(log.args.sourceId))
        continue
      }
      const taskId = log.args.taskId
      if (log.eventName === 'TaskSubmitted')
        this.#submitted(taskId, Number(log.args.sourceId), log.args.inputCID)
      else if (log.eventName === 'TaskFinalized') this.book.remove(taskId)
      else if (log.eventName === 'AuditRoundOpened')
        this.#auditRound(taskId, log.args.round, log.args.joinDeadline)
      // A claim of ours nothing here made (lost from the journal): looked at, and adopted.
      else if (
        log.eventName === 'TaskClaimed' &&
        log.args.provider === address &&
        !this.#inFlight.has(taskId)
      )
        this.book.add(taskId, 0, undefined)
      else this.book.touch(taskId)
      this.#wakeups.wake(taskId)
    }
    this.#schedule(0)
  }

  /** Reads every task due for a look and decides about each; one look at a time. */
  look(): Promise<void> {
    if (this.#looking !== undefined) {
      this.#lookAgain = true
      return this.#looking
    }
    this.#looking = (async () => {
      do {
        this.#lookAgain = false
        await this.#lookOnce()
      } while (this.#lookAgain && !this.#parameters.context.signal.aborted)
      this.#looking = undefined
      const next = this.book.nextLook()
      if (next !== undefined) this.#schedule(Math.max(0, next - Date.now()))
    })()
    return this.#looking
  }

  /** Resolves once every task in flight has stopped or ended (call after aborting the signal). */
  async stop(): Promise<void> {
    clearTimeout(this.#timer)
    this.#wakeups.wakeAll()
    await Promise.allSettled([...this.#inFlight.values()].map(({ work }) => work))
  }

  #submitted(taskId: bigint, sourceId: number, inputCID: string) {
    const { sources } = this.#parameters.policy
    if (sources !== undefined && !sources.has(sourceId)) this.book.refuse(taskId)
    else this.book.add(taskId, sourceId, inputCID)
  }

  #taskContext(taskId: bigint): RunnerContext {
    const { context, workRoot } = this.#parameters
    return {
      ...context,
      logger: context.logger.child({ taskId }),
      workDir: join(workRoot, taskId.toString()),
      nextEvent: (id, ms) => this.#wakeups.next(id, ms),
    }
  }

  /** Tasks using the host now: preparing, running or storing. */
  #running(): number {
    return [...this.#inFlight.values()].filter(({ entry }) => entry === undefined || isRunPhase(entry.step))
      .length
  }

  async #lookOnce() {
    const { context } = this.#parameters
    const due = this.book.due(Date.now()).filter((candidate) => !this.#inFlight.has(candidate.taskId))
    for (const candidate of due) this.book.later(candidate.taskId, undefined)
    try {
      const chainNow = due.length === 0 ? 0 : await context.chainNow()
      for (let start = 0; start < due.length; start += 500) {
        const chunk = due.slice(start, start + 500)
        const taskIds = chunk.map((candidate) => candidate.taskId)
        const tasks = await getTasks(context.client, { deployment: context.deployment, taskIds })
        for (const [index, task] of tasks.entries())
          await this.#consider({ ...task, inputCID: chunk[index]?.inputCID }, chainNow)
      }
    } catch (error) {
      if (context.signal.aborted) return
      context.logger.warn('reading tasks failed, retrying', { error: messageOf(error) })
      // Looked at again in a few seconds (those already decided have moved on).
      for (const { taskId } of due)
        if (this.book.get(taskId)?.lookAt === undefined) this.book.later(taskId, Date.now() + 2_000)
    }
  }

  async #consider(task: Task & { inputCID?: string | undefined }, chainNow: number) {
    const { context, policy, capabilities, gpus } = this.#parameters
    const taskId = task.taskId
    if (context.signal.aborted || this.#inFlight.has(taskId)) return
    const candidate = this.book.get(taskId)
    // Tasks restored from the cursor are known by id only until read.
    if (candidate !== undefined) candidate.sourceId = task.sourceId
    // A seat race this provider lost: its ticket stays the same, nothing to try before the race ends.
    if (candidate?.notBefore !== undefined && chainNow < candidate.notBefore)
      return this.book.later(taskId, Date.now() + (candidate.notBefore - chainNow) * 1000)
    const assessment = assess(task, context.address, chainNow, await this.#raceOn(task, chainNow))
    if (assessment.kind === 'gone') return this.book.remove(taskId)
    if (assessment.kind === 'mine') return this.#adopt(task, assessment.slot)
    if (assessment.kind === 'full') {
      const { dueAt } = assessment
      return this.book.later(
        taskId,
        dueAt === undefined ? undefined : Date.now() + (dueAt + 1 - chainNow) * 1000,
      )
    }
    const refusal = taskRefusal(task, capabilities, policy)
    if (refusal !== undefined) {
      context.logger.debug('not taking task', { taskId, reason: refusal })
      return this.book.refuse(taskId)
    }
    if (!(await this.#mayTake(task.sourceId))) return this.book.later(taskId, undefined, 'subscription')
    const taken = this.#running() < policy.concurrency ? gpus.acquire(task.requirements.minGpus) : undefined
    if (taken === undefined) return this.book.later(taskId, undefined, 'capacity')
    const inputCID = task.inputCID ?? this.book.get(taskId)?.inputCID ?? (await this.#readInput(taskId))
    this.#take({ ...task, inputCID }, assessment.reopen, taken, candidate?.race)
  }

  /**
   * The seat race of a task with replicas > 1 whose seats are all held, when a claim now still races for
   * one (a better ticket takes the worst seat); `undefined` otherwise. The race is read once per task.
   */
  async #raceOn(task: Task, chainNow: number): Promise<SeatRace | undefined> {
    const { context, capabilities, policy } = this.#parameters
    // A task this agent would not take anyway: no race to read.
    if (
      task.replicas === 1 ||
      task.status !== 'Claimed' ||
      taskRefusal(task, capabilities, policy) !== undefined
    )
      return undefined
    const { client, deployment } = context
    const candidate = this.book.get(task.taskId)
    const race = candidate?.race ?? (await readSeatRace(client, deployment, task.taskId))
    if (candidate !== undefined) candidate.race = race
    if (chainNow > race.end) return undefined
    return isRacing(race, chainNow, await getBlockNumber(client, { cacheTime: 0 })) ? race : undefined
  }

  /** Whether the provider's on-chain pools let it take tasks of `sourceId` (a policy naming sources decides alone). */
  async #mayTake(sourceId: number): Promise<boolean> {
    const { context, policy } = this.#parameters
    if (policy.sources !== undefined || this.#subscribed.has(sourceId)) return true
    if (!(await isSubscribed(context.client, { deployment: context.deployment, sourceId }))) return false
    this.#subscribed.add(sourceId)
    return true
  }

  async #readInput(taskId: bigint): Promise<string> {
    const { client, deployment } = this.#parameters.context
    return (await getTask(client, { deployment, taskId, includeInput: true })).inputCID as string
  }

  /** Prepares a task, then (nothing looked wrong) journals it and starts its claim. */
  #take(
    task: Task & { inputCID: string },
    reopen: number | undefined,
    taken: string[],
    race: SeatRace | undefined,
  ) {
    const taskId = task.taskId
    this.book.remove(taskId)
    const flight: InFlight = { entry: undefined, work: Promise.resolve() }
    this.#inFlight.set(taskId, flight)
    flight.work = this.#prepareAndClaim(task, reopen, taken, race).catch((error: unknown) => {
      this.#failed(taskId, error)
      return this.#finish(taskId, taken, undefined)
    })
  }

  async #prepareAndClaim(
    task: Task & { inputCID: string },
    reopen: number | undefined,
    taken: string[],
    race: SeatRace | undefined,
  ) {
    const { context, postponeMs } = this.#parameters
    const taskId = task.taskId
    const logger = context.logger.child({ taskId })
    const preparation = await prepareToClaim(this.#taskContext(taskId), task)
    if ('refused' in preparation) {
      logger.warn('task refused', { reason: preparation.refused })
      this.book.refuse(taskId)
    } else if ('postponed' in preparation) {
      // Nothing is claimed: a failure here costs nothing, but must not be retried on every event.
      logger.warn('task postponed', { reason: preparation.postponed })
      this.book.add(taskId, task.sourceId, task.inputCID)
      this.book.later(taskId, Date.now() + postponeMs)
    }
    if (!('prepared' in preparation)) return this.#finish(taskId, taken, undefined)
    const entry: JournalEntry = { ...newEntry(task), gpus: taken, reopen }
    await context.journal.put(entry)
    this.#inFlight.delete(taskId)
    this.launch(entry, { task, prepared: preparation.prepared, race }, { resumed: false, gpus: taken })
  }

  /**
   * An audit round opened: unless the task is already in flight here (the agent's own result, or an
   * audit it works on), reads the task and, when the policy takes its audits and there is capacity,
   * journals and starts joining the round (see `steps/audit.ts`).
   */
  #auditRound(taskId: bigint, round: number, joinDeadline: number) {
    const { policy } = this.#parameters
    if (!policy.audits.enabled || this.#inFlight.has(taskId) || this.#parameters.context.signal.aborted)
      return
    const flight: InFlight = { entry: undefined, work: Promise.resolve() }
    this.#inFlight.set(taskId, flight)
    let taken: string[] = []
    flight.work = this.#considerAudit(taskId, { round, joinDeadline }, (gpus) => {
      taken = gpus
    }).catch((error: unknown) => {
      this.#failed(taskId, error)
      return this.#finish(taskId, taken, undefined)
    })
  }

  async #considerAudit(
    taskId: bigint,
    { round, joinDeadline }: { round: number; joinDeadline: number },
    onGpus: (gpus: string[]) => void,
  ) {
    const { context, policy, capabilities, gpus } = this.#parameters
    const logger = context.logger.child({ taskId })
    const skip = (reason: string) => {
      logger.debug('not joining the audit', { round, reason })
      return this.#finish(taskId, [], undefined)
    }
    const task = await getTask(context.client, { deployment: context.deployment, taskId })
    if (task.status !== 'Auditing') return skip(`the task is ${task.status}`)
    // The provider and the auditors of earlier rounds may not join.
    if (task.slots.some((slot) => slot.provider === context.address))
      return skip('this provider ran the task or audited it in an earlier round')
    const refusal = auditRefusal(task, capabilities, policy)
    if (refusal !== undefined) return skip(refusal)
    if (!(await this.#mayTake(task.sourceId))) return skip(`not subscribed to source ${task.sourceId}`)
    // This audit is one of the tasks in flight already: it fits when it is not over the limit.
    const taken = this.#running() <= policy.concurrency ? gpus.acquire(task.requirements.minGpus) : undefined
    if (taken === undefined) return skip('no capacity free')
    onGpus(taken)
    const entry: JournalEntry = {
      ...newEntry(task),
      step: 'joining',
      gpus: taken,
      // The commitment deadline is known once joined.
      audit: { round, joinDeadline, commitDeadline: 0 },
    }
    await context.journal.put(entry)
    this.#inFlight.delete(taskId)
    this.launch(entry, { task }, { resumed: false, gpus: taken })
  }

  /** A claim of ours the journal does not know (it was lost): adopt it rather than be slashed. */
  async #adopt(task: Task & { inputCID?: string | undefined }, slot: number) {
    const { context, gpus } = this.#parameters
    this.book.remove(task.taskId)
    if ((await context.journal.get(task.taskId)) !== undefined || this.#inFlight.has(task.taskId)) return
    context.logger.warn('adopting a claim missing from the journal', { taskId: task.taskId, slot })
    const { dueAt, claimedAt } = task.slots[slot] ?? {}
    const entry: JournalEntry = {
      ...newEntry(task),
      step: 'claimed',
      slot,
      dueAt: dueAt === undefined ? undefined : Math.floor(dueAt.getTime() / 1000),
      seatFinalAt:
        task.replicas > 1 && claimedAt !== undefined ? Math.floor(claimedAt.getTime() / 1000) : undefined,
    }
    await context.journal.put(entry)
    this.launch(entry, { task }, { resumed: true, gpus: gpus.acquire(task.requirements.minGpus) ?? [] })
  }

  /** The last line of defence: {@link runTask} handles every step's errors; the agent never crashes. */
  #failed(taskId: bigint, error: unknown) {
    const { context } = this.#parameters
    if (!context.signal.aborted) context.logger.error('task failed', { taskId, error: messageOf(error) })
  }

  async #finish(taskId: bigint, taken: string[], entry: JournalEntry | undefined) {
    const { gpus, workRoot } = this.#parameters
    this.#inFlight.delete(taskId)
    if (taken.length > 0) gpus.release(taken)
    if (entry === undefined || finalSteps.includes(entry.step))
      await rm(join(workRoot, taskId.toString()), { recursive: true, force: true }).catch(() => {})
    this.#freed()
  }

  /** Capacity came back: look at the tasks that waited for it. */
  #freed() {
    this.book.release('capacity')
    this.#schedule(0)
  }

  #schedule(delay: number) {
    if (this.#parameters.context.signal.aborted) return
    clearTimeout(this.#timer)
    this.#timer = setTimeout(() => void this.look(), Math.min(delay, 2 ** 31 - 1))
  }
}
