/**
 * TaskMarket audits (run by the TaskAudits module in the market's storage, so
 * the market emits them): the draw of a held result, audit rounds of a drawn
 * result or of a dispute between replicas, the auditors who join and are
 * replaced, and the verdict.
 */
import { ponder } from 'ponder:registry'
import * as schema from 'ponder:schema'
import { addToProvider, holdSlot, readTask, setTaskStatus, updateSlotClaim, when } from './records.js'

/** The contract's `AuditVerdict`, by value. */
const auditVerdicts = ['None', 'NotDrawn', 'Pending', 'Upheld', 'Overturned', 'Unresolved', 'Lapsed'] as const

// Not drawn: the task settles in the same transaction (TaskFinalized follows).
ponder.on('TaskMarket:AuditDrawn', async ({ event, context }) => {
  const { taskId, drawn } = event.args
  const task = await context.db
    .update(schema.task, { id: taskId })
    .set({ auditDrawn: drawn, auditVerdict: drawn ? 'Pending' : 'NotDrawn' })
  if (drawn) await setTaskStatus(context.db, task, 'Auditing')
})

// Also emitted again, unchanged but for its seed, when a round nobody joined for 256 blocks is re-seeded.
ponder.on('TaskMarket:AuditRoundOpened', async ({ event, context }) => {
  const { taskId, round, firstSlot, auditors, joinDeadline } = event.args
  const openedAt = Number(event.block.timestamp)
  await context.db
    .insert(schema.auditRound)
    .values({ taskId, round, firstSlot, auditors, joinDeadline, openedAt })
    .onConflictDoNothing()
  const task = await context.db.update(schema.task, { id: taskId }).set((row) => ({
    auditRound: round,
    auditVerdict: row.auditVerdict === 'None' ? 'Pending' : row.auditVerdict,
  }))
  await setTaskStatus(context.db, task, 'Auditing')
})

ponder.on('TaskMarket:AuditorJoined', async ({ event, context }) => {
  const { taskId, auditor, slot, score } = event.args
  const at = when(event)
  const task = await readTask(context.db, taskId)
  await context.db.insert(schema.claim).values({
    id: event.id,
    taskId,
    slot,
    provider: auditor,
    role: 'auditor',
    auditRound: task.auditRound,
    status: 'Claimed',
    claimedAt: at.timestamp,
    claimedBlock: at.block,
    collateral: task.collateral,
    score,
  })
  await holdSlot(context.db, taskId, slot, event.id)
  await addToProvider(context.db, auditor, { audits: 1 }, at)
})

ponder.on('TaskMarket:AuditorReplaced', async ({ event, context }) => {
  const { taskId, slot } = event.args
  await updateSlotClaim(context.db, taskId, slot, {
    status: 'Replaced',
    endedAt: Number(event.block.timestamp),
  })
})

ponder.on('TaskMarket:AuditResolved', async ({ event, context }) => {
  const { taskId, verdict, resultDigest } = event.args
  const name = auditVerdicts[verdict]
  if (name === undefined)
    throw new Error(`indexer: AuditResolved of task ${taskId} has an unknown verdict ${verdict}`)
  await context.db
    .update(schema.task, { id: taskId })
    .set({ auditVerdict: name, auditResultDigest: resultDigest })
})
