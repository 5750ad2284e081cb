import type { Address } from 'viem'
import * as z from 'zod/mini'
import type { LeaseStatus } from '../types/lease.js'
import type { IndexerClient } from './createIndexerClient.js'
import { readPages } from './pages.js'

/** What of a lease summary (`GET /leases`) the SDK reads: its id. The state is read from the chain. */
const leaseSummary = /* @__PURE__ */ z.object({ id: z.string().check(z.regex(/^[1-9][0-9]*$/)) })

/**
 * The ids of the leases the indexer finds for these filters, above `afterLeaseId`,
 * ascending. The indexer lists newest first: pages are read down to `afterLeaseId`.
 */
export async function indexedLeaseIds(
  indexer: IndexerClient,
  filters: {
    renter?: Address | undefined
    provider?: Address | undefined
    sourceId?: number | undefined
    status?: LeaseStatus | readonly LeaseStatus[] | undefined
    afterLeaseId?: bigint | undefined
  },
): Promise<bigint[]> {
  const after = filters.afterLeaseId ?? 0n
  const statuses = filters.status === undefined ? undefined : [filters.status].flat()
  const items = await readPages(indexer, {
    path: '/leases',
    query: {
      renter: filters.renter,
      provider: filters.provider,
      source: filters.sourceId?.toString(),
      status: statuses?.join(','),
    },
    item: leaseSummary,
    past: (lease) => BigInt(lease.id) <= after,
  })
  return items
    .map((lease) => BigInt(lease.id))
    .filter((leaseId) => leaseId > after)
    .reverse()
}
