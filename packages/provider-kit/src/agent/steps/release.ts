import { ContractRevertedError, getAuditDraw, releaseResult } from '@gridforge/sdk'
import { getBlockNumber } from 'viem/actions'
import { readAndDecide } from '../decide.js'
import { next, type Step } from './step.js'

/**
 * `held` → `done` or `auditing`: the market holds an auditable result (one
 * replica of a deterministic source) until `releaseResult` draws whether it is
 * audited, which anyone may call from two blocks after the submission. Once
 * the draw is ready, the result waits up to `releaseWaitSec` for the agent's
 * next claim to carry its release (see heldResults.ts), then is released on
 * its own: not drawn, the task settles and the provider is paid; drawn, an
 * audit round opens and the task is watched (`auditing`) until the audit
 * settles it. Resumed, or released by a claim or someone else first, the
 * chain says where the task is.
 */
export const release: Step = async (context, entry, memory) => {
  const decided = await readAndDecide(context, entry, memory)
  if (decided !== undefined) {
    context.heldResults.withdraw(BigInt(entry.taskId))
    return decided
  }
  const { client, deployment, logger } = context
  const taskId = BigInt(entry.taskId)
  // The draw uses the hash of the block after the submission: it is ready once the latest block is two past it.
  // (A resumed entry may not have it journaled: the held slot shows it.)
  const submittedBlock =
    entry.submittedBlock !== undefined ? BigInt(entry.submittedBlock) : memory.task?.slots[0]?.submittedBlock
  const latest = await getBlockNumber(client, { cacheTime: 0 })
  if (submittedBlock !== undefined) {
    if (latest < submittedBlock + 2n) return { wait: { untilBlock: submittedBlock + 2n } }
  } else if (!(await getAuditDraw(client, { deployment, taskId })).ready)
    return { wait: { untilBlock: latest + 1n } }
  // Ready: the agent's next claim carries the release (no transaction of its own) if one comes in time; the
  // chain then shows the task settled or audited when this step runs again (readAndDecide, above).
  const now = await context.chainNow()
  memory.releaseBy ??= now + context.releaseWaitSec
  if (now < memory.releaseBy) {
    context.heldResults.offer(taskId)
    return { wait: { untilChainTime: memory.releaseBy } }
  }
  context.heldResults.withdraw(taskId)
  let released: Awaited<ReturnType<typeof releaseResult>>
  try {
    released = await context.transact(() => releaseResult(client, { deployment, taskId }))
  } catch (error) {
    // Estimated on a node a block behind: the block it names makes it ready.
    if (error instanceof ContractRevertedError && error.errorName === 'TaskMarketDrawNotReady')
      return { wait: { untilBlock: BigInt(error.args[1] as bigint) } }
    throw error
  }
  if (released.drawn) {
    logger.info('result drawn for an audit', { hash: released.hash })
    return next(entry, { step: 'auditing', txHash: released.hash })
  }
  logger.info('result released', { payment: released.payment, fee: released.fee, hash: released.hash })
  return next(entry, { step: 'done', txHash: released.hash, verdict: 'not-drawn' })
}
