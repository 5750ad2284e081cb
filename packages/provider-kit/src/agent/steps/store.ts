import { join } from 'node:path'
import { createReceipt, type Failure, formatFailure, getSource, type Validation } from '@gridforge/sdk'
import { sealOutput } from '@gridforge/sdk/results'
import { InvalidDirectoryEntryError, importPath, StorageIoError } from '@gridforge/sdk/storage'
import { zeroHash } from 'viem'
import { receiptHardwareOf } from '../../detect/receiptHardware.js'
import { readAndDecide, taskWithInput } from '../decide.js'
import { messageOf } from '../errorKind.js'
import { TaskOutputRejectedError } from '../errors.js'
import { checkOutputTree } from '../outputTree.js'
import { runEndOf } from '../runFailure.js'
import { abandon, next, type Step, seconds } from './step.js'

/** Exit code a receipt gives a run that was killed (timeout, out of memory, output over the cap): 128 + SIGKILL. */
const killedExitCode = 137

/**
 * `ran` → `stored`: removes the finished container and decides what the run
 * hands in ({@link runEndOf}). An output: imports the output folder (refusing
 * what cannot be stored: FIFOs, sockets, devices, links out of the tree,
 * unreadable files) and, when the task names its client's result key, seals it
 * to that key (`sealOutput`): the envelope is handed in, the seal on chain is of
 * the plain output. A failure by the workload's doing (a non-zero exit, a
 * command missing from the image, a timeout at the task's limit, out of
 * memory, output over the cap): the run's logs are the result, and the
 * failure is journaled so that a restart hands in the same. An audit that ran
 * the source's validator: `passed` when it exited 0, `rejected` when it
 * failed, its logs the result. Then stores the signed receipt. A run that
 * failed by this agent's or host's doing (the engine, a stop, a limit lower
 * than the market's) ends the task: nothing is submitted.
 */
export const store: Step = async (context, entry, memory) => {
  const { logger, runtime } = context
  const taskId = BigInt(entry.taskId)
  const run = entry.run
  if (run === undefined) throw new Error(`journal entry of task ${taskId} at ${entry.step} has no run`)
  if (entry.containerId !== undefined)
    await runtime
      .remove(entry.containerId)
      .catch((error: unknown) => logger.warn('removing the container failed', { error: messageOf(error) }))
  const end = runEndOf(run)
  if ('abandon' in end) return abandon(entry, end.abandon)

  const check = entry.audit?.check
  const validator = check === undefined || check === 'rerun' ? undefined : check.validator
  let failure: Failure | undefined
  let validation: Validation | undefined
  let outputCID: string | undefined
  if (validator !== undefined) validation = 'output' in end ? 'passed' : 'rejected'
  else if ('failure' in end) failure = end.failure
  else
    outputCID = run.outputCID ?? (await importOutput(context.store, join(context.workDir, 'output'), taskId))

  await taskWithInput(context, entry, memory)
  const decided = await readAndDecide(context, entry, memory)
  if (decided !== undefined) return decided
  const task = memory.task as NonNullable<typeof memory.task>
  const claimedAt = entry.slot === undefined ? undefined : task.slots[entry.slot]?.claimedAt
  const now = await context.chainNow()
  // The market caps runtime at the time since the claim; the receipt must carry the figure the chain will.
  const sinceClaim = claimedAt === undefined ? 0 : now - seconds(claimedAt)
  const runtimeSec = Math.max(0, Math.min(run.finishedAt - run.startedAt, sinceClaim))
  // The receipt says what ran: the task's source, or the validator.
  const sourceId = validator ?? entry.sourceId
  const source =
    memory.prepared?.source ?? (await getSource(context.client, { deployment: context.deployment, sourceId }))
  const imageDigest = source.imageDigest
  const logsCID = run.logsCID as string
  // An output goes to the client sealed to its result key: nobody else, auditors included, can read it or its
  // digest, so an audit cannot be answered without computing. Not for a source with a validator, whose auditors
  // must read the output; nor for a task without a key (its client asked for the output in the clear).
  const resultKey = task.resultKey
  const sealed =
    outputCID !== undefined &&
    resultKey !== undefined &&
    resultKey !== zeroHash &&
    source.validator === undefined
  const sealedCID = sealed
    ? (run.sealedCID ?? (await sealOutput(context.store, { cid: outputCID as string, resultKey })).cid)
    : undefined
  const { cid } = await createReceipt(context.client, {
    deployment: context.deployment,
    store: context.store,
    taskId,
    slot: entry.slot as number,
    sourceId,
    imageDigest,
    inputCID: task.inputCID as string,
    // What is handed in: a failure's or a validation's result is the run's logs; a sealed output its envelope
    // (the receipt is public: it must not name the plain output).
    outputCID: sealedCID ?? outputCID ?? logsCID,
    logsCID,
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    runtimeSec,
    exitCode: run.exitCode ?? (run.outcome === 'exited' ? 0 : killedExitCode),
    hardware: receiptHardwareOf(context.host),
  })
  if (failure !== undefined)
    logger.info('failure stored', { failure: formatFailure(failure), logsCID, receiptCID: cid, runtimeSec })
  else if (validation !== undefined)
    logger.info('validation stored', { validator, validation, logsCID, receiptCID: cid, runtimeSec })
  else logger.info('output stored', { outputCID, sealedCID, receiptCID: cid, runtimeSec })
  return next(entry, {
    step: 'stored',
    run: { ...run, outputCID, sealedCID },
    receiptCID: cid,
    runtimeSec,
    failure,
    validation,
  })
}

async function importOutput(
  contentStore: Parameters<typeof importPath>[0],
  dir: string,
  taskId: bigint,
): Promise<string> {
  await checkOutputTree(dir, taskId)
  try {
    return await importPath(contentStore, dir, { hidden: true })
  } catch (error) {
    // What the importer cannot take, or cannot read, in the task's own folder will not change on a retry.
    if (
      error instanceof InvalidDirectoryEntryError ||
      (error instanceof StorageIoError && error.path.startsWith(dir))
    )
      throw new TaskOutputRejectedError({ taskId, reason: messageOf(error), cause: error })
    throw error
  }
}
