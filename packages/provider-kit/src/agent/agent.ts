import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { Capabilities } from '@gridforge/sdk'
import type { Address } from 'viem'
import { getBlock } from 'viem/actions'
import { capabilitiesOf, offeredGpus } from '../detect/capabilities.js'
import { type Logger, silentLogger } from '../logger.js'
import type { ContainerRuntime, ResourceLimits } from '../runtime/ContainerRuntime.js'
import { type GpuPool, gpuPool } from '../runtime/gpuPool.js'
import type { AgentOptions } from './AgentOptions.js'
import { readBacklog } from './backlog.js'
import { readCursor, writeCursor } from './cursor.js'
import { messageOf } from './errorKind.js'
import { HeldResults } from './heldResults.js'
import { cleanJournal, finalSteps, type Journal, openJournal } from './journal.js'
import { type RunningLeases, runLeases } from './leases/runLeases.js'
import { watchMarket } from './marketWatch.js'
import { metadataRefusal, resolvePolicy } from './policy.js'
import { prepareTask } from './prepareTask.js'
import { publishPriceFloor } from './publishPriceFloor.js'
import { retry } from './retry.js'
import { type SharedContext, TaskScheduler } from './scheduler.js'
import { withdrawEarnings } from './withdrawEarnings.js'

/** A running provider agent. */
export interface Agent extends AsyncDisposable {
  /** The provider account. */
  readonly address: Address
  /**
   * Tasks the agent is working on now (claimed, running, waiting for consensus, held for their
   * audit draw or under audit), and audits it joins or works on.
   */
  tasks(): bigint[]
  /** Leases the agent serves or settles now (empty unless `leases.enabled`). */
  leases(): bigint[]
  /** The lease gateway, when leases are enabled. */
  readonly leaseGateway: RunningLeases['gateway'] | undefined
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
 * (re-attaching to containers a crash left running), reads the tasks that may
 * still be taken (from its journaled cursor, or on a first start the tasks of
 * the last 30 days), then follows the market's events: it claims what its
 * policy accepts, runs it, and submits (or commits and reveals) the result
 * with a signed receipt. The seats of a task with replicas > 1 are raced for:
 * a seat won runs once the race is over and the seat is still its own. A result
 * the market holds for its audit draw is released two blocks later (and, when
 * drawn, watched until the audit settles it), like replicas' results that differ
 * (a dispute); the audits and disputes of other providers' results that its
 * policy accepts are joined and re-run like consensus replicas. Every step is journaled before it is taken, so a
 * restart never submits anything twice; its cost follows what happens in the
 * market now, never the market's age.
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
  const { client, deployment, runtime, host } = options
  const address = client.account.address
  const logger = (options.logger ?? silentLogger).child({ provider: address })
  const market = `${client.chain.id}:${deployment.contracts.market}`.toLowerCase()
  const gpuIds = offeredGpus(host).map((gpu) => gpu.uuid)
  const gpus = gpuPool(gpuIds)
  const policy = resolvePolicy(options.policy, gpuIds.length)
  const pollingInterval = options.pollingInterval ?? client.pollingInterval
  const rescanInterval = options.rescanInterval ?? 30_000

  await mkdir(options.dataDir, { recursive: true })
  const journalDir = join(options.dataDir, 'journal')
  const journal = await openJournal(journalDir)
  await cleanJournal(journalDir)

  const stopController = new AbortController()
  const signal = stopController.signal
  const capabilities = capabilitiesOf(host)
  const context = sharedContext(options, capabilities, {
    journal,
    logger,
    signal,
    policy,
    maxWaitMs: rescanInterval,
    pollingInterval,
  })
  const scheduler = new TaskScheduler({
    context,
    policy,
    capabilities,
    gpus,
    workRoot: join(options.dataDir, 'work'),
    // A task whose preparation failed before a claim is looked at again two intervals later.
    postponeMs: 2 * rescanInterval,
  })

  // 1. Resume the journal; re-attach or remove containers a crash left behind.
  const resumed = await resumeJournal({ journal, runtime, owner: context.owner, gpus, scheduler, logger })
  // Clients' quotes read the floor this agent claims at: publish the policy's when the chain holds another.
  await publishPriceFloor({
    client,
    deployment,
    floor: policy.minPricePerGpuSecond,
    transact: context.transact,
    logger,
  })
  // 2. Leases, beside the tasks, started before any new task is taken: a lease resumed after a restart
  // holds its GPUs again first.
  const leases =
    options.leases?.enabled === true
      ? await runLeases({
          client,
          deployment,
          store: options.store,
          runtime,
          gpus,
          policy: options.leases,
          sources: options.leases.sources ?? options.policy?.sources,
          allowEgress: policy.allowEgress,
          owner: context.owner,
          dataDir: options.dataDir,
          pollingInterval,
          transact: context.transact,
          logger: logger.child({ part: 'leases' }),
          signal,
        })
      : undefined
  // 3. The tasks that may still be taken, then every event after them.
  let following: Awaited<ReturnType<typeof followMarket>>
  try {
    following = await followMarket({ options, scheduler, context, market, pollingInterval })
  } catch (error) {
    stopController.abort(error)
    await leases?.stop()
    throw error
  }
  const { fromBlock, watching } = following
  // 4. Withdraw earnings on a schedule.
  const stopWithdrawing =
    options.withdraw === undefined || options.withdraw === false
      ? () => {}
      : withdrawEarnings({
          client,
          deployment,
          schedule: options.withdraw,
          transact: context.transact,
          logger,
        })

  logger.info('agent started', {
    runtime: runtime.kind,
    isolated: runtime.isolated,
    gpus: gpuIds.length,
    concurrency: policy.concurrency,
    resumed,
    fromBlock,
  })

