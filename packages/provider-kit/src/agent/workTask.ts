import { mkdir, rm } from 'node:fs/promises'
import {
  type ClaimTaskReturnType,
  ContractRevertedError,
  claimTask,
  commitResult,
  createReceipt,
  type Deployment,
  finalizeTask,
  generateSalt,
  getSource,
  getTask,
  isFinalStatus,
  reopenSlot,
  revealResult,
  submitResult,
  type Task,
} from '@gridforge/sdk'
import { type ContentStore, importPath } from '@gridforge/sdk/storage'
import type { Account, Address, Chain, Client, Hash, Transport } from 'viem'
import type { HostReport } from '../detect/HostReport.js'
import { receiptHardwareOf } from '../detect/receiptHardware.js'
import type { Logger } from '../logger.js'
import type {
  ContainerRuntime,
  ResourceLimits,
  RunResult,
  TaskContainer,
} from '../runtime/ContainerRuntime.js'
import { TaskRefusedError } from './errors.js'
import type { Journal, JournalEntry } from './journal.js'
import { messageOf, type PreparedTask, runSpecOf } from './prepareTask.js'
import { sleep } from './retry.js'

/** What the agent shares with each task it works on. */
export interface TaskContext {
  client: Client<Transport, Chain, Account>
  deployment: Deployment
  store: ContentStore
  runtime: ContainerRuntime
  host: HostReport
  journal: Journal
  owner: string
  address: Address
  limits: Omit<ResourceLimits, 'memoryBytes' | 'cpus'> & Partial<Pick<ResourceLimits, 'memoryBytes' | 'cpus'>>
  submitMarginSec: number
  pollingInterval: number
  /** Aborts when the agent stops. */
  signal: AbortSignal
  /**
   * Sends one transaction at a time (and waits for it): an agent's tasks run
   * concurrently, and nodes that mine on arrival (Hardhat, Anvil) refuse a
   * nonce that arrives before the one below it.
   */
  transact: <T>(send: () => Promise<T>) => Promise<T>
  /** Runs a chain or store call, retrying transient failures until the agent stops. */
  rpc: <T>(what: string, fn: () => Promise<T>, fields?: Record<string, unknown>) => Promise<T>
  /** The latest block's timestamp: deadlines are chain time, whatever this host's clock says. */
  chainNow: () => Promise<number>
  prepare: (task: Task & { inputCID: string }, workDir: string, fetch: boolean) => Promise<PreparedTask>
  workDirOf: (taskId: bigint) => string
  /** Called once, when the task leaves its claim/run phase (it no longer counts against concurrency). */
  onRunFinished: () => void
  /** Called when a task is refused before it was claimed. */
  onRefused: (taskId: bigint, reason: string) => void
  /** Preparing failed before any claim (input or image unavailable, …): try this task again later, not at once. */
  onPostponed: (taskId: bigint, reason: string) => void
}

/** How a task enters {@link workTask}. */
export interface TaskStart {
  /** GPUs reserved for it. */
  gpus: string[]
  /** The task as last read, when the caller has it. */
  task?: (Task & { inputCID?: string | undefined }) | undefined
  /** A container a crash left for this task. */
  container?: TaskContainer | undefined
  /** A new task (not resumed from the journal): prepare it, then claim. */
  fresh?: boolean | undefined
  /** Reopen this overdue slot before claiming. */
  reopen?: number | undefined
  logger: Logger
}

/**
 * Takes one task from wherever its journal entry says it is to the end:
 * claim → run → output, logs and receipt stored → submit, or commit → reveal →
 * finalize. Before every transaction the step is journaled; when resuming a
 * step that may have reached the chain, the chain is read first, so nothing is
 * sent twice. Returns when the task is done, abandoned, or the agent stops.
 */
