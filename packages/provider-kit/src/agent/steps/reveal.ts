import { revealResult } from '@gridforge/sdk'
import { readAndDecide } from '../decide.js'
import { gasLimits, revealGasLimit } from '../gasLimits.js'
import { resultOf } from '../journal.js'
import { next, type Step, seconds } from './step.js'

/**
 * `committed` → `revealing`: waits (for the task's events) until every slot
 * has committed and the reveal window opens.
 */
export const awaitReveal: Step = async (context, entry, memory) => {
  const decided = await readAndDecide(context, entry, memory)
  if (decided !== undefined) return decided
  // Still Claimed: others have yet to commit; their due time is when a slot can be reopened.
  return { wait: {} }
}

/**
 * `revealing` → `revealed`: reveals the committed result (an output, the
 * journaled failure or validation, with the salt). Sent with a limit
 * that covers settling the task (or, for an audit, closing the round), since
 * another reveal may land first and make this one the last.
 */
export const reveal: Step = async (context, entry, memory) => {
  const decided = await readAndDecide(context, entry, memory)
  if (decided !== undefined) return decided
  const { client, deployment } = context
  const { result, output, failure, validation } = resultOf(entry)
  const revealed = await context.transact(() =>
    revealResult(client, {
      deployment,
      taskId: BigInt(entry.taskId),
      result,
      output,
      failure,
      validation,
      receipt: entry.receiptCID as string,
      salt: entry.salt as `0x${string}`,
      runtimeSec: entry.runtimeSec ?? 0,
      gas: entry.audit === undefined ? revealGasLimit(entry.replicas) : gasLimits.auditReveal,
    }),
  )
  context.logger.info('result revealed', { result, failure, validation, hash: revealed.hash })
  const deadline = memory.task?.revealDeadline
  return next(entry, { step: 'revealed', txHash: revealed.hash, dueAt: deadline && seconds(deadline) })
}
