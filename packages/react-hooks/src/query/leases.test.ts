import { getDeployment } from '@gridforge/contracts'
import { createIndexerClient, type IndexerFallback, IndexerRequestError } from '@gridforge/sdk'
import { QueryClient } from '@tanstack/query-core'
import { createConfig, http } from '@wagmi/core'
import { defineChain } from 'viem'
import { hardhat } from 'viem/chains'
import { describe, expect, it } from 'vitest'
import { closeLeaseInvalidates, closeLeaseMutationOptions } from './closeLease.js'
import { extendLeaseMutationOptions } from './extendLease.js'
import { getLeaseQueryKey, getLeaseQueryOptions } from './getLease.js'
import { getLeaseCostQueryKey, getLeaseCostQueryOptions } from './getLeaseCost.js'
import { listLeasesQueryKey, listLeasesQueryOptions } from './listLeases.js'
import { requestLeaseInvalidates, requestLeaseMutationOptions } from './requestLease.js'
import { topUpLeaseInvalidates, topUpLeaseMutationOptions } from './topUpLease.js'
import type { GridforgeChainCustom } from './utils.js'

// Keys and options are built without the chain: the transport is never called.
const config = createConfig({
  chains: [hardhat],
  transports: { [hardhat.id]: http('http://127.0.0.1:1') },
  storage: null,
  multiInjectedProviderDiscovery: false,
})
const market = getDeployment(31337).contracts.market

describe('lease queries', () => {
  it('key a lease by its id as a bigint, so events (bigints) match what components passed', () => {
    expect(getLeaseQueryKey(config, { leaseId: 7 })).toEqual([
      'gridforge',
      'lease',
      { chainId: 31337, market, leaseId: 7n },
    ])
    expect(getLeaseCostQueryKey(config, { leaseId: '7' as never })).toEqual([
      'gridforge',
      'leaseCost',
      { chainId: 31337, market, leaseId: 7n },
    ])
    expect(
      listLeasesQueryKey(config, { renter: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', status: 'Active' }),
    ).toEqual([
      'gridforge',
      'leases',
      { chainId: 31337, market, renter: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', status: 'Active' },
    ])
  })

  it('stay disabled until the lease id is set; a list needs nothing', () => {
    expect(getLeaseQueryOptions(config).enabled).toBe(false)
    expect(getLeaseCostQueryOptions(config, { leaseId: 7n }).enabled).toBe(true)
    expect(listLeasesQueryOptions(config).enabled).toBeUndefined()
  })

  it('mutations name themselves and what they refresh', () => {
    expect(requestLeaseMutationOptions(config).mutationKey).toEqual(['gridforge', 'requestLease'])
    expect(topUpLeaseMutationOptions(config).mutationKey).toEqual(['gridforge', 'topUpLease'])
    expect(extendLeaseMutationOptions(config).mutationKey).toEqual(['gridforge', 'extendLease'])
    expect(closeLeaseMutationOptions(config).mutationKey).toEqual(['gridforge', 'closeLease'])
    expect(requestLeaseInvalidates).toEqual(['leases', 'walletBalance'])
    expect(topUpLeaseInvalidates).toContain('leaseCost')
    expect(closeLeaseInvalidates).toEqual(['lease', 'leaseCost', 'leases', 'walletBalance'])
  })
})

/**
 * A stand-in indexer: `fetch` answers `GET /leases` with no lease (so the
 * chain is never read for one), and any other route with `status`,
 * recording the query strings it was asked.
 */
function fakeIndexer(url: string, status = 200) {
  const queries: string[] = []
  const fetch = async (input: RequestInfo | URL) => {
    const { pathname, search } = new URL(String(input))
    if (pathname !== '/leases' || status !== 200)
      return Response.json({}, { status: status === 200 ? 404 : status })
    queries.push(search)
    return Response.json({ items: [], nextCursor: null })
  }
  const fallbacks: IndexerFallback[] = []
  const indexer = createIndexerClient({ url, fetch, onFallback: (fallback) => fallbacks.push(fallback) })
  return { indexer, queries, fallbacks }
}

describe('lease lists with an indexer', () => {
  const chainsIndexer = fakeIndexer('http://indexer.test')
  // The chain's node is unreachable: whatever these queries answer comes from an indexer.
  const chain = defineChain({
    ...hardhat,
    custom: { gridforge: { indexer: chainsIndexer.indexer } } satisfies GridforgeChainCustom,
  })
  const indexedConfig = createConfig({
    chains: [chain],
    transports: { [chain.id]: http('http://127.0.0.1:1', { retryCount: 0 }) },
    storage: null,
    multiInjectedProviderDiscovery: false,
  })
  const renter = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

  it('read through the indexer the config’s chain names, with the same key as without one', async () => {
    const options = listLeasesQueryOptions(indexedConfig, { renter, status: ['Requested', 'Active'] })
    expect(options.queryKey).toEqual(
      listLeasesQueryKey(indexedConfig, { renter, status: ['Requested', 'Active'] }),
    )
    expect(options.queryKey).toEqual([
      'gridforge',
      'leases',
      { chainId: chain.id, market, renter, status: ['Requested', 'Active'] },
    ])
    expect(await new QueryClient().fetchQuery(options)).toEqual([])
    expect(chainsIndexer.queries).toEqual([`?renter=${renter}&status=Requested%2CActive&limit=100`])
  })

  it('read through the `indexer` parameter first, without changing the key', async () => {
    chainsIndexer.queries.length = 0
    const given = fakeIndexer('http://other-indexer.test')
    const options = listLeasesQueryOptions(indexedConfig, { indexer: given.indexer })
    expect(options.queryKey).toEqual(listLeasesQueryKey(indexedConfig, {}))
    await new QueryClient().fetchQuery(options)
    expect([chainsIndexer.queries, given.queries]).toEqual([[], ['?limit=100']])
  })

  it('fall back to the chain when the indexer fails, and tell onFallback', async () => {
    const { indexer, fallbacks } = fakeIndexer('http://other-indexer.test', 502)
    const options = listLeasesQueryOptions(indexedConfig, { renter, indexer, query: { retry: false } })
    expect(options.queryKey).toEqual(listLeasesQueryKey(indexedConfig, { renter }))
    // The chain's node is unreachable too: the query fails with the RPC's error, after the fallback.
    await expect(new QueryClient().fetchQuery(options)).rejects.toThrow(/HTTP request failed/)
    expect(fallbacks.map(({ action, error }) => [action, error instanceof IndexerRequestError])).toEqual([
      ['listLeases', true],
    ])
  })

  it('read the logs for a block range, without asking the indexer', async () => {
    chainsIndexer.queries.length = 0
    const options = listLeasesQueryOptions(indexedConfig, { renter, fromBlock: 0n, query: { retry: false } })
    expect(options.queryKey).toEqual(listLeasesQueryKey(indexedConfig, { renter, fromBlock: 0n }))
    await expect(new QueryClient().fetchQuery(options)).rejects.toThrow(/HTTP request failed/)
    expect(chainsIndexer.queries).toEqual([])
  })
})
