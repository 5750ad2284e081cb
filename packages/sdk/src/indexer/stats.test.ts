import { HttpResponse, http } from 'msw'
import { setupServer } from 'msw/node'
import { createPublicClient } from 'viem'
import { hardhat } from 'viem/chains'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { deployment, transport } from '../../test/chain.js'
import { getNetworkStats } from '../market/getNetworkStats.js'
import { createIndexerClient, type IndexerFallback } from './createIndexerClient.js'
import { IndexerResponseError } from './errors.js'

const URL = 'http://indexer.test'
const server = setupServer()
beforeAll(() => server.listen({ onUnhandledFrame: 'bypass' }))
afterEach(() => server.resetHandlers())
afterAll(() => server.close())

const reader = createPublicClient({ chain: hardhat, transport: transport() })

/** What GET /stats answers (the parts the SDK reads, and some it does not). */
const stats = {
  asOf: { unix: 1_800_000_000, iso: '2027-01-15T08:00:00.000Z' },
  window: { name: '24h', seconds: 86_400, from: { unix: 1_799_913_600, iso: '2027-01-14T08:00:00.000Z' } },
  tasks: {
    total: 12,
    byStatus: {
      Open: 2,
      Claimed: 1,
      Revealing: 0,
      Completed: 5,
      Failed: 1,
      Cancelled: 2,
      Expired: 1,
      Held: 0,
      Auditing: 0,
    },
    queueDepth: 2,
  },
  timeToFirstClaim: { tasks: 3, medianSec: 4 },
  pricePerGpuSecond: [],
  providers: { registered: 3, active: 2 },
  totals: {
    paid: '25000000000000000000',
    refunded: '0',
    fees: '0',
    feeRebates: '0',
    creatorFees: '0',
    stakerFees: '0',
    treasuryFees: '0',
    slashed: '0',
  },
}

/** An indexer whose /status answers each block of `blocks` in turn (then the last). */
function fakeIndexer(blocks: number[], chainId = 31337) {
  let reads = 0
  server.use(
    http.get(`${URL}/stats`, () => HttpResponse.json(stats)),
    http.get(`${URL}/status`, () => {
      const number = blocks[Math.min(reads++, blocks.length - 1)]
      return HttpResponse.json({ gridforge: { id: chainId, block: { number, timestamp: 1_800_000_000 } } })
    }),
  )
  return { statusReads: () => reads }
}

describe('getNetworkStats with an indexer', () => {
  it('maps GET /stats to the chain path’s shape, as of the block the indexer is at', async () => {
    fakeIndexer([40])
    expect(await getNetworkStats(reader, { deployment: deployment(), indexer: URL })).toEqual({
      tasks: 12n,
      openTasks: 3,
      settledTasks: 9,
      completedTasks: 5,
      failedTasks: 1,
      cancelledTasks: 2,
      expiredTasks: 1,
      totalPaid: 25_000_000_000_000_000_000n,
      registeredProviders: 3,
      activeProviders: 2,
      blockNumber: 40n,
    })
  })

  it('reads /stats again while the indexer indexes a block meanwhile', async () => {
    const indexer = fakeIndexer([40, 41, 41])
    const { blockNumber } = await getNetworkStats(reader, { deployment: deployment(), indexer: URL })
    expect(blockNumber).toBe(41n)
    expect(indexer.statusReads()).toBe(3)
  })

  it('reads the chain when the indexer indexes another chain', async () => {
    fakeIndexer([40], 1)
    const fallbacks: IndexerFallback[] = []
    const indexer = createIndexerClient({ url: URL, onFallback: (fallback) => fallbacks.push(fallback) })
    const fromChain = await getNetworkStats(reader, { deployment: deployment(), indexer })
    expect(fromChain.blockNumber).toBe(await reader.getBlockNumber())
    expect(fallbacks[0]?.error).toBeInstanceOf(IndexerResponseError)
    expect(fallbacks[0]?.error.shortMessage).toMatch(/it indexes chain 1, not 31337$/)
  })
})
