import { ContractRevertedError, finalizeTask } from '@gridforge/sdk'
import { readAndDecide } from '../decide.js'
import { next, type Step, seconds } from './step.js'

/**
 * `revealed` → `done`: waits for the last reveal to settle the task; once the
 * reveal window is over, finalizes it (anyone may: doing it gets this provider
 * paid without waiting for others).
 */
export const finalize: Step = async (context, entry, memory) => {
  const decided = await readAndDecide(context, entry, memory)
  if (decided !== undefined) return decided
  const task = memory.task as NonNullable<typeof memory.task>
  const deadline = seconds(task.revealDeadline)
  if (deadline >= (await context.chainNow())) return { wait: { untilChainTime: deadline + 1 } }
  const { client, deployment } = context
  try {
    await context.transact(() => finalizeTask(client, { deployment, taskId: task.taskId }))
  } catch (error) {
    // Someone else finalized first: the task is settled either way.
    if (!(error instanceof ContractRevertedError)) throw error
  }
  context.logger.info('task settled')
  return next(entry, { step: 'done' })
}
