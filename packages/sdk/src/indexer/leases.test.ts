import { HttpResponse, http } from 'msw'
import { setupServer } from 'msw/node'
import { createPublicClient } from 'viem'
import { hardhat } from 'viem/chains'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { deployment, fundedClient, transport } from '../../test/chain.js'
import { fakeIndexerList } from '../../test/fakeIndexer.js'
import { publishTestSource, testProvider } from '../../test/fixtures.js'
import { gridforgeActions } from '../clients/decorators/gridforge.js'
import { acceptLease } from '../leases/acceptLease.js'
import { listLeases } from '../leases/listLeases.js'
import { requestLeaseWithPermit } from '../leases/requestLeaseWithPermit.js'
import { createIndexerClient, type IndexerFallback } from './createIndexerClient.js'
import { IndexerParameterError, IndexerRequestError } from './errors.js'

const URL = 'http://indexer.test'
const server = setupServer()
// The chain's JSON-RPC goes through: only the indexer is mocked.
beforeAll(() => server.listen({ onUnhandledFrame: 'bypass' }))
afterEach(() => server.resetHandlers())
afterAll(() => server.close())

const reader = createPublicClient({ chain: hardhat, transport: transport() })

/** An indexer that lists `ids` (the renter's leases, every one `Requested`: it has seen no acceptance), newest first, two per page; the queries it was sent. */
const fakeIndexer = (ids: readonly bigint[]) =>
  fakeIndexerList(server, { url: URL, path: '/leases', ids, status: 'Requested' })

describe('listLeases with an indexer', () => {
  let renter: `0x${string}`
  let provider: `0x${string}`
  let sourceId: number
  let leaseIds: bigint[]

  beforeAll(async () => {
    sourceId = await publishTestSource()
    const [wallet, host] = await Promise.all([fundedClient({ grid: '100' }), testProvider([sourceId])])
    renter = wallet.account.address
    provider = host.account.address
    leaseIds = []
    for (let i = 0; i < 5; i++) {
      const { leaseId } = await requestLeaseWithPermit(wallet, {
        deployment: deployment(),
        sourceId,
        maxPricePerHour: '3.6',
        duration: '1d',
        deposit: '1',
      })
      leaseIds.push(leaseId)
    }
    // Active on the chain; the fake indexer still says Requested.
    await acceptLease(host, { deployment: deployment(), leaseId: leaseIds[1] ?? 0n })
  })

  it('finds the leases through the indexer, page by page, and reads them as the chain path does', async () => {
    const queries = fakeIndexer(leaseIds)
    const indexed = await listLeases(reader, { deployment: deployment(), renter, indexer: URL })
    expect(indexed).toEqual(await listLeases(reader, { deployment: deployment(), renter }))
    expect(indexed.map((lease) => lease.leaseId)).toEqual(leaseIds)
    expect(indexed[1]).toMatchObject({ status: 'Active', provider })
    expect(queries).toEqual([
      { renter, limit: '100' },
      { renter, limit: '100', cursor: leaseIds[3]?.toString() },
      { renter, limit: '100', cursor: leaseIds[1]?.toString() },
    ])
  })

  it('keeps only the leases whose state on the chain matches the filters, whatever the indexer says', async () => {
    const [l1, l2, l3, l4, l5] = leaseIds as [bigint, bigint, bigint, bigint, bigint]
    let queries = fakeIndexer(leaseIds)
    // The indexer lists l2 as Requested (it has not seen the acceptance): the chain's state drops it.
    const requested = await listLeases(reader, {
      deployment: deployment(),
      renter,
      status: 'Requested',
      indexer: URL,
    })
    expect(requested.map((lease) => lease.leaseId)).toEqual([l1, l3, l4, l5])
    expect(queries[0]).toEqual({ renter, status: 'Requested', limit: '100' })

    // Every filter goes to the indexer; the leases it lists that another provider serves (here: none) are dropped.
    queries = fakeIndexer(leaseIds)
    const served = await listLeases(reader, {
      deployment: deployment(),
      provider,
      sourceId,
      status: ['Requested', 'Active'],
      indexer: URL,
    })
    expect(served.map((lease) => [lease.leaseId, lease.status])).toEqual([[l2, 'Active']])
    expect(queries[0]).toEqual({
      provider,
      source: sourceId.toString(),
      status: 'Requested,Active',
      limit: '100',
    })
  })

  it('reads through the indexer that gridforgeActions binds', async () => {
    const queries = fakeIndexer(leaseIds)
    const gridforge = reader.extend(gridforgeActions({ deployment: deployment(), indexer: URL }))
    const leases = await gridforge.listLeases({ renter, status: 'Active' })
    expect(leases.map((lease) => lease.leaseId)).toEqual([leaseIds[1]])
    expect(queries).toHaveLength(3)
  })

  it('reads the chain when the indexer fails or cannot be reached, and says so', async () => {
    server.use(
      http.get(`${URL}/leases`, () => HttpResponse.json({ error: { message: 'boom' } }, { status: 503 })),
    )
    const fallbacks: IndexerFallback[] = []
    const onFallback = (fallback: IndexerFallback) => fallbacks.push(fallback)
    const expected = await listLeases(reader, { deployment: deployment(), renter })
    expect(expected.map((lease) => lease.leaseId)).toEqual(leaseIds)
    for (const url of [URL, 'http://127.0.0.1:1']) {
      const indexer = createIndexerClient({ url, onFallback })
      expect(await listLeases(reader, { deployment: deployment(), renter, indexer })).toEqual(expected)
    }
    expect(fallbacks.map(({ action, error }) => [action, error.constructor, error.status])).toEqual([
      ['listLeases', IndexerRequestError, 503],
      ['listLeases', IndexerRequestError, undefined],
    ])
  })

  it('throws what the indexer refuses (HTTP 400), naming the parameter, and does not fall back', async () => {
    server.use(
      http.get(`${URL}/leases`, () =>
        HttpResponse.json(
          { error: { parameter: 'source', message: 'source: expected a uint32, got "x"' } },
          { status: 400 },
        ),
      ),
    )
    const onFallback = vi.fn()
    const indexer = createIndexerClient({ url: URL, onFallback })
    const error = await listLeases(reader, { deployment: deployment(), sourceId, indexer }).catch(
      (error: unknown) => error,
    )
    expect(error).toBeInstanceOf(IndexerParameterError)
    expect(error).toMatchObject({ parameter: 'source' })
    expect(onFallback).not.toHaveBeenCalled()
  })

  it('reads the logs for a block range, without asking the indexer', async () => {
    const queries = fakeIndexer(leaseIds)
    const fromBlock = BigInt(deployment().blockNumber)
    const toBlock = await reader.getBlockNumber()
    for (const range of [{ fromBlock }, { toBlock }]) {
      const leases = await listLeases(reader, { deployment: deployment(), renter, ...range, indexer: URL })
      expect(leases.map((lease) => lease.leaseId)).toEqual(leaseIds)
    }
    expect(queries).toEqual([])
  })
})
