import { ContractRevertedError, commitResult, generateSalt } from '@gridforge/sdk'
import { readAndDecide } from '../decide.js'
import { gasLimits } from '../gasLimits.js'
import { resultOf } from '../journal.js'
import { next, type Step, type StepResult } from './step.js'
import { timeoutRefusal, untilTimeoutCounts } from './timedOut.js'

/**
 * `stored` → `committing` (replicas > 1): draws the salt and journals it before
 * the commitment is sent: without it the reveal is impossible (and the slot slashed).
 */
export const announceCommit: Step = async (_context, entry) =>
  next(entry, { step: 'committing', salt: entry.salt ?? generateSalt() })

/**
 * A refusal because the seat is still raced for (`TaskMarketSeatNotFinal`: a node or clock behind the
 * chain's answered early): a wait until the time the market names, never a failure.
 */
function seatRefusal(error: unknown): StepResult | undefined {
  if (!(error instanceof ContractRevertedError) || error.errorName !== 'TaskMarketSeatNotFinal')
    return undefined
  return { wait: { untilChainTime: Number(error.args[1]) } }
}

/**
 * `committing` → `committed`: commits to the output's digest, the journaled
 * failure's or (an audit that ran the validator) the validation's. A
 * `timedOut` failure waits until the task's runtime limit has passed since the
 * claim: its reveal is refused when the commitment came sooner. Resumed, it
 * first reads the chain.
 */
export const commit: Step = async (context, entry, memory) => {
  const decided = await readAndDecide(context, entry, memory)
  if (decided !== undefined) return decided
  const early = await untilTimeoutCounts(context, entry, memory)
  if (early !== undefined) return early
  const { client, deployment } = context
  const { result, output, failure, validation } = resultOf(entry)
  let committed: Awaited<ReturnType<typeof commitResult>>
  try {
    committed = await context.transact(() =>
      commitResult(client, {
        deployment,
        taskId: BigInt(entry.taskId),
        result,
        output,
        failure,
        validation,
        salt: entry.salt as `0x${string}`,
        // The last commitment opens the reveal window: a limit covering that, whatever lands first.
        gas: gasLimits.commit,
      }),
    )
  } catch (error) {
    const wait = timeoutRefusal(error, entry, memory) ?? seatRefusal(error)
    if (wait !== undefined) return wait
    throw error
  }
  context.logger.info('result committed', { result, failure, validation, hash: committed.hash })
  return next(entry, { step: 'committed', txHash: committed.hash })
}
