import { mkdir, rm } from 'node:fs/promises'
import type { RunResult } from '../../runtime/ContainerRuntime.js'
import { readAndDecide, taskWithInput } from '../decide.js'
import type { JournalEntry, JournalRunLimits } from '../journal.js'
import { runSpecOf } from '../prepareTask.js'
import { auditCheckOf, preparedRun } from './prepare.js'
import { abandon, next, type Step, type StepContext, seconds } from './step.js'

/**
 * `claimed` → `running`: checks on chain that the slot is still ours, prepares
 * the task (on a resumed claim: source, image and input again), and that time
 * is left before the claim is due. `running` is journaled before the container
 * starts, so a restart knows a container may exist and looks for it. An audit
 * whose check is not journaled yet (its join's answer was lost) decides it
 * here, and journals it with `running`.
 *
 * A seat won in the race of a task with replicas > 1 waits until it is final
 * (`seatFinalAt`, chain time): a better ticket may take it until then (the task
 * is dropped: nothing runs, the market unlocked the collateral).
 */
export const startRun: Step = async (context, entry, memory) => {
  // Read before the task: the seat read after a final time can no longer change hands.
  const now = entry.seatFinalAt === undefined ? undefined : await context.chainNow()
  const decided = await readAndDecide(context, entry, memory)
  if (decided !== undefined) return decided
  if (now !== undefined && entry.seatFinalAt !== undefined && now < entry.seatFinalAt) {
    context.logger.debug('waiting for the seat race to end', { seatFinalAt: entry.seatFinalAt })
    return { wait: { untilChainTime: entry.seatFinalAt } }
  }
  let checked = entry
  if (entry.audit !== undefined && entry.audit.check === undefined) {
    const check = await auditCheckOf(context, await taskWithInput(context, entry, memory))
    checked = { ...entry, audit: { ...entry.audit, check } }
    // Whatever was prepared before did not know the check.
    memory.prepared = undefined
  }
  const prepared = await preparedRun(context, checked, memory, true)
  if ((await remainingSec(context, entry)) <= 0) return abandon(entry, 'no time left before the claim is due')
  await rm(prepared.outputDir, { recursive: true, force: true })
  await mkdir(prepared.outputDir, { recursive: true })
  return next(checked, { step: 'running' })
}

/**
 * `running` → `ran`: runs the container, or re-attaches to the one a crash
 * (or a failed wait) left, stores its logs and records how it ended. The
 * output is stored by the next step, once `ran` is journaled.
 */
export const awaitRun: Step = async (context, entry, memory) => {
  const { runtime, logger } = context
  const taskId = BigInt(entry.taskId)
  const container =
    memory.container ??
    (await runtime.listTaskContainers(context.owner)).find((candidate) => candidate.taskId === taskId)
  const prepared = await preparedRun(context, entry, memory, container === undefined)
  const task = await taskWithInput(context, entry, memory)
  const remaining = await remainingSec(context, entry)
  if (remaining <= 0 && container === undefined) return abandon(entry, 'no time left before the claim is due')
  const runtimeSec = Math.max(
    0,
    Math.min(remaining, prepared.metadata.resources.maxRuntimeSec, prepared.maxRuntimeSec),
  )
  const spec = runSpecOf({
    owner: context.owner,
    provider: context.address,
    task,
    slot: entry.slot as number,
    prepared,
    gpus: entry.gpus,
    limits: context.limits,
    deadline: new Date(Date.now() + runtimeSec * 1000),
  })
  const limits: JournalRunLimits = {
    runtimeSec,
    marketRuntime: runtimeSec >= prepared.maxRuntimeSec,
    sourceMemory: spec.limits.memoryBytes >= prepared.metadata.resources.memoryMiB * 1024 * 1024,
  }
  let running: Promise<RunResult>
  if (container !== undefined) {
    logger.info('re-attaching to its container', { container: container.containerId })
    running = runtime.attach(container.containerId, spec)
  } else {
    logger.info('running', { image: prepared.metadata.image, gpus: entry.gpus, runtime: runtime.kind })
    // An unisolated process cannot outlive the agent; a container can, and is re-attached on restart.
    running = runtime.run(runtime.isolated ? spec : { ...spec, signal: context.signal })
  }
  memory.container = undefined
  const result = await untilAborted(running, context.signal)
  const logsCID = await context.store.put(result.logs)
  logger.info('container finished', { outcome: result.outcome, exitCode: result.exitCode, logsCID })
  return next(entry, {
    step: 'ran',
    containerId: result.containerId,
    run: {
      outcome: result.outcome,
      exitCode: result.exitCode,
      startedAt: seconds(result.startedAt),
      finishedAt: seconds(result.finishedAt),
      reason: result.reason,
      logsCID,
      outputCID: undefined,
      limits,
    },
  })
}

/** Seconds left to run before the claim is due, keeping the margin for storing and submitting. */
async function remainingSec(context: StepContext, entry: JournalEntry): Promise<number> {
  const now = await context.chainNow()
  return (entry.dueAt ?? now) - now - context.submitMarginSec
}

/** The run's result, or a rejection with the stop reason when the agent stops first (the container keeps running). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason)
    if (signal.aborted) return onAbort()
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
