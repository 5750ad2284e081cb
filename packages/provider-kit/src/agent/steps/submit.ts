import { formatFailure, submitResult } from '@gridforge/sdk'
import { readAndDecide } from '../decide.js'
import { resultOf } from '../journal.js'
import { next, type Step } from './step.js'
import { timeoutRefusal, untilTimeoutCounts } from './timedOut.js'

/** `stored` → `submitting` (one replica): journaled before the result is sent. */
export const announceSubmit: Step = async (_context, entry) => next(entry, { step: 'submitting' })

/**
 * `submitting` → `done`, or `held`: submits the result and receipt: the
 * output, or the journaled failure with the run's logs (a `timedOut` one once
 * the task's runtime limit has passed since the claim: the market refuses it
 * sooner). Most tasks are paid in the same transaction (a failure: the
 * source's failure terms); the result of an auditable task (one replica of a
 * deterministic or validated source) is held until its audit draw, and the
 * `held` step releases it. Resumed, it first reads the chain (the result may be in).
 */
export const submit: Step = async (context, entry, memory) => {
  const decided = await readAndDecide(context, entry, memory)
  if (decided !== undefined) return decided
  const early = await untilTimeoutCounts(context, entry, memory)
  if (early !== undefined) return early
  const { client, deployment } = context
  const { result, output, failure } = resultOf(entry)
  let submitted: Awaited<ReturnType<typeof submitResult>>
  try {
    submitted = await context.transact(() =>
      submitResult(client, {
        deployment,
        taskId: BigInt(entry.taskId),
        result,
        output,
        failure,
        receipt: entry.receiptCID as string,
        runtimeSec: entry.runtimeSec ?? 0,
      }),
    )
  } catch (error) {
    const wait = timeoutRefusal(error, entry, memory)
    if (wait !== undefined) return wait
    throw error
  }
  context.logger.info('result submitted', {
    ...(failure === undefined ? { outputCID: result } : { failure: formatFailure(failure), logsCID: result }),
    receiptCID: entry.receiptCID,
    runtimeSec: entry.runtimeSec,
    held: submitted.held,
    hash: submitted.hash,
  })
  if (submitted.held)
    return next(entry, {
      step: 'held',
      txHash: submitted.hash,
      submittedBlock: submitted.blockNumber.toString(),
    })
  return next(entry, { step: 'done', txHash: submitted.hash })
}
