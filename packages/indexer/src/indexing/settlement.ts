/**
 * TaskMarket money: payments to replicas and auditors, slashes, how each fee
 * is split (the contract's `_payReplica`, mirrored), fees claimed, released
 * and withdrawn, and the market's parameters.
 */
import { ponder } from 'ponder:registry'
import * as schema from 'ponder:schema'
import { gpuSecondsOf, splitFee } from './fees.js'
import {
  addToMarket,
  addToProvider,
  readMarket,
  readTask,
  setMarket,
  updateSlotClaim,
  when,
} from './records.js'

ponder.on('TaskMarket:ReplicaPaid', async ({ event, context }) => {
  const { taskId, provider, slot, payment, fee } = event.args
  const at = when(event)
  const task = await readTask(context.db, taskId)
  const claim = await updateSlotClaim(context.db, taskId, slot, { payment, fee, paidAt: at.timestamp })
  const runtimeSec = claim?.runtimeSec ?? 0
  const gpuSeconds = gpuSecondsOf(runtimeSec, task.minGpus)
  await context.db.insert(schema.payment).values({
    id: event.id,
    taskId,
    sourceId: task.sourceId,
    provider,
    slot,
    payment,
    fee,
    runtimeSec,
    gpuSeconds,
    pricePerGpuSecond: payment / BigInt(gpuSeconds),
    paidAt: at.timestamp,
    block: at.block,
  })
  await context.db.update(schema.task, { id: taskId }).set((row) => ({ fees: row.fees + fee }))
  const failedRun = claim?.failureKind != null
  // ProviderRegistry.recordCompletion: a replica's output paid at least minRecordPayment vouches for it.
  const vouches =
    !failedRun && slot < task.replicas && payment >= ((await readMarket(context.db)).minRecordPayment ?? 0n)
  await addToProvider(
    context.db,
    provider,
    {
      paid: payment,
      fees: fee,
      runtimeSec,
      [failedRun ? 'failedRuns' : 'completed']: 1,
      ...(vouches && { reputationCompleted: 1 }),
    },
    at,
  )
  const split = splitFee(fee, task)
  await context.db
    .update(schema.source, { id: task.sourceId })
    .set((row) => ({ paid: row.paid + payment, creatorFees: row.creatorFees + split.toCreator }))
  await addToMarket(context.db, {
    paid: payment,
    fees: fee,
    feeRebates: split.rebate,
    creatorFees: split.toCreator,
    stakerFees: split.toStakers,
    treasuryFees: split.toTreasury,
  })
})

ponder.on('TaskMarket:ProviderSlashed', async ({ event, context }) => {
  const { taskId, provider, slot, amount, toClient, outvoted } = event.args
  const at = when(event)
  await context.db.insert(schema.slash).values({
    id: event.id,
    taskId,
    provider,
    slot,
    amount,
    toClient,
    outvoted,
    slashedAt: at.timestamp,
  })
  const claim = await updateSlotClaim(context.db, taskId, slot, {
    slashed: amount,
    slashedToClient: toClient,
    outvoted,
  })
  // A claim that never delivered is forfeited; a delivered result that lost keeps its status (and `outvoted`).
  if (claim !== null && (claim.status === 'Claimed' || claim.status === 'Committed'))
    await context.db
      .update(schema.claim, { id: claim.id })
      .set({ status: 'Forfeited', endedAt: at.timestamp })
  await context.db.update(schema.task, { id: taskId }).set((row) => ({ slashed: row.slashed + amount }))
  await addToProvider(
    context.db,
    provider,
    { slashes: 1, slashedAmount: amount, [outvoted ? 'outvoted' : 'failed']: 1 },
    at,
  )
  await addToMarket(context.db, { slashed: amount, slashedToClients: toClient })
})

ponder.on('TaskMarket:CreatorFeesClaimed', async ({ event, context }) => {
  const { sourceId, amount } = event.args
  await context.db
    .update(schema.source, { id: sourceId })
    .set((row) => ({ creatorFeesClaimed: row.creatorFeesClaimed + amount }))
  await addToMarket(context.db, { creatorFeesClaimed: amount })
})

ponder.on('TaskMarket:StakerFeesReleased', async ({ event, context }) => {
  await addToMarket(context.db, { stakerFeesReleased: event.args.amount })
})

ponder.on('TaskMarket:TreasuryWithdrawn', async ({ event, context }) => {
  await addToMarket(context.db, { treasuryWithdrawn: event.args.amount })
})

ponder.on('TaskMarket:TreasuryUpdated', async ({ event, context }) => {
  await setMarket(context.db, { treasury: event.args.treasury })
})

// First emitted by the constructor; tasks take the parameters in force when they are submitted.
ponder.on('TaskMarket:ParamsUpdated', async ({ event, context }) => {
  const { params } = event.args
  await setMarket(context.db, {
    protocolFeeBps: params.protocolFeeBps,
    stakerShareBps: params.stakerShareBps,
    collateralBps: params.collateralBps,
    slashToClientBps: params.slashToClientBps,
    revealWindow: params.revealWindow,
    claimGrace: params.claimGrace,
    minCollateral: params.minCollateral,
    auditBps: params.auditBps,
    auditJoinWindow: params.auditJoinWindow,
  })
})
