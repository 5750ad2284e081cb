import type { Address } from 'viem'
import * as z from 'zod/mini'
import type { Source } from '../sources/getSource.js'
import type { IndexerClient } from './createIndexerClient.js'
import { readPages } from './pages.js'

const uint = /* @__PURE__ */ z.number()
const hex = /* @__PURE__ */ z
  .string()
  .check(z.regex(/^0x[0-9a-fA-F]*$/)) as unknown as z.ZodMiniType<`0x${string}`>

/** A source as `GET /sources` lists it (its usage left out). */
const indexedSource = /* @__PURE__ */ z.object({
  id: uint,
  owner: hex as z.ZodMiniType<Address>,
  predecessor: uint,
  imageDigest: hex,
  metadataCid: z.string(),
  requirements: z.object({
    minGpus: uint,
    minVramMiB: uint,
    minComputeCapability: uint,
    maxRuntimeSec: uint,
    deterministic: z.boolean(),
  }),
  creatorFeeBps: uint,
  failureFeeBps: uint,
  validator: uint,
  active: z.boolean(),
  publishedAt: z.object({ unix: uint }),
})

/** The sources the indexer lists for these filters, as `getSource` reads them, by increasing id. */
export async function indexedSources(
  indexer: IndexerClient,
  filters: { owner?: Address | undefined; active?: boolean | undefined },
): Promise<Source[]> {
  const items = await readPages(indexer, {
    path: '/sources',
    query: { owner: filters.owner, active: filters.active?.toString() },
    item: indexedSource,
  })
  return items.reverse().map((source) => ({
    sourceId: source.id,
    owner: source.owner,
    active: source.active,
    publishedAt: new Date(source.publishedAt.unix * 1000),
    imageDigest: source.imageDigest,
    metadata: source.metadataCid,
    requirements: source.requirements,
    creatorFeeBps: source.creatorFeeBps,
    predecessor: source.predecessor === 0 ? undefined : source.predecessor,
    failureFeeBps: source.failureFeeBps,
    validator: source.validator === 0 ? undefined : source.validator,
  }))
}
