import { ContractRevertedError, finalizeTask } from '@gridforge/sdk'
import { readAndDecide } from '../decide.js'
import { type Step, type StepContext, type StepResult, seconds } from './step.js'

/**
 * `revealed` → `done`, or `auditing`: waits for the last reveal to settle the
 * task; once the reveal window is over, finalizes it (anyone may: doing it gets
 * this provider paid without waiting for others). Revealed results that differ
 * do not settle: the task goes to a dispute (`Auditing`), watched like an
 * audited result until its auditors settle it.
 */
export const finalize: Step = async (context, entry, memory) => {
  const decided = await readAndDecide(context, entry, memory)
  if (decided !== undefined) return announced(context, decided)
  const task = memory.task as NonNullable<typeof memory.task>
  const deadline = seconds(task.revealDeadline)
  if (deadline >= (await context.chainNow())) return { wait: { untilChainTime: deadline + 1 } }
  const { client, deployment } = context
  try {
    await context.transact(() => finalizeTask(client, { deployment, taskId: task.taskId }))
  } catch (error) {
    // Someone else finalized first: the chain says how the task ended.
    if (!(error instanceof ContractRevertedError)) throw error
  }
  // Settled, or disputed: finalizing with results that differ opens the dispute.
  const after = await readAndDecide(context, entry, memory)
  return after === undefined ? { wait: {} } : announced(context, after)
}

/** `result`, logged when it settles the task or sends it to a dispute. */
function announced(context: Pick<StepContext, 'logger'>, result: StepResult): StepResult {
  if (!('next' in result)) return result
  if (result.next.step === 'done') context.logger.info('task settled')
  else if (result.next.step === 'auditing')
    context.logger.info('the replicas’ results differ: the task is disputed until its auditors settle it')
  return result
}
