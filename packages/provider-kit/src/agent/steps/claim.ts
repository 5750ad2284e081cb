import { ContractRevertedError, claimTask, getTask, reopenSlot } from '@gridforge/sdk'
import { getBlockNumber } from 'viem/actions'
import { gasLimits } from '../gasLimits.js'
import { readSeatRace } from '../seatRace.js'
import { next, type Step, type StepContext, seconds } from './step.js'

/**
 * `claiming` → `claimed`: reopens the overdue slot the entry names (someone
 * else reopening it first is fine: it is free either way), then claims a
 * slot, locking collateral. A refusal goes to `decide` like every other.
 *
 * The seats of a task with replicas > 1 are raced for (see `seatRace.ts`):
 * claims open two blocks after the submission (the tickets are drawn from the
 * hash of the block after it: until then the claim waits for the block the
 * market names), and a ticket worse than every seated one is an everyday loss
 * (dropped, logged at debug level; the scheduler does not try again before the
 * race ends). A seat is journaled with the time it is final (`seatFinalAt`): a
 * raced one's run starts when the race ends.
 */
export const claim: Step = async (context, entry, memory) => {
  const { client, deployment } = context
  const taskId = BigInt(entry.taskId)
  if (entry.replicas > 1) {
    memory.race ??= await readSeatRace(client, deployment, taskId)
    const readyBlock = memory.race.seedBlock + 2n
    if ((await getBlockNumber(client, { cacheTime: 0 })) < readyBlock)
      return { wait: { untilBlock: readyBlock } }
  }
  if (entry.reopen !== undefined) {
    const slot = entry.reopen
    await context
      .transact(() => reopenSlot(client, { deployment, taskId, slot }))
      .catch((error: unknown) => {
        if (!(error instanceof ContractRevertedError)) throw error
      })
  }
  let claimed: Awaited<ReturnType<typeof claimTask>>
  try {
    claimed = await claimReleasing(context, taskId)
  } catch (error) {
    if (error instanceof ContractRevertedError) {
      // Sent on a node a block behind: claiming opens at the block it names.
      if (error.errorName === 'TaskMarketDrawNotReady')
        return { wait: { untilBlock: BigInt(error.args[1] as bigint) } }
      if (error.errorName === 'TaskMarketClaimTicketTooHigh')
        return { drop: 'our ticket is worse than every seated one', quiet: true }
    }
    throw error
  }
  // A seat won in the race is final, and starts, when the race ends (the slot's claim time); one taken
  // first come, at the claim.
  let seatFinalAt: number | undefined
  if (entry.replicas > 1) {
    const task = await getTask(client, { deployment, taskId })
    memory.task = { ...task, inputCID: task.inputCID ?? memory.task?.inputCID }
    seatFinalAt = seconds(task.slots[claimed.slot]?.claimedAt)
  }
  context.logger.info('claimed', {
    slot: claimed.slot,
    dueAt: claimed.dueAt,
    seatFinalAt,
    ...(claimed.released.length > 0 && { released: claimed.released.map(({ taskId }) => taskId) }),
  })
  return next(entry, {
    step: 'claimed',
    slot: claimed.slot,
    dueAt: seconds(claimed.dueAt),
    seatFinalAt,
    reopen: undefined,
    txHash: claimed.hash,
  })
}

/** Held results one claim releases at most: each adds a release's gas to the claim's. */
const MAX_RELEASES = 4

/**
 * Claims `taskId`, carrying the releases of the agent's held results that wait for a claim (see
 * heldResults.ts). A release the market refuses (someone released it first) undoes the claim with it: the claim
 * is sent again alone, and those results are released by their own steps.
 */
async function claimReleasing(
  context: StepContext,
  taskId: bigint,
): Promise<Awaited<ReturnType<typeof claimTask>>> {
  const { client, deployment, heldResults } = context
  const release = heldResults.take(MAX_RELEASES)
  // The last claim of a task changes its status, a raced one may replace the worst seat: a limit covering
  // those paths, whatever lands first; and each carried release's (a drawn one opens an audit round).
  const gas = gasLimits.claim + gasLimits.release * BigInt(release.length)
  try {
    const claimed = await context.transact(() => claimTask(client, { deployment, taskId, gas, release }))
    for (const id of release) heldResults.withdraw(id)
    return claimed
  } catch (error) {
    if (release.length === 0 || !(error instanceof ContractRevertedError)) throw error
    for (const id of release) heldResults.withdraw(id)
    return context.transact(() => claimTask(client, { deployment, taskId, gas: gasLimits.claim }))
  }
}
