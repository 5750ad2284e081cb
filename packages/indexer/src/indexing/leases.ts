/**
 * LeaseMarket: a lease's life from its events alone. The request and the acceptance carry every term;
 * redemptions pay the provider out of the deposit; a close refunds the renter what the provider can no
 * longer claim; settlement refunds the rest and, for a provider offline or under the uptime threshold,
 * pays the renter the penalty out of the provider's collateral.
 */

import type { Context } from 'ponder:registry'
import { ponder } from 'ponder:registry'
import * as schema from 'ponder:schema'
import { leaseEndReasons } from '@gridforge/sdk'
import { addToProvider, when } from './records.js'

type Db = Context['db']

/** The contract's `EndReason` by name. @throws on a value the indexer does not know (a newer contract). */
function reasonName(value: number) {
  const name = leaseEndReasons[value]
  if (name === undefined) throw new Error(`indexer: unknown lease end reason ${value}`)
  return name
}

/** The lease row, which every event after `LeaseRequested` has. */
async function readLease(db: Db, id: bigint) {
  const row = await db.find(schema.lease, { id })
  if (row === null) throw new Error(`indexer: lease ${id} has an event before its LeaseRequested`)
  return row
}

ponder.on('LeaseMarket:LeaseRequested', async ({ event, context }) => {
  const {
    leaseId,
    renter,
    sourceId,
    maxPricePerSec,
    duration,
    deposit,
    penaltySec,
    minUptimeBps,
    ackSigner,
    acceptBy,
  } = event.args
  await context.db.insert(schema.lease).values({
    id: leaseId,
    renter,
    provider: null,
    sourceId,
    ackSigner,
    status: 'Requested',
    reason: 'None',
    maxPricePerSec,
    durationSec: duration,
    penaltySec,
    minUptimeBps,
    acceptBy,
    requestedAt: Number(event.block.timestamp),
    requestedBlock: Number(event.block.number),
    requestedTx: event.transaction.hash,
    deposit,
    toppedUp: 0n,
    servedSec: 0,
    redemptions: 0,
    paid: 0n,
    fees: 0n,
    offlineReports: 0,
    refunded: 0n,
    penalty: 0n,
  })
})

ponder.on('LeaseMarket:LeaseAccepted', async ({ event, context }) => {
  const { leaseId, provider, pricePerSec, endsAt, collateral } = event.args
  await context.db.update(schema.lease, { id: leaseId }).set({
    provider,
    status: 'Active',
    pricePerSec,
    collateral,
    startedAt: Number(event.block.timestamp),
    endsAt,
  })
  await addToProvider(context.db, provider, { leasesAccepted: 1 }, when(event))
})

ponder.on('LeaseMarket:LeaseToppedUp', async ({ event, context }) => {
  const { leaseId, amount, deposit } = event.args
  await context.db
    .update(schema.lease, { id: leaseId })
    .set((row) => ({ deposit, toppedUp: row.toppedUp + amount }))
})

// While requested, the contract keeps the duration where it later keeps the end: the event carries either.
ponder.on('LeaseMarket:LeaseExtended', async ({ event, context }) => {
  const { leaseId, endsAt } = event.args
  await context.db
    .update(schema.lease, { id: leaseId })
    .set((row) => (row.status === 'Requested' ? { durationSec: endsAt } : { endsAt }))
})

ponder.on('LeaseMarket:UsageRedeemed', async ({ event, context }) => {
  const { leaseId, servedSec, at, payment, fee } = event.args
  const row = await context.db.update(schema.lease, { id: leaseId }).set((row) => ({
    servedSec,
    lastProofAt: at,
    redemptions: row.redemptions + 1,
    paid: row.paid + payment,
    fees: row.fees + fee,
    deposit: row.deposit - payment,
  }))
  if (row.provider !== null)
    await addToProvider(context.db, row.provider, { leasePaid: payment, leaseFees: fee }, when(event))
})

ponder.on('LeaseMarket:NoticeGiven', async ({ event, context }) => {
  await context.db
    .update(schema.lease, { id: event.args.leaseId })
    .set({ endsAt: event.args.endsAt, reason: 'ProviderNotice' })
})

ponder.on('LeaseMarket:OfflineReported', async ({ event, context }) => {
  const { leaseId, reportedAt, answerBy } = event.args
  await context.db
    .update(schema.lease, { id: leaseId })
    .set((row) => ({ reportedAt, answerBy, offlineReports: row.offlineReports + 1 }))
})

ponder.on('LeaseMarket:OfflineReportAnswered', async ({ event, context }) => {
  await context.db.update(schema.lease, { id: event.args.leaseId }).set({ reportedAt: null, answerBy: null })
})

// The end is fixed ahead of settlement: a close (its refund paid at once), an unanswered report, an end for silence.
ponder.on('LeaseMarket:LeaseEnded', async ({ event, context }) => {
  const { leaseId, reason, endedAt, refunded } = event.args
  await context.db.update(schema.lease, { id: leaseId }).set((row) => ({
    reason: reasonName(reason),
    endsAt: endedAt,
    endedAt,
    deposit: row.deposit - refunded,
    refunded: row.refunded + refunded,
  }))
})

ponder.on('LeaseMarket:LeaseSettled', async ({ event, context }) => {
  const { leaseId, reason, endedAt, servedSec, uptimeBps, refunded, penalty } = event.args
  const row = await readLease(context.db, leaseId)
  // A request cancelled or never accepted settles with its whole deposit back and no service.
  const accepted = row.status === 'Active'
  await context.db.update(schema.lease, { id: leaseId }).set({
    status: 'Settled',
    reason: reasonName(reason),
    endedAt,
    ...(accepted ? { endsAt: endedAt, uptimeBps } : {}),
    servedSec,
    settledAt: Number(event.block.timestamp),
    settledBlock: Number(event.block.number),
    deposit: row.deposit - refunded,
    refunded: row.refunded + refunded,
    penalty,
    reportedAt: null,
    answerBy: null,
  })
  if (penalty !== 0n && row.provider !== null)
    await addToProvider(context.db, row.provider, { leasePenalties: penalty }, when(event))
})
