import * as z from 'zod/mini'
import type { IndexerClient } from './createIndexerClient.js'

/** The most items a page of the indexer's lists holds. */
export const pageSize = 100

/**
 * Reads a list of the indexer (newest first) page by page, following
 * `nextCursor`, until the last page or a page with an item `past` says is
 * beyond what is wanted (that page's items are returned too).
 */
export async function readPages<item extends z.ZodMiniType>(
  indexer: IndexerClient,
  {
    path,
    query,
    item,
    past,
  }: {
    path: string
    query: Record<string, string | undefined>
    item: item
    past?: ((item: z.output<item>) => boolean) | undefined
  },
): Promise<z.output<item>[]> {
  const schema = z.object({ items: z.array(item), nextCursor: z.union([z.string(), z.null()]) })
  const items: z.output<item>[] = []
  let cursor: string | undefined
  for (;;) {
    const page = await indexer.get({ path, query: { ...query, limit: String(pageSize), cursor }, schema })
    items.push(...page.items)
    if (page.nextCursor === null || (past !== undefined && page.items.some(past))) return items
    cursor = page.nextCursor
  }
}