export async function workTask(context: TaskContext, initial: JournalEntry, start: TaskStart): Promise<void> {
  const { client, deployment, store, runtime, journal, address, rpc, signal, logger } = {
    ...context,
    ...start,
  }
  const taskId = BigInt(initial.taskId)
  const workDir = context.workDirOf(taskId)
  let entry = initial
  let runPhaseOver = false
  const leaveRunPhase = () => {
    if (runPhaseOver) return
    runPhaseOver = true
    context.onRunFinished()
  }
  const save = async (patch: Partial<JournalEntry>) => {
    entry = { ...entry, ...patch, updatedAt: new Date().toISOString() }
    await journal.put(entry)
  }
  const abandon = async (reason: string) => {
    logger.warn('task abandoned', { reason, step: entry.step })
    await save({ step: 'abandoned', reason })
  }
  const readTask = (includeInput = false) =>
    rpc('reading the task', () => getTask(client, { deployment, taskId, includeInput }))
  const mySlot = (task: Task) => (entry.slot === undefined ? undefined : task.slots[entry.slot])
  const stillMine = (task: Task) => mySlot(task)?.provider === address

  try {
    let task = start.task ?? (await readTask(true))
    if (task.inputCID === undefined) task = await readTask(true)
    const withInput = task as Task & { inputCID: string }
    let prepared: PreparedTask | undefined

    // 1. Claim.
    if (entry.step === 'claiming') {
      if (start.fresh === true) {
        try {
          prepared = await context.prepare(withInput, workDir, true)
        } catch (error) {
          if (error instanceof TaskRefusedError) {
            logger.warn('task refused', { reason: error.reason })
            context.onRefused(taskId, error.reason)
            return
          }
          if (signal.aborted) throw error
          // Nothing is claimed yet: a failure here (input not found, store or engine down) costs
          // nothing but must not be retried on every scan.
          const reason = messageOf(error)
          logger.warn('task postponed', { reason })
          context.onPostponed(taskId, reason)
          return
        }
        await save({ step: 'claiming', gpus: start.gpus })
        let claim: Awaited<ReturnType<typeof claimSlot>>
        try {
          claim = await rpc('claiming', () =>
            context.transact(() => claimSlot(context, taskId, start.reopen)),
          )
        } catch (error) {
          if (!(error instanceof ContractRevertedError)) throw error
          // The market refused the claim with a slot still free (not subscribed, stake or reputation
          // short, …): nothing was locked. Refused for this run, not tried again on every scan.
          await journal.remove(taskId)
          const reason = `the market refused the claim: ${error.shortMessage}`
          logger.warn('task refused', { reason })
          context.onRefused(taskId, reason)
          return
        }
        if (claim === undefined) {
          logger.info('another provider claimed the task first')
          await journal.remove(taskId)
          return
        }
        await save({ step: 'claimed', slot: claim.slot, dueAt: seconds(claim.dueAt), txHash: claim.hash })
        logger.info('claimed', { slot: claim.slot, dueAt: claim.dueAt })
      } else {
        // Resumed: the claim may or may not have reached the chain.
        const current = await readTask()
        const slot = current.slots.find((s) => s.provider === address && s.status !== 'Free')
        if (slot === undefined) {
          await journal.remove(taskId)
          return
        }
        await save({ step: 'claimed', slot: slot.index, dueAt: seconds(slot.dueAt) })
      }
    }
    const slot = entry.slot
    if (slot === undefined) throw new Error(`journal entry of task ${taskId} at ${entry.step} has no slot`)

    // 2. Run.
    if (entry.step === 'claimed' || entry.step === 'running') {
      const current = await readTask()
      if (!stillMine(current) || mySlot(current)?.status !== 'Claimed') {
        await abandon('the slot is no longer ours (reopened after its deadline, or the task ended)')
        return
      }
      try {
        prepared ??= await context.prepare(withInput, workDir, start.container === undefined)
      } catch (error) {
        if (!(error instanceof TaskRefusedError)) throw error
        await abandon(error.reason)
        return
      }
      const now = await context.chainNow()
      const remaining = (entry.dueAt ?? now) - now - context.submitMarginSec
      const maxRun = Math.min(prepared.metadata.resources.maxRuntimeSec, current.requirements.maxRuntimeSec)
      if (remaining <= 0) {
        await abandon('no time left before the claim is due')
        return
      }
      const spec = runSpecOf({
        owner: context.owner,
        provider: address,
        task: current,
        slot,
        prepared,
        gpus: entry.gpus,
        limits: context.limits,
        deadline: new Date(Date.now() + Math.min(remaining, maxRun) * 1000),
      })
      let running: Promise<RunResult>
      if (start.container !== undefined) {
        logger.info('re-attaching to its container', { container: start.container.containerId })
        running = runtime.attach(start.container.containerId, spec)
      } else {
        await rm(prepared.outputDir, { recursive: true, force: true })
        await mkdir(prepared.outputDir, { recursive: true })
        await save({ step: 'running' })
        logger.info('running', { image: prepared.metadata.image, gpus: entry.gpus, runtime: runtime.kind })
        // An unisolated process cannot outlive the agent; a container can, and is re-attached on restart.
        running = runtime.run(runtime.isolated ? spec : { ...spec, signal })
      }
      const result = await untilAborted(running, signal)
      if (result === undefined) return
      const logsCID = await rpc('storing the logs', () => store.put(result.logs))
      const outputCID =
        result.outcome === 'exited'
          ? await rpc('storing the output', () => importPath(store, spec.outputDir, { hidden: true }))
          : undefined
      await save({
        step: 'ran',
        containerId: result.containerId,
        run: {
          outcome: result.outcome,
          exitCode: result.exitCode,
          startedAt: seconds(result.startedAt),
          finishedAt: seconds(result.finishedAt),
          logsCID,
          outputCID,
          reason: result.reason,
        },
      })
      logger.info('container finished', {
        outcome: result.outcome,
        exitCode: result.exitCode,
        outputCID,
        logsCID,
      })
      await runtime
        .remove(result.containerId)
        .catch((error: unknown) => logger.warn('removing the container failed', { error: messageOf(error) }))
    } else if (start.container !== undefined) {
      await runtime.remove(start.container.containerId)
    }
    leaveRunPhase()
    const run = entry.run
    if (run === undefined) throw new Error(`journal entry of task ${taskId} at ${entry.step} has no run`)
    if (run.outcome !== 'exited' || run.outputCID === undefined) {
      if (entry.step === 'ran')
        await abandon(
          `the container ended with ${run.outcome}${run.reason ? `: ${run.reason}` : ''}; nothing submitted`,
        )
      return
    }
    const outputCID = run.outputCID

    // 3. Receipt.
    if (entry.receiptCID === undefined) {
      const current = await readTask()
      const claimedAt = mySlot(current)?.claimedAt
      const now = await context.chainNow()
      // The market caps runtime at the time since the claim; the receipt must carry the figure the chain will.
      const sinceClaim = claimedAt === undefined ? 0 : now - seconds(claimedAt)
      const runtimeSec = Math.max(0, Math.min(run.finishedAt - run.startedAt, sinceClaim))
      const imageDigest =
        prepared?.source.imageDigest ??
        (await rpc('reading the source', () => getSource(client, { deployment, sourceId: entry.sourceId })))
          .imageDigest
      const { cid } = await rpc('storing the receipt', () =>
        createReceipt(client, {
          deployment,
          store,
          taskId,
          slot,
          sourceId: entry.sourceId,
          imageDigest,
          inputCID: withInput.inputCID,
          outputCID,
          logsCID: run.logsCID,
          startedAt: run.startedAt,
          finishedAt: run.finishedAt,
          runtimeSec,
          exitCode: run.exitCode ?? 0,
          hardware: receiptHardwareOf(context.host),
        }),
      )
      await save({ receiptCID: cid, runtimeSec })
    }
    const receiptCID = entry.receiptCID as string
    const runtimeSec = entry.runtimeSec ?? 0

    // 4a. One replica: submit.
    if (entry.replicas === 1) {
      if (entry.step === 'submitting') {
        const current = await readTask()
        if (mySlot(current)?.status === 'Submitted') {
          await save({ step: 'done' })
          logger.info('result was already submitted')
          return
        }
      }
      await save({ step: 'submitting' })
      try {
        const submitted = await rpc('submitting the result', () =>
          context.transact(() =>
            submitResult(client, { deployment, taskId, result: outputCID, receipt: receiptCID, runtimeSec }),
          ),
        )
        await save({ step: 'done', txHash: submitted.hash })
        logger.info('result submitted', { outputCID, receiptCID, runtimeSec, hash: submitted.hash })
      } catch (error) {
        if (!(error instanceof ContractRevertedError)) throw error
        const current = await readTask()
        if (mySlot(current)?.status === 'Submitted') await save({ step: 'done' })
        else await abandon(`submitting was refused: ${messageOf(error)}`)
      }
      return
    }

    // 4b. Consensus: commit, wait for every slot, reveal, finalize.
    if (entry.step === 'ran' || entry.step === 'committing') {
      const current = await readTask()
      const status = mySlot(current)?.status
      const alreadyCommitted = entry.step === 'committing' && stillMine(current) && status === 'Committed'
      if (!alreadyCommitted) {
        if (!stillMine(current) || status !== 'Claimed') {
          await abandon('the slot is no longer ours before committing')
          return
        }
        // The salt is journaled before the commitment is sent: without it the reveal is impossible.
        const salt = entry.salt ?? generateSalt()
        await save({ step: 'committing', salt })
        try {
          await rpc('committing the result', () =>
            context.transact(() => commitResult(client, { deployment, taskId, result: outputCID, salt })),
          )
        } catch (error) {
          if (!(error instanceof ContractRevertedError)) throw error
          const after = await readTask()
          if (!(stillMine(after) && mySlot(after)?.status === 'Committed')) {
            await abandon(`committing was refused: ${messageOf(error)}`)
            return
          }
        }
      }
      await save({ step: 'committed' })
      logger.info('result committed', { outputCID })
    }
    if (entry.step === 'committed') {
      for (;;) {
        const current = await readTask()
        if (isFinalStatus(current.status)) {
          await abandon(`the task ended ${current.status} before every slot committed`)
          return
        }
        if (current.status === 'Revealing') break
        if (!stillMine(current)) {
          await abandon('the slot is no longer ours')
          return
        }
        await sleep(context.pollingInterval, signal)
      }
      await save({ step: 'revealing' })
    }
    if (entry.step === 'revealing') {
      const current = await readTask()
      if (mySlot(current)?.resultDigest === undefined) {
        try {
          await rpc('revealing the result', () =>
            context.transact(() =>
              revealResult(client, {
                deployment,
                taskId,
                result: outputCID,
                receipt: receiptCID,
                salt: entry.salt as `0x${string}`,
                runtimeSec,
              }),
            ),
          )
        } catch (error) {
          if (!(error instanceof ContractRevertedError)) throw error
          const after = await readTask()
          if (mySlot(after)?.resultDigest === undefined && !isFinalStatus(after.status)) {
            await abandon(`revealing was refused: ${messageOf(error)}`)
            return
          }
        }
      }
      await save({ step: 'revealed' })
      logger.info('result revealed', { outputCID })
    }
    for (;;) {
      const current = await readTask()
      if (isFinalStatus(current.status)) {
        await save({ step: 'done' })
        logger.info('task settled', { status: current.status })
        return
      }
      const now = await context.chainNow()
      if (current.revealDeadline !== undefined && seconds(current.revealDeadline) < now) {
        // Anyone may finalize after the window; doing it gets this provider paid without waiting for others.
        await rpc('finalizing', () =>
          context.transact(() => finalizeTask(client, { deployment, taskId })),
        ).catch((error: unknown) => {
          if (!(error instanceof ContractRevertedError)) throw error
        })
        continue
      }
      await sleep(context.pollingInterval, signal)
    }
  } catch (error) {
    if (signal.aborted) return
    if (error instanceof TaskRefusedError && entry.step !== 'claiming') {
      await abandon(error.reason)
      return
    }
    throw error
  } finally {
    leaveRunPhase()
  }
}

