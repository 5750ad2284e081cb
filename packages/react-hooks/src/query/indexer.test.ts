import { getDeployment } from '@gridforge/contracts'
import { createIndexerClient, type IndexerFallback, IndexerRequestError } from '@gridforge/sdk'
import { QueryClient } from '@tanstack/query-core'
import { createConfig, http } from '@wagmi/core'
import { defineChain } from 'viem'
import { hardhat } from 'viem/chains'
import { describe, expect, it } from 'vitest'
import { getNetworkStatsQueryKey, getNetworkStatsQueryOptions } from './getNetworkStats.js'
import { getProviderSummaryQueryKey, getProviderSummaryQueryOptions } from './getProviderSummary.js'
import { listSourcesQueryKey, listSourcesQueryOptions } from './listSources.js'
import type { GridforgeChainCustom } from './utils.js'

/**
 * A stand-in indexer: `fetch` answers `GET /sources` with `source` (and any
 * other route with `status`), recording the query strings it was asked.
 */
function fakeIndexer(url: string, status = 200) {
  const queries: string[] = []
  const fetch = async (input: RequestInfo | URL) => {
    const { pathname, search } = new URL(String(input))
    if (pathname !== '/sources' || status !== 200)
      return Response.json({}, { status: status === 200 ? 404 : status })
    queries.push(search)
    return Response.json({ items: [source], nextCursor: null })
  }
  const fallbacks: IndexerFallback[] = []
  const indexer = createIndexerClient({ url, fetch, onFallback: (fallback) => fallbacks.push(fallback) })
  return { indexer, queries, fallbacks }
}

const chainsIndexer = fakeIndexer('http://indexer.test')
// The chain's node is unreachable: whatever these queries answer comes from an indexer.
const chain = defineChain({
  ...hardhat,
  custom: { gridforge: { indexer: chainsIndexer.indexer } } satisfies GridforgeChainCustom,
})
const config = createConfig({
  chains: [chain],
  transports: { [chain.id]: http('http://127.0.0.1:1', { retryCount: 0 }) },
  storage: null,
  multiInjectedProviderDiscovery: false,
})
const owner = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const source = {
  id: 3,
  owner,
  predecessor: 0,
  imageDigest: `0x${'ab'.repeat(32)}`,
  metadataCid: 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku',
  requirements: {
    minGpus: 1,
    minVramMiB: 0,
    minComputeCapability: 0,
    maxRuntimeSec: 60,
    deterministic: true,
  },
  creatorFeeBps: 0,
  failureFeeBps: 0,
  validator: 0,
  active: true,
  publishedAt: { unix: 1_800_000_000, iso: '2027-01-15T08:00:00.000Z' },
}

describe('list and statistics queries with an indexer', () => {
  it('read through the indexer the config’s chain names, with the same key as without one', async () => {
    const options = listSourcesQueryOptions(config, { owner })
    expect(options.queryKey).toEqual(listSourcesQueryKey(config, { owner }))
    expect(options.queryKey).toEqual([
      'gridforge',
      'sources',
      { chainId: chain.id, market: getDeployment(31337).contracts.market, owner },
    ])
    const sources = await new QueryClient().fetchQuery(options)
    expect(sources).toEqual([
      {
        sourceId: 3,
        owner,
        active: true,
        publishedAt: new Date(1_800_000_000_000),
        imageDigest: source.imageDigest,
        metadata: source.metadataCid,
        requirements: source.requirements,
        creatorFeeBps: 0,
        predecessor: undefined,
        failureFeeBps: 0,
        validator: undefined,
      },
    ])
    expect(chainsIndexer.queries).toEqual([`?owner=${owner}&limit=100`])
  })

  it('read through the `indexer` parameter first, without changing the key', async () => {
    chainsIndexer.queries.length = 0
    const given = fakeIndexer('http://other-indexer.test')
    const options = listSourcesQueryOptions(config, { indexer: given.indexer })
    expect(options.queryKey).toEqual(listSourcesQueryKey(config, {}))
    await new QueryClient().fetchQuery(options)
    expect([chainsIndexer.queries, given.queries]).toEqual([[], ['?limit=100']])
  })

  it('fall back to the chain when the indexer fails, and tell onFallback', async () => {
    const { indexer, fallbacks } = fakeIndexer('http://other-indexer.test', 502)
    const options = getNetworkStatsQueryOptions(config, { indexer, query: { retry: false } })
    expect(options.queryKey).toEqual(getNetworkStatsQueryKey(config, {}))
    // The chain's node is unreachable too: the query fails with the RPC's error, after the fallback.
    await expect(new QueryClient().fetchQuery(options)).rejects.toThrow(/HTTP request failed/)
    expect(fallbacks.map(({ action, error }) => [action, error instanceof IndexerRequestError])).toEqual([
      ['getNetworkStats', true],
    ])
  })

  it('read a provider summary through the `indexer` parameter: its detail, and its current tasks', async () => {
    const requests: string[] = []
    const fetch = async (input: RequestInfo | URL) => {
      const { pathname, search } = new URL(String(input))
      requests.push(`${pathname}${search}`)
      if (pathname === '/tasks') return Response.json({ items: [], nextCursor: null })
      return Response.json(providerDetail)
    }
    const indexer = createIndexerClient({ url: 'http://other-indexer.test', fetch })
    const options = getProviderSummaryQueryOptions(config, { provider: owner, indexer })
    expect(options.queryKey).toEqual(getProviderSummaryQueryKey(config, { provider: owner }))
    const summary = await new QueryClient().fetchQuery(options)
    expect(summary).toMatchObject({
      provider: owner,
      registered: true,
      capabilities: providerDetail.capabilities,
      record: { completed: 2, successBps: 10_000 },
      earnings: { paid: 300n, fees: 30n, earned: 270n },
      leases: { accepted: 1, paid: 100n, fees: 5n, earned: 95n, penalties: 0n },
      currentTasks: [],
      readFrom: 'indexer',
    })
    expect(requests.sort()).toEqual([
      `/providers/${owner}`,
      `/tasks?provider=${owner}&status=Open%2CClaimed%2CRevealing%2CHeld%2CAuditing&limit=100`,
    ])
  })
})

/** `GET /providers/{address}` of a provider that completed two tasks. */
const providerDetail = {
  address: owner,
  registeredAt: { unix: 1_800_000_000, iso: '2027-01-15T08:00:00.000Z' },
  paused: false,
  capabilities: { gpuCount: 1, vramMiB: 24_576, computeCapability: 89, cpuCores: 8, memoryMiB: 65_536 },
  priceFloor: '0',
  record: {
    claims: 2,
    audits: 0,
    completed: 2,
    failedRuns: 0,
    failed: 0,
    outvoted: 0,
    slashes: 0,
    slashedAmount: '0',
  },
  reputation: { completed: 2, failed: 0, outvoted: 0, successBps: 10_000 },
  earnings: { paid: '300', fees: '30', earned: '270', runtimeSec: 20 },
  leases: { accepted: 1, paid: '100', fees: '5', earned: '95', penalties: '0' },
  stake: { staked: '100', locked: '0', unbonding: '0', unbondingReadyAt: null, withdrawn: '0', slashed: '0' },
  sources: [3],
}