  let resolveDone: () => void = () => {}
  const done = new Promise<void>((resolve) => {
    resolveDone = resolve
  })
  let stopping: Promise<void> | undefined
  const stop = () => {
    stopping ??= (async () => {
      logger.info('stopping', { inFlight: scheduler.tasks().length })
      stopController.abort(new Error('the agent is stopping'))
      stopWithdrawing()
      await Promise.allSettled([watching, scheduler.stop(), leases?.stop()])
      logger.info('stopped')
      resolveDone()
    })()
    return stopping
  }
  return {
    address,
    tasks: () => scheduler.tasks(),
    leases: () => leases?.leases() ?? [],
    leaseGateway: leases?.gateway,
    stop,
    done,
    [Symbol.asyncDispose]: stop,
  }
}

/**
 * Puts the tasks that may still be taken in the book (from the journaled
 * cursor, or on a first start from the backlog), then follows the market's
 * events from there, journaling the cursor after each new block range.
 */
async function followMarket(parameters: {
  options: AgentOptions
  scheduler: TaskScheduler
  context: SharedContext
  market: string
  pollingInterval: number
}): Promise<{ fromBlock: bigint; watching: Promise<void> }> {
  const { options, scheduler, context, market, pollingInterval } = parameters
  const cursor = await readCursor(options.dataDir, market)
  const fromBlock = cursor === undefined ? await readBacklogInto(scheduler, context) : cursor.block + 1n
  for (const taskId of cursor?.tasks ?? []) scheduler.book.add(taskId, 0, undefined)
  void scheduler.look()
  const watching = watchMarket({
    client: context.client,
    deployment: context.deployment,
    fromBlock,
    pollingInterval,
    signal: context.signal,
    // Called only when new blocks came: the cursor is journaled once per new range, not per poll.
    onLogs: async (logs, toBlock) => {
      scheduler.onLogs(logs)
      await writeCursor(options.dataDir, market, { block: toBlock, tasks: scheduler.book.ids() })
    },
    onError: (error) =>
      context.logger.warn('reading market events failed, retrying', { error: messageOf(error) }),
  })
  return { fromBlock, watching }
}

/** What every task shares: the chain, the store, the runtime, one transaction at a time. */
function sharedContext(
  options: AgentOptions,
  capabilities: Capabilities,
  extra: {
    journal: Journal
    logger: Logger
    signal: AbortSignal
    policy: ReturnType<typeof resolvePolicy>
    maxWaitMs: number
    pollingInterval: number
  },
): SharedContext {
  const { client, deployment, store, runtime, host } = options
  const { signal, policy } = extra
  const address = client.account.address
  let queue: Promise<unknown> = Promise.resolve()
  const transact = <T>(send: () => Promise<T>): Promise<T> => {
    const next = queue.then(send, send)
    queue = next.catch(() => {})
    return next
  }
  const chainNow = async () =>
    Number((await retry(() => getBlock(client, { blockTag: 'latest' }), { signal })).timestamp)
  return {
    ...extra,
    client,
    deployment,
    store,
    runtime,
    host,
    address,
    owner: `${client.chain.id}:${deployment.contracts.market}:${address}`.toLowerCase(),
    limits: { ...defaultLimits, ...options.limits },
    submitMarginSec: options.submitMarginSec ?? 30,
    heldResults: new HeldResults(),
    releaseWaitSec: options.releaseWaitSec ?? 30,
    transact,
    chainNow,
    prepare: (task, fetch, validator) =>
      prepareTask({
        client,
        deployment,
        store,
        runtime,
        task,
        // Each task's folder is under the data directory, named by its id.
        workDir: join(options.dataDir, 'work', task.taskId.toString()),
        fetch,
        validator,
        signal,
        maxInputBytes: policy.maxInputBytes,
        refusal: (metadata) => metadataRefusal(metadata, capabilities, policy),
      }),
  }
}

/** Launches every unfinished journal entry (with the container a crash left for it); returns how many. */
async function resumeJournal(parameters: {
  journal: Journal
  runtime: ContainerRuntime
  owner: string
  gpus: GpuPool
  scheduler: TaskScheduler
  logger: Logger
}): Promise<number> {
  const { journal, runtime, owner, gpus, scheduler, logger } = parameters
  const containers = new Map(
    (await retry(() => runtime.listTaskContainers(owner))).map((container) => [container.taskId, container]),
  )
  let resumed = 0
  for (const entry of await journal.list()) {
    if (finalSteps.includes(entry.step)) continue
    const taskId = BigInt(entry.taskId)
    const container = containers.get(taskId)
    containers.delete(taskId)
    const taken = entry.gpus.length === 0 ? [] : (gpus.acquireExactly(entry.gpus) ?? entry.gpus)
    logger.info('resuming task', { taskId, step: entry.step, container: container?.containerId })
    scheduler.launch(entry, { container }, { resumed: true, gpus: taken })
    resumed++
  }
  for (const container of containers.values()) {
    logger.warn('removing a container no journal entry claims', {
      taskId: container.taskId,
      container: container.containerId,
    })
    await runtime.remove(container.containerId)
  }
  return resumed
}

/** First start: puts the tasks that may still be taken in the book; returns the block to follow events from. */
async function readBacklogInto(scheduler: TaskScheduler, context: SharedContext): Promise<bigint> {
  const { tasks, toBlock } = await retry(() => readBacklog(context.client, context.deployment), {
    signal: context.signal,
    onRetry: (error) =>
      context.logger.warn('reading open tasks failed, retrying', { error: messageOf(error) }),
  })
  for (const task of tasks) scheduler.book.add(task.taskId, task.sourceId, task.inputCID)
  return toBlock + 1n
}
