import type { Address } from 'viem'
import * as z from 'zod/mini'
import type { IndexerClient } from './createIndexerClient.js'
import { IndexerResponseError } from './errors.js'

const count = /* @__PURE__ */ z.number()
const amount = /* @__PURE__ */ z.string().check(z.regex(/^(0|[1-9][0-9]*)$/))
const time = /* @__PURE__ */ z.object({ unix: z.number() })

/** What of `GET /providers/{address}` (the indexer's `ProviderDetail`) the SDK reads. */
const providerDetail = /* @__PURE__ */ z.object({
  registeredAt: time,
  paused: z.boolean(),
  capabilities: z.object({
    gpuCount: count,
    vramMiB: count,
    computeCapability: count,
    cpuCores: count,
    memoryMiB: count,
  }),
  priceFloor: amount,
  record: z.object({
    claims: count,
    audits: count,
    completed: count,
    failedRuns: count,
    failed: count,
    outvoted: count,
    slashedAmount: amount,
  }),
  reputation: z.object({ completed: count, successBps: count }),
  earnings: z.object({ paid: amount, fees: amount, runtimeSec: count }),
  /** Absent from indexers older than the lease market's indexing. */
  leases: z.optional(z.object({ accepted: count, paid: amount, fees: amount, penalties: amount })),
  stake: z.object({
    staked: amount,
    locked: amount,
    unbonding: amount,
    unbondingReadyAt: z.union([time, z.null()]),
  }),
  sources: z.array(count),
})

export type IndexedProvider = z.output<typeof providerDetail>

/** A provider's leases as the indexer counts them (amounts as decimal strings). */
export type IndexedLeases = NonNullable<IndexedProvider['leases']>

/**
 * A provider as the indexer knows it, or `undefined` when it knows none at that
 * address (HTTP 404: never registered, or registered after the last block it
 * indexed; only the chain can tell which).
 */
export async function indexedProvider(
  indexer: IndexerClient,
  provider: Address,
): Promise<IndexedProvider | undefined> {
  try {
    return await indexer.get({ path: `/providers/${provider}`, schema: providerDetail })
  } catch (error) {
    if (error instanceof IndexerResponseError && error.status === 404) return undefined
    throw error
  }
}
