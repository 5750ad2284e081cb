import type { Address } from 'viem'
import * as z from 'zod/mini'
import type { TaskStatus } from '../types/task.js'
import type { IndexerClient } from './createIndexerClient.js'
import { readPages } from './pages.js'

/** What of a task summary (`GET /tasks`) the SDK reads: its id. The state is read from the chain. */
const taskSummary = /* @__PURE__ */ z.object({ id: z.string().check(z.regex(/^[1-9][0-9]*$/)) })

/**
 * The ids of the tasks the indexer finds for these filters, above `afterTaskId`,
 * ascending. The indexer lists newest first: pages are read down to `afterTaskId`.
 */
export async function indexedTaskIds(
  indexer: IndexerClient,
  filters: {
    client?: Address | undefined
    provider?: Address | undefined
    sourceId?: number | undefined
    status?: TaskStatus | readonly TaskStatus[] | undefined
    afterTaskId?: bigint | undefined
  },
): Promise<bigint[]> {
  const after = filters.afterTaskId ?? 0n
  const statuses = filters.status === undefined ? undefined : [filters.status].flat()
  const items = await readPages(indexer, {
    path: '/tasks',
    query: {
      client: filters.client,
      provider: filters.provider,
      source: filters.sourceId?.toString(),
      status: statuses?.join(','),
    },
    item: taskSummary,
    past: (task) => BigInt(task.id) <= after,
  })
  return items
    .map((task) => BigInt(task.id))
    .filter((taskId) => taskId > after)
    .reverse()
}
