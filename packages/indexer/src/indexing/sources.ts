/** SourceRegistry: sources as published, their owners and whether they take tasks. */
import { ponder } from 'ponder:registry'
import * as schema from 'ponder:schema'
import { when } from './records.js'

ponder.on('SourceRegistry:SourcePublished', async ({ event, context }) => {
  const { sourceId, owner, predecessor, imageDigest, metadataCID, requirements, ...terms } = event.args
  const at = when(event)
  await context.db.insert(schema.source).values({
    id: sourceId,
    owner,
    predecessor,
    imageDigest,
    metadataCid: metadataCID,
    minGpus: requirements.minGpus,
    minVramMiB: requirements.minVramMiB,
    minComputeCapability: requirements.minComputeCapability,
    maxRuntimeSec: requirements.maxRuntimeSec,
    deterministic: requirements.deterministic,
    creatorFeeBps: terms.creatorFeeBps,
    failureFeeBps: terms.failureFeeBps,
    validator: terms.validator,
    active: true,
    publishedAt: at.timestamp,
    publishedBlock: at.block,
    tasks: 0,
    paid: 0n,
    creatorFees: 0n,
    creatorFeesClaimed: 0n,
    subscribers: 0,
  })
})

ponder.on('SourceRegistry:SourceDeactivated', async ({ event, context }) => {
  await context.db.update(schema.source, { id: event.args.sourceId }).set({ active: false })
})

ponder.on('SourceRegistry:SourceReactivated', async ({ event, context }) => {
  await context.db.update(schema.source, { id: event.args.sourceId }).set({ active: true })
})

ponder.on('SourceRegistry:SourceTransferred', async ({ event, context }) => {
  await context.db.update(schema.source, { id: event.args.sourceId }).set({ owner: event.args.to })
})
