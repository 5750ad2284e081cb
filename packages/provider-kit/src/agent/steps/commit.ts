import { commitResult, generateSalt } from '@gridforge/sdk'
import { readAndDecide } from '../decide.js'
import { gasLimits } from '../gasLimits.js'
import { next, type Step } from './step.js'

/**
 * `stored` → `committing` (replicas > 1): draws the salt and journals it before
 * the commitment is sent: without it the reveal is impossible (and the slot slashed).
 */
export const announceCommit: Step = async (_context, entry) =>
  next(entry, { step: 'committing', salt: entry.salt ?? generateSalt() })

/** `committing` → `committed`: commits to the output's digest. Resumed, it first reads the chain. */
export const commit: Step = async (context, entry, memory) => {
  const decided = await readAndDecide(context, entry, memory)
  if (decided !== undefined) return decided
  const { client, deployment } = context
  const committed = await context.transact(() =>
    commitResult(client, {
      deployment,
      taskId: BigInt(entry.taskId),
      result: entry.run?.outputCID as string,
      salt: entry.salt as `0x${string}`,
      // The last commitment opens the reveal window: a limit covering that, whatever lands first.
      gas: gasLimits.commit,
    }),
  )
  context.logger.info('result committed', { outputCID: entry.run?.outputCID, hash: committed.hash })
  return next(entry, { step: 'committed', txHash: committed.hash })
}
