import { HttpResponse, http } from 'msw'
import { setupServer } from 'msw/node'
import { createPublicClient, stringToHex } from 'viem'
import { hardhat } from 'viem/chains'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { deployment, fundedClient, transport } from '../../test/chain.js'
import { publishSource } from '../../test/fixtures.js'
import { getSource } from '../sources/getSource.js'
import { listSources } from '../sources/listSources.js'
import { createIndexerClient, type IndexerFallback } from './createIndexerClient.js'
import { IndexerResponseError } from './errors.js'

const URL = 'http://indexer.test'
const server = setupServer()
beforeAll(() => server.listen({ onUnhandledFrame: 'bypass' }))
afterEach(() => server.resetHandlers())
afterAll(() => server.close())

const reader = createPublicClient({ chain: hardhat, transport: transport() })

describe('listSources with an indexer', () => {
  let owner: `0x${string}`
  let sourceIds: number[]

  beforeAll(async () => {
    const wallet = await fundedClient()
    owner = wallet.account.address
    sourceIds = [
      await publishSource(wallet, deployment(), { creatorFeeBps: 300 }),
      await publishSource(wallet, deployment(), { imageDigest: stringToHex('other', { size: 32 }) }),
    ]
  })

  /** The indexer's JSON of a source, from the chain (as the indexer writes it, usage included). */
  async function indexedJson(sourceId: number) {
    const source = await getSource(reader, { deployment: deployment(), sourceId })
    const unix = source.publishedAt.getTime() / 1000
    return {
      id: sourceId,
      owner: source.owner,
      predecessor: source.predecessor ?? 0,
      imageDigest: source.imageDigest,
      metadataCid: source.metadata,
      requirements: source.requirements,
      creatorFeeBps: source.creatorFeeBps,
      failureFeeBps: source.failureFeeBps,
      validator: source.validator ?? 0,
      active: source.active,
      publishedAt: { unix, iso: new Date(unix * 1000).toISOString() },
      usage: { tasks: 0, paid: '0', subscribers: 0, creatorFees: '0', creatorFeesClaimed: '0' },
    }
  }

  it('maps the indexer’s sources, newest first, page by page, to the chain path’s result', async () => {
    const [older, newer] = [await indexedJson(sourceIds[0] ?? 0), await indexedJson(sourceIds[1] ?? 0)]
    const queries: Record<string, string>[] = []
    server.use(
      http.get(`${URL}/sources`, ({ request }) => {
        const query = Object.fromEntries(new globalThis.URL(request.url).searchParams)
        queries.push(query)
        return HttpResponse.json(
          query.cursor === undefined
            ? { items: [newer], nextCursor: 'c29'.concat('dXJjZXM6MQ') }
            : { items: [older], nextCursor: null },
        )
      }),
    )
    const indexed = await listSources(reader, { deployment: deployment(), owner, active: true, indexer: URL })
    expect(indexed).toEqual(await listSources(reader, { deployment: deployment(), owner, active: true }))
    expect(indexed.map((source) => source.sourceId)).toEqual(sourceIds)
    expect(queries).toEqual([
      { owner, active: 'true', limit: '100' },
      { owner, active: 'true', limit: '100', cursor: 'c29dXJjZXM6MQ' },
    ])
  })

  it('reads the chain when the indexer answers with another shape, and says so', async () => {
    server.use(http.get(`${URL}/sources`, () => HttpResponse.json({ sources: [] })))
    const fallbacks: IndexerFallback[] = []
    const indexer = createIndexerClient({ url: URL, onFallback: (fallback) => fallbacks.push(fallback) })
    const sources = await listSources(reader, { deployment: deployment(), owner, indexer })
    expect(sources.map((source) => source.sourceId)).toEqual(sourceIds)
    expect(fallbacks).toHaveLength(1)
    expect(fallbacks[0]?.error).toBeInstanceOf(IndexerResponseError)
  })
})
