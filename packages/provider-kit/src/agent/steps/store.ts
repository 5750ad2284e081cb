import { join } from 'node:path'
import { createReceipt, getSource } from '@gridforge/sdk'
import { InvalidDirectoryEntryError, importPath, StorageIoError } from '@gridforge/sdk/storage'
import { receiptHardwareOf } from '../../detect/receiptHardware.js'
import { readAndDecide, taskWithInput } from '../decide.js'
import { messageOf } from '../errorKind.js'
import { TaskOutputRejectedError } from '../errors.js'
import { checkOutputTree } from '../outputTree.js'
import { abandon, next, type Step, seconds } from './step.js'

/**
 * `ran` → `stored`: removes the finished container, imports the output folder
 * (refusing what cannot be stored: FIFOs, sockets, devices, links out of the
 * tree, unreadable files), and stores the signed receipt. A run that did not
 * exit by itself (timeout, out of memory, output over the cap) ends the task:
 * nothing is submitted.
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
  if (run.outcome !== 'exited')
    return abandon(
      entry,
      `the container ended with ${run.outcome}${run.reason ? `: ${run.reason}` : ''}; nothing submitted`,
    )

  const outputCID =
    run.outputCID ?? (await importOutput(context.store, join(context.workDir, 'output'), taskId))
  await taskWithInput(context, entry, memory)
  const decided = await readAndDecide(context, entry, memory)
  if (decided !== undefined) return decided
  const task = memory.task as NonNullable<typeof memory.task>
  const claimedAt = entry.slot === undefined ? undefined : task.slots[entry.slot]?.claimedAt
  const now = await context.chainNow()
  // The market caps runtime at the time since the claim; the receipt must carry the figure the chain will.
  const sinceClaim = claimedAt === undefined ? 0 : now - seconds(claimedAt)
  const runtimeSec = Math.max(0, Math.min(run.finishedAt - run.startedAt, sinceClaim))
  const imageDigest =
    memory.prepared?.source.imageDigest ??
    (await getSource(context.client, { deployment: context.deployment, sourceId: entry.sourceId }))
      .imageDigest
  const { cid } = await createReceipt(context.client, {
    deployment: context.deployment,
    store: context.store,
    taskId,
    slot: entry.slot as number,
    sourceId: entry.sourceId,
    imageDigest,
    inputCID: task.inputCID as string,
    outputCID,
    logsCID: run.logsCID as string,
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    runtimeSec,
    exitCode: run.exitCode ?? 0,
    hardware: receiptHardwareOf(context.host),
  })
  logger.info('output stored', { outputCID, receiptCID: cid, runtimeSec })
  return next(entry, { step: 'stored', run: { ...run, outputCID }, receiptCID: cid, runtimeSec })
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
