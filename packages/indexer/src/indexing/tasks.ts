/**
 * TaskMarket, a task's life: submission (with its terms), claims of its slots,
 * results, commitments and reveals, reopened and replaced seats, and its final
 * status. Payments and slashes are in settlement.ts, audits in audits.ts.
 */

import { ponder } from 'ponder:registry'
import * as schema from 'ponder:schema'
import { parseFailure, taskStatuses } from '@gridforge/sdk'
import type { Hex } from 'viem'
import {
  addToMarket,
  addToProvider,
  countNewTask,
  holdSlot,
  readMarket,
  readSlotClaim,
  readTask,
  setTaskStatus,
  updateSlotClaim,
  when,
} from './records.js'
import { submittedTerms } from './terms.js'

const zeroDigest: Hex = `0x${'0'.repeat(64)}`

/** The failure a result digest reports, as two columns (both null for an output). */
function failureColumns(digest: Hex) {
  const failure = parseFailure(digest)
  return { failureKind: failure?.kind ?? null, failureExitCode: failure?.exitCode ?? null }
}

ponder.on('TaskMarket:TaskSubmitted', async ({ event, context }) => {
  const { taskId, client, sourceId, inputCID, resultKey, escrow } = event.args
  // The terms are not in the event: read them as they were at the submission (a block's submissions at once).
  const terms = await submittedTerms(context, taskId, event.block.number)
  const { stakerShareBps } = await readMarket(context.db)
  const at = when(event)
  await context.db.insert(schema.task).values({
    id: taskId,
    client,
    sourceId,
    inputCid: inputCID,
    resultKey,
    escrow,
    replicas: terms.replicas,
    maxPayment: terms.maxPayment,
    pricePerSecond: terms.pricePerSecond,
    deadline: terms.deadline,
    feeBps: terms.feeBps,
    creatorFeeBps: terms.creatorFeeBps,
    discountBps: terms.discountBps,
    stakerShareBps,
    collateral: terms.collateral,
    minGpus: terms.requirements.minGpus,
    minVramMiB: terms.requirements.minVramMiB,
    minComputeCapability: terms.requirements.minComputeCapability,
    maxRuntimeSec: terms.requirements.maxRuntimeSec,
    deterministic: terms.requirements.deterministic,
    minSuccessBps: terms.minSuccessBps,
    minCompleted: terms.minCompleted,
    auditBps: terms.auditBps,
    status: 'Open',
    submittedAt: at.timestamp,
    submittedBlock: at.block,
    submittedTx: event.transaction.hash,
    heldSlots: 0,
    paid: 0n,
    refund: 0n,
    fees: 0n,
    slashed: 0n,
    auditVerdict: 'None',
    auditRound: 0,
  })
  await countNewTask(context.db, sourceId, 'Open')
  await context.db.update(schema.source, { id: sourceId }).set((row) => ({ tasks: row.tasks + 1 }))
})

// A replica's claim (a single replica's slot, or a seat of replicas > 1, raced for or first come).
ponder.on('TaskMarket:TaskClaimed', async ({ event, context }) => {
  const { taskId, provider, slot, dueAt, collateral } = event.args
  const at = when(event)
  await context.db.insert(schema.claim).values({
    id: event.id,
    taskId,
    slot,
    provider,
    role: 'replica',
    status: 'Claimed',
    claimedAt: at.timestamp,
    claimedBlock: at.block,
    dueAt,
    collateral,
  })
  await holdSlot(context.db, taskId, slot, event.id)
  const task = await readTask(context.db, taskId)
  const heldSlots = task.heldSlots + 1
  const updated = await context.db
    .update(schema.task, { id: taskId })
    .set({ heldSlots, firstClaimAt: task.firstClaimAt ?? at.timestamp })
  if (heldSlots >= task.replicas) await setTaskStatus(context.db, updated, 'Claimed')
  await addToProvider(context.db, provider, { claims: 1 }, at)
})

// A better ticket took a seat while the seats of replicas > 1 were raced for; the new claim follows.
ponder.on('TaskMarket:ClaimReplaced', async ({ event, context }) => {
  const { taskId, slot, score } = event.args
  await updateSlotClaim(context.db, taskId, slot, {
    status: 'Replaced',
    score,
    endedAt: Number(event.block.timestamp),
  })
  await context.db.update(schema.task, { id: taskId }).set((row) => ({ heldSlots: row.heldSlots - 1 }))
})