/**
 * Claims a slot (reopening an overdue one first). Returns `undefined` when
 * another provider took the last free slot. A claim whose answer was lost
 * (the node went away after mining it) is recognised on the retry: the revert
 * says we are already on the task, and the chain shows our slot.
 */
async function claimSlot(
  context: Pick<TaskContext, 'client' | 'deployment' | 'address'>,
  taskId: bigint,
  reopen: number | undefined,
): Promise<(Pick<ClaimTaskReturnType, 'slot' | 'dueAt'> & { hash: Hash | undefined }) | undefined> {
  const { client, deployment, address } = context
  if (reopen !== undefined) {
    await reopenSlot(client, { deployment, taskId, slot: reopen }).catch((error: unknown) => {
      // Someone reopened it first: the slot is free either way.
      if (!(error instanceof ContractRevertedError)) throw error
    })
  }
  try {
    return await claimTask(client, { deployment, taskId })
  } catch (error) {
    if (!(error instanceof ContractRevertedError)) throw error
    const task = await getTask(client, { deployment, taskId })
    const mine = task.slots.find((slot) => slot.provider === address && slot.status !== 'Free')
    if (mine?.dueAt !== undefined) return { slot: mine.index, dueAt: mine.dueAt, hash: undefined }
    if (!task.slots.some((slot) => slot.status === 'Free')) return undefined
    throw error
  }
}

async function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  if (signal.aborted) return undefined
  return new Promise<T | undefined>((resolve, reject) => {
    const onAbort = () => resolve(undefined)
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort)
        resolve(value)
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort)
        reject(error)
      },
    )
  })
}

function seconds(date: Date | undefined): number {
  return date === undefined ? 0 : Math.floor(date.getTime() / 1000)
}
