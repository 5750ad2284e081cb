/**
 * ProviderRegistry: registrations, capabilities and profiles, price floors,
 * pauses, source subscriptions, and the registry's parameters. The record (claims, payments,
 * slashes) comes from the market's events: see settlement.ts.
 */
import { type Context, ponder } from 'ponder:registry'
import * as schema from 'ponder:schema'
import { emptyProvider, setMarket, when } from './records.js'

ponder.on('ProviderRegistry:ProviderRegistered', async ({ event, context }) => {
  const { provider: address, capabilities, profileCID } = event.args
  const at = when(event)
  const profile = { ...capabilities, profileCid: profileCID, updatedAt: at.timestamp }
  await context.db
    .insert(schema.provider)
    .values({ ...emptyProvider(address, at), ...profile })
    .onConflictDoUpdate({
      registrationId: at.id,
      registeredAt: at.timestamp,
      registeredBlock: at.block,
      ...profile,
    })
})

ponder.on('ProviderRegistry:ProviderUpdated', async ({ event, context }) => {
  const { provider: address, capabilities, profileCID } = event.args
  await context.db
    .update(schema.provider, { address })
    .set({ ...capabilities, profileCid: profileCID, updatedAt: Number(event.block.timestamp) })
})

// The floor its agent's policy prices tasks with: what quotes compare a task's price with.
ponder.on('ProviderRegistry:PriceFloorSet', async ({ event, context }) => {
  await context.db
    .update(schema.provider, { address: event.args.provider })
    .set({ priceFloor: event.args.minPricePerGpuSecond })
})

// The registry also pauses a provider whose stake a slash took below the floor.
ponder.on('ProviderRegistry:ProviderPaused', async ({ event, context }) => {
  await context.db.update(schema.provider, { address: event.args.provider }).set({ paused: true })
})

ponder.on('ProviderRegistry:ProviderResumed', async ({ event, context }) => {
  await context.db.update(schema.provider, { address: event.args.provider }).set({ paused: false })
})

ponder.on('ProviderRegistry:ProviderSubscribed', async ({ event, context }) => {
  await subscribe(context.db, event.args.provider, event.args.sourceId, true, Number(event.block.timestamp))
})

ponder.on('ProviderRegistry:ProviderUnsubscribed', async ({ event, context }) => {
  await subscribe(context.db, event.args.provider, event.args.sourceId, false, Number(event.block.timestamp))
})

/** Joins or leaves a source's pool; the provider's and the source's counts follow. */
async function subscribe(
  db: Context['db'],
  provider: `0x${string}`,
  sourceId: number,
  subscribed: boolean,
  changedAt: number,
) {
  await db
    .insert(schema.subscription)
    .values({ provider, sourceId, subscribed, changedAt })
    .onConflictDoUpdate({ subscribed, changedAt })
  const delta = subscribed ? 1 : -1
  await db
    .update(schema.provider, { address: provider })
    .set((row) => ({ subscriptions: row.subscriptions + delta }))
  await db.update(schema.source, { id: sourceId }).set((row) => ({ subscribers: row.subscribers + delta }))
}

ponder.on('ProviderRegistry:MinProviderStakeUpdated', async ({ event, context }) => {
  await setMarket(context.db, { minProviderStake: event.args.minProviderStake })
})

ponder.on('ProviderRegistry:MinRecordPaymentUpdated', async ({ event, context }) => {
  await setMarket(context.db, { minRecordPayment: event.args.minRecordPayment })
})