// A no-show's slot is free again (its slash is a ProviderSlashed just before).
ponder.on('TaskMarket:SlotReopened', async ({ event, context }) => {
  const { taskId, slot } = event.args
  await updateSlotClaim(context.db, taskId, slot, {
    status: 'Reopened',
    endedAt: Number(event.block.timestamp),
  })
  const task = await context.db
    .update(schema.task, { id: taskId })
    .set((row) => ({ heldSlots: row.heldSlots - 1 }))
  await setTaskStatus(context.db, task, 'Open')
})

// A single replica's result: the task settles in the same transaction, or is held for its audit draw.
ponder.on('TaskMarket:ResultSubmitted', async ({ event, context }) => {
  const { taskId, slot, resultDigest, resultCID, receiptCID, runtimeSec } = event.args
  const result = {
    resultDigest,
    resultCid: resultCID,
    receiptCid: receiptCID,
    runtimeSec,
    ...failureColumns(resultDigest),
  }
  await updateSlotClaim(context.db, taskId, slot, {
    ...result,
    status: 'Submitted',
    submittedAt: Number(event.block.timestamp),
  })
  const task = await context.db.update(schema.task, { id: taskId }).set(result)
  // An auditable result waits for releaseResult; any other is followed by TaskFinalized.
  if (task.auditBps !== 0) await setTaskStatus(context.db, task, 'Held')
})

ponder.on('TaskMarket:ResultCommitted', async ({ event, context }) => {
  const { taskId, slot, commitment } = event.args
  await updateSlotClaim(context.db, taskId, slot, {
    status: 'Committed',
    commitment,
    committedAt: Number(event.block.timestamp),
  })
})

// Every replica (or every auditor of the round) committed.
ponder.on('TaskMarket:RevealOpened', async ({ event, context }) => {
  const { taskId, revealDeadline } = event.args
  const task = await context.db.update(schema.task, { id: taskId }).set({ revealDeadline })
  if (task.status === 'Open' || task.status === 'Claimed') await setTaskStatus(context.db, task, 'Revealing')
})

// A replica's revealed result, or an auditor's finding (its digest sealed by the market).
ponder.on('TaskMarket:ResultRevealed', async ({ event, context }) => {
  const { taskId, slot, resultDigest, resultCID, receiptCID, runtimeSec } = event.args
  await updateSlotClaim(context.db, taskId, slot, {
    status: 'Submitted',
    resultDigest,
    resultCid: resultCID,
    receiptCid: receiptCID,
    runtimeSec,
    submittedAt: Number(event.block.timestamp),
    ...failureColumns(resultDigest),
  })
})

ponder.on('TaskMarket:TaskFinalized', async ({ event, context }) => {
  const { taskId, status, resultDigest, paid, refund } = event.args
  const finalStatus = taskStatuses[status]
  if (finalStatus === undefined || finalStatus === 'None')
    throw new Error(`indexer: TaskFinalized of task ${taskId} has an unknown status ${status}`)
  const at = when(event)
  let task = await context.db
    .update(schema.task, { id: taskId })
    .set({ paid, refund, finalizedAt: at.timestamp, finalizedBlock: at.block })
  // Replicas > 1: the result is the one the majority revealed (a single replica's was set when submitted).
  if (task.replicas > 1 && resultDigest !== zeroDigest) {
    let winner: typeof schema.claim.$inferSelect | null = null
    for (let slot = 0; slot < task.replicas && winner === null; slot++) {
      const claim = await readSlotClaim(context.db, taskId, slot)
      if (claim?.resultDigest === resultDigest) winner = claim
    }
    task = await context.db.update(schema.task, { id: taskId }).set({
      resultDigest,
      resultCid: winner?.resultCid ?? null,
      receiptCid: winner?.receiptCid ?? null,
      runtimeSec: winner?.runtimeSec ?? null,
      ...failureColumns(resultDigest),
    })
  }
  await setTaskStatus(context.db, task, finalStatus)
  await addToMarket(context.db, { refunded: refund })
})
