import * as z from 'zod/mini'
import type { GetNetworkStatsReturnType } from '../market/getNetworkStats.js'
import type { IndexerClient } from './createIndexerClient.js'
import { IndexerResponseError } from './errors.js'

const count = /* @__PURE__ */ z.number()
const amount = /* @__PURE__ */ z.string().check(z.regex(/^(0|[1-9][0-9]*)$/))

/** What of `GET /stats` the SDK reads: counts over the whole history (the window's figures are left out). */
const stats = /* @__PURE__ */ z.object({
  tasks: z.object({
    total: count,
    byStatus: z.object({ Completed: count, Failed: count, Cancelled: count, Expired: count }),
  }),
  providers: z.object({ registered: count, active: count }),
  totals: z.object({ paid: amount }),
})

/** A chain of Ponder's `GET /status` (the last block indexed, by chain name). */
const chainStatus = /* @__PURE__ */ z.object({
  id: z.optional(z.number()),
  block: z.object({ number: count }),
})

/** Reads of /stats between two reads of /status that agree, at most. */
const attempts = 3

/**
 * The market's statistics over its whole history as the indexer counts them,
 * as `getNetworkStats` reports them. `blockNumber` is the indexer's last block:
 * /stats is read between two reads of /status, again while they differ (the
 * indexer indexed a block meanwhile), and as of the later one after three tries.
 */
export async function indexedNetworkStats(
  indexer: IndexerClient,
  chainId: number | undefined,
): Promise<GetNetworkStatsReturnType> {
  let before = await indexedBlock(indexer, chainId)
  for (let attempt = 1; ; attempt++) {
    const answer = await indexer.get({ path: '/stats', schema: stats })
    const after = await indexedBlock(indexer, chainId)
    if (after !== before && attempt < attempts) {
      before = after
      continue
    }
    const { Completed, Failed, Cancelled, Expired } = answer.tasks.byStatus
    const settledTasks = Completed + Failed + Cancelled + Expired
    return {
      tasks: BigInt(answer.tasks.total),
      openTasks: answer.tasks.total - settledTasks,
      settledTasks,
      completedTasks: Completed,
      failedTasks: Failed,
      cancelledTasks: Cancelled,
      expiredTasks: Expired,
      totalPaid: BigInt(answer.totals.paid),
      registeredProviders: answer.providers.registered,
      activeProviders: answer.providers.active,
      blockNumber: after,
    }
  }
}

/** The last block the indexer indexed of the chain (`chainId`, or its only chain). */
async function indexedBlock(indexer: IndexerClient, chainId: number | undefined): Promise<bigint> {
  // Read entry by entry: `z.record` would add its own weight to browser bundles for this one use.
  const body = await indexer.get({ path: '/status', schema: z.unknown() })
  const chains = Object.values(typeof body === 'object' && body !== null ? body : {}).flatMap((entry) => {
    const chain = chainStatus.safeParse(entry)
    return chain.success ? [chain.data] : []
  })
  const chain =
    chainId === undefined || chains.length === 1 ? chains[0] : chains.find((entry) => entry.id === chainId)
  if (chain === undefined || (chainId !== undefined && chain.id !== undefined && chain.id !== chainId))
    throw new IndexerResponseError({
      request: `GET ${indexer.url}/status`,
      status: 200,
      problem: `it indexes chain ${chains.map((entry) => entry.id).join(', ') || '(none)'}, not ${chainId}`,
    })
  return BigInt(chain.block.number)
}
