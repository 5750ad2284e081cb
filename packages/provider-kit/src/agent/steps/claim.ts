import { ContractRevertedError, claimTask, reopenSlot } from '@gridforge/sdk'
import { gasLimits } from '../gasLimits.js'
import { next, type Step, seconds } from './step.js'

/**
 * `claiming` → `claimed`: reopens the overdue slot the entry names (someone
 * else reopening it first is fine: it is free either way), then claims a
 * slot, locking collateral. A refusal goes to `decide` like every other.
 */
export const claim: Step = async (context, entry) => {
  const { client, deployment } = context
  const taskId = BigInt(entry.taskId)
  if (entry.reopen !== undefined) {
    const slot = entry.reopen
    await context
      .transact(() => reopenSlot(client, { deployment, taskId, slot }))
      .catch((error: unknown) => {
        if (!(error instanceof ContractRevertedError)) throw error
      })
  }
  // The last claim of a task changes its status: a limit covering that path, whatever lands first.
  const claimed = await context.transact(() =>
    claimTask(client, { deployment, taskId, gas: gasLimits.claim }),
  )
  context.logger.info('claimed', { slot: claimed.slot, dueAt: claimed.dueAt })
  return next(entry, {
    step: 'claimed',
    slot: claimed.slot,
    dueAt: seconds(claimed.dueAt),
    reopen: undefined,
    txHash: claimed.hash,
  })
}
