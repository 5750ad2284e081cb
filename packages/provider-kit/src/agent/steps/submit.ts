import { submitResult } from '@gridforge/sdk'
import { readAndDecide } from '../decide.js'
import { next, type Step } from './step.js'

/** `stored` → `submitting` (one replica): journaled before the result is sent. */
export const announceSubmit: Step = async (_context, entry) => next(entry, { step: 'submitting' })

/**
 * `submitting` → `done`, or `held`: submits the result and receipt. Most tasks
 * are paid in the same transaction; the result of an auditable task (one
 * replica of a deterministic source) is held until its audit draw, and the
 * `held` step releases it. Resumed, it first reads the chain (the result may be in).
 */
export const submit: Step = async (context, entry, memory) => {
  const decided = await readAndDecide(context, entry, memory)
  if (decided !== undefined) return decided
  const { client, deployment } = context
  const submitted = await context.transact(() =>
    submitResult(client, {
      deployment,
      taskId: BigInt(entry.taskId),
      result: entry.run?.outputCID as string,
      receipt: entry.receiptCID as string,
      runtimeSec: entry.runtimeSec ?? 0,
    }),
  )
  context.logger.info('result submitted', {
    outputCID: entry.run?.outputCID,
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
