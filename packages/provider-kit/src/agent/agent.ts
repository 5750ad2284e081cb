import { mkdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import {
  type Capabilities,
  getWalletBalance,
  isFinalStatus,
  isSubscribed,
  listTasks,
  type Task,
  watchTasks,
  withdraw,
} from '@gridforge/sdk'
import type { Address } from 'viem'
import { getBlock } from 'viem/actions'
import { capabilitiesOf, offeredGpus } from '../detect/capabilities.js'
import { silentLogger } from '../logger.js'
import type { ResourceLimits, TaskContainer } from '../runtime/ContainerRuntime.js'
import { gpuPool } from '../runtime/gpuPool.js'
import type { AgentOptions } from './AgentOptions.js'
import { cleanJournal, finalSteps, type JournalEntry, newEntry, openJournal } from './journal.js'
import { metadataRefusal, resolvePolicy, taskRefusal } from './policy.js'
import { messageOf, prepareTask } from './prepareTask.js'
import { retry } from './retry.js'
import { type TaskContext, type TaskStart, workTask } from './workTask.js'

/** A running provider agent. */
export interface Agent extends AsyncDisposable {
  /** The provider account. */
  readonly address: Address
  /** Tasks the agent is working on now (claimed, running, or waiting for consensus). */
  tasks(): bigint[]
  /**
   * Stops taking tasks and returns once in-flight work is journaled. Docker
   * containers keep running and are re-attached by the next start; the
   * unisolated process runtime's commands are killed.
   */
  stop(): Promise<void>
  /** Resolves when the agent has stopped. */
  readonly done: Promise<void>
}

/** Default container limits; a source's memory and CPUs apply unless these are lower. */
export const defaultLimits = {
  pids: 512,
  tmpBytes: 256 * 1024 ** 2,
  maxOutputBytes: 1024 ** 3,
  maxLogBytes: 1024 ** 2,
} as const satisfies Partial<ResourceLimits>

/**
 * Starts a provider agent: it resumes what its journal says was in flight
 * (re-attaching to containers a crash left running), then watches the market
 * for new tasks and rescans open ones (to catch reopened slots), claims what
 * its policy accepts, runs it, and submits (or commits and reveals) the result
 * with a signed receipt. Every step is journaled before it is taken, so a
 * restart never submits anything twice.
 *
 * @example
 * import { createWalletClient, http, nonceManager } from 'viem'
 * import { privateKeyToAccount } from 'viem/accounts'
 * import { getDeployment } from '@gridforge/contracts'
 * import { fsStore } from '@gridforge/sdk/storage'
 * import { detectHost, dockerRuntime, jsonLogger, startAgent } from '@gridforge/provider-kit'
 *
 * const client = createWalletClient({
 *   account: privateKeyToAccount(process.env.GRIDFORGE_PRIVATE_KEY, { nonceManager }),
 *   chain,
 *   transport: http(rpcUrl, { retryCount: 5 }),
 * })
 * const agent = await startAgent({
 *   client,
 *   deployment: getDeployment(chain.id),
 *   store: fsStore({ root: '/var/lib/gridforge/store' }),
 *   runtime: dockerRuntime(),
 *   host: await detectHost(),
 *   dataDir: '/var/lib/gridforge/agent',
 *   policy: { minPricePerGpuSecond: 10n ** 12n },
 *   logger: jsonLogger(),
 * })
 * process.once('SIGTERM', () => agent.stop())
 * await agent.done
 */
export async function startAgent(options: AgentOptions): Promise<Agent> {
  const { client, deployment, store, runtime, host } = options
  const address = client.account.address
  const logger = (options.logger ?? silentLogger).child({ provider: address })
  const chainId = client.chain.id
  const owner = `${chainId}:${deployment.contracts.market}:${address}`.toLowerCase()
  const capabilities: Capabilities = capabilitiesOf(host)
  const gpuIds = offeredGpus(host).map((gpu) => gpu.uuid)
  const gpus = gpuPool(gpuIds)
  const policy = resolvePolicy(options.policy, gpuIds.length)
  const limits = { ...defaultLimits, ...options.limits }
  const pollingInterval = options.pollingInterval ?? client.pollingInterval
  const rescanInterval = options.rescanInterval ?? 30_000
  // A task whose preparation failed before a claim is looked at again two rescans later.
  const postponeMs = 2 * rescanInterval
  const submitMarginSec = options.submitMarginSec ?? 30

  await mkdir(options.dataDir, { recursive: true })
  const journalDir = join(options.dataDir, 'journal')
  const journal = await openJournal(journalDir)
  await cleanJournal(journalDir)
  const workRoot = join(options.dataDir, 'work')

  const stopController = new AbortController()
  const signal = stopController.signal
  const inFlight = new Map<bigint, Promise<void>>()
  // Tasks in their claim/prepare/run phase: what `policy.concurrency` limits.
  let running = 0
  // Tasks refused before any claim: never looked at again by this process.
  const refused = new Set<bigint>()
  // Tasks whose preparation failed before a claim: looked at again after `postponeMs`.
  const postponed = new Map<bigint, number>()

  const rpc = <T>(what: string, fn: () => Promise<T>, fields: Record<string, unknown> = {}) =>
    retry(fn, {
      signal,
      onRetry: (error, attempt, delay) =>
        logger.warn(`${what} failed, retrying`, {
          ...fields,
          attempt,
          delayMs: delay,
          error: messageOf(error),
        }),
    })
  const chainNow = async () =>
    Number((await rpc('reading the latest block', () => getBlock(client, { blockTag: 'latest' }))).timestamp)

  let queue: Promise<unknown> = Promise.resolve()
  const transact = <T>(send: () => Promise<T>): Promise<T> => {
    const next = queue.then(send, send)
    queue = next.catch(() => {})
    return next
  }

  const context: TaskContext = {
    transact,
    client,
    deployment,
    store,
    runtime,
    host,
    journal,
    owner,
    address,
    limits,
    submitMarginSec,
    pollingInterval,
    signal,
    rpc,
    chainNow,
    prepare: (task, workDir, fetch) =>
      prepareTask({
        client,
        deployment,
        store,
        runtime,
        task,
        workDir,
        fetch,
        signal,
        maxInputBytes: policy.maxInputBytes,
        refusal: (metadata) => metadataRefusal(metadata, capabilities, policy),
      }),
    workDirOf: (taskId) => join(workRoot, taskId.toString()),
    onRunFinished: () => {
      running--
      scheduleScan(0)
    },
    onRefused: (taskId) => {
      refused.add(taskId)
    },
    onPostponed: (taskId) => {
      postponed.set(taskId, Date.now() + postponeMs)
    },
  }

  const launch = (entry: JournalEntry, start: Omit<TaskStart, 'logger'>) => {
    const taskId = BigInt(entry.taskId)
    const taskLogger = logger.child({ taskId })
    running++
    const work = workTask(context, entry, { ...start, logger: taskLogger })
      .catch((error: unknown) => {
        if (signal.aborted) return
        // workTask journals what it can; this is the last line of defence: never crash the agent.
        taskLogger.error('task failed', { error: messageOf(error) })
      })
      .finally(async () => {
        inFlight.delete(taskId)
        if (start.gpus.length > 0) gpus.release(start.gpus)
        const final = await journal.get(taskId).catch(() => undefined)
        if (final !== undefined && finalSteps.includes(final.step))
          await rm(context.workDirOf(taskId), { recursive: true, force: true }).catch(() => {})
      })
    inFlight.set(taskId, work)
  }

  // 1. Resume the journal; re-attach or clean up containers a crash left behind.
  const containers = new Map<bigint, TaskContainer>()
  for (const container of await rpc('listing containers', () => runtime.listTaskContainers(owner)))
    containers.set(container.taskId, container)
  for (const entry of await journal.list()) {
    if (finalSteps.includes(entry.step)) continue
    const taskId = BigInt(entry.taskId)
    const container = containers.get(taskId)
    containers.delete(taskId)
    const wanted = entry.gpus.length === 0 ? [] : (gpus.acquireExactly(entry.gpus) ?? entry.gpus)
    logger.info('resuming task', { taskId, step: entry.step, container: container?.containerId })
    launch(entry, { gpus: wanted, container })
  }
  for (const container of containers.values()) {
    logger.warn('removing a container no journal entry claims', {
      taskId: container.taskId,
      container: container.containerId,
    })
    await runtime.remove(container.containerId)
  }

  // 2. Take new tasks.
  // Without a `sources` policy the pools the provider joined on chain decide. A "yes" is kept; a "no"
  // is read again on the next scan (once per source per scan), so a subscription made while the agent
  // runs (`gridforge-provider register`, `subscribeSources`) takes effect without a restart.
  const subscribed = new Set<number>()
  let notSubscribed = new Map<number, Promise<boolean>>()
  const subscriptionRefusal = async (sourceId: number) => {
    if (policy.sources !== undefined || subscribed.has(sourceId)) return undefined
    let read = notSubscribed.get(sourceId)
    if (read === undefined) {
      read = rpc('reading subscriptions', () => isSubscribed(client, { deployment, sourceId }))
      notSubscribed.set(sourceId, read)
    }
    if (!(await read)) return `not subscribed to source ${sourceId}`
    subscribed.add(sourceId)
    return undefined
  }
  const consider = async (task: Task & { inputCID: string }, now: number) => {
    const taskId = task.taskId
    if (signal.aborted || inFlight.has(taskId) || refused.has(taskId)) return
    if ((postponed.get(taskId) ?? 0) > Date.now()) return
    const mine = task.slots.find((slot) => slot.provider === address && slot.status !== 'Free')
    if (isFinalStatus(task.status)) return
    const entry = await journal.get(taskId)
    if (entry !== undefined && finalSteps.includes(entry.step)) return
    if (mine !== undefined) {
      // A claim of ours the journal does not know (it was lost): adopt it rather than be slashed.
      if (entry !== undefined || inFlight.has(taskId)) return
      logger.warn('adopting a claim missing from the journal', { taskId, slot: mine.index })
      const adopted: JournalEntry = {
        ...newEntry(task),
        step: 'claimed',
        slot: mine.index,
        dueAt: mine.dueAt === undefined ? undefined : Math.floor(mine.dueAt.getTime() / 1000),
      }
      await journal.put(adopted)
      launch(adopted, { gpus: gpus.acquire(task.requirements.minGpus) ?? [], task })
      return
    }
    const free = task.slots.some((slot) => slot.status === 'Free')
    const overdue = task.slots.find(
      (slot) => slot.status === 'Claimed' && slot.dueAt !== undefined && slot.dueAt.getTime() / 1000 < now,
    )
    if (!(task.status === 'Open' && free) && overdue === undefined) return
    if (task.deadline.getTime() / 1000 <= now) return
    const refusal = taskRefusal(task, capabilities, policy)
    if (refusal !== undefined) {
      refused.add(taskId)
      logger.debug('not taking task', { taskId, reason: refusal })
      return
    }
    // Not refused for good: the provider may subscribe later.
    const unsubscribed = await subscriptionRefusal(task.sourceId)
    if (unsubscribed !== undefined) return
    if (running >= policy.concurrency) return
    const taken = gpus.acquire(task.requirements.minGpus)
    if (taken === undefined) return
    launch(newEntry(task), { gpus: taken, task, reopen: free ? undefined : overdue?.index, fresh: true })
  }

  let scanning = false
  let scanAgain = false
  const scan = async () => {
    if (scanning) {
      scanAgain = true
      return
    }
    scanning = true
    try {
      do {
        scanAgain = false
        notSubscribed = new Map()
        const [tasks, now] = await Promise.all([
          rpc('listing open tasks', () =>
            listTasks(client, { deployment, status: ['Open', 'Claimed', 'Revealing'] }),
          ),
          chainNow(),
        ])
        for (const task of tasks) {
          if (signal.aborted) return
          if (task.inputCID === undefined) continue
          await consider(task as Task & { inputCID: string }, now)
        }
      } while (scanAgain && !signal.aborted)
    } catch (error) {
      if (!signal.aborted) logger.error('scan failed', { error: messageOf(error) })
    } finally {
      scanning = false
    }
  }
  let scanTimer: NodeJS.Timeout | undefined
  const scheduleScan = (delay: number) => {
    if (signal.aborted) return
    clearTimeout(scanTimer)
    scanTimer = setTimeout(() => {
      void scan().finally(() => scheduleScan(rescanInterval))
    }, delay)
  }
  scheduleScan(0)

  const unwatch = watchTasks(client, {
    deployment,
    pollingInterval,
    onSubmitted: () => scheduleScan(0),
    onError: (error) => logger.warn('watching tasks failed, retrying', { error: messageOf(error) }),
  })

  // 3. Withdraw earnings on a schedule.
  let withdrawTimer: NodeJS.Timeout | undefined
  const schedule = options.withdraw
  if (schedule !== undefined && schedule !== false) {
    const minimum = schedule.minimum ?? 1n
    const tick = async () => {
      try {
        const { balance } = await getWalletBalance(client, { deployment, account: address })
        if (balance > 0n && balance >= minimum) {
          const { amount, hash } = await transact(() => withdraw(client, { deployment, amount: balance }))
          logger.info('withdrew earnings', { amount, hash })
        }
      } catch (error) {
        logger.warn('withdrawing earnings failed', { error: messageOf(error) })
      }
    }
    withdrawTimer = setInterval(() => void tick(), schedule.every)
  }

  logger.info('agent started', {
    runtime: runtime.kind,
    isolated: runtime.isolated,
    gpus: gpuIds.length,
    concurrency: policy.concurrency,
    resumed: inFlight.size,
  })

  let resolveDone: () => void = () => {}
  const done = new Promise<void>((resolve) => {
    resolveDone = resolve
  })
  let stopping: Promise<void> | undefined
  const stop = () => {
    stopping ??= (async () => {
      logger.info('stopping', { inFlight: inFlight.size })
      stopController.abort(new Error('the agent is stopping'))
      unwatch()
      clearTimeout(scanTimer)
      clearInterval(withdrawTimer)
      await Promise.allSettled(inFlight.values())
      logger.info('stopped')
      resolveDone()
    })()
    return stopping
  }

  return {
    address,
    tasks: () => [...inFlight.keys()],
    stop,
    done,
    [Symbol.asyncDispose]: stop,
  }
}
