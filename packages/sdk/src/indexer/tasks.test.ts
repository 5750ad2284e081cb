import { HttpResponse, http } from 'msw'
import { setupServer } from 'msw/node'
import { createPublicClient } from 'viem'
import { hardhat } from 'viem/chains'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { deployment, fundedClient, transport } from '../../test/chain.js'
import { fakeIndexerList } from '../../test/fakeIndexer.js'
import { cancel, publishSource, submitFixtureTasks } from '../../test/fixtures.js'
import { listTasks } from '../tasks/listTasks.js'
import { createIndexerClient, type IndexerFallback } from './createIndexerClient.js'
import { IndexerParameterError, IndexerRequestError } from './errors.js'

const URL = 'http://indexer.test'
const server = setupServer()
// The chain's JSON-RPC goes through: only the indexer is mocked.
beforeAll(() => server.listen({ onUnhandledFrame: 'bypass' }))
afterEach(() => server.resetHandlers())
afterAll(() => server.close())

const reader = createPublicClient({ chain: hardhat, transport: transport() })

/** An indexer that lists `ids` (the client's tasks), newest first, two per page; the queries it was sent. */
const fakeIndexer = (ids: readonly bigint[]) =>
  fakeIndexerList(server, { url: URL, path: '/tasks', ids, status: 'Open' })

describe('listTasks with an indexer', () => {
  let client: `0x${string}`
  let taskIds: bigint[]

  beforeAll(async () => {
    const wallet = await fundedClient()
    client = wallet.account.address
    const sourceId = await publishSource(wallet, deployment())
    ;({ taskIds } = await submitFixtureTasks(wallet, deployment(), { sourceId, count: 5 }))
    await cancel(wallet, deployment(), taskIds[1] ?? 0n)
  })

  it('finds the tasks through the indexer, page by page, and reads them as the chain path does', async () => {
    const queries = fakeIndexer(taskIds)
    const indexed = await listTasks(reader, { deployment: deployment(), client, indexer: URL })
    expect(indexed).toEqual(await listTasks(reader, { deployment: deployment(), client }))
    expect(indexed.map((task) => task.taskId)).toEqual(taskIds)
    expect(indexed[0]?.inputCID).toMatch(/^bafk/)
    expect(queries).toEqual([
      { client, limit: '100' },
      { client, limit: '100', cursor: taskIds[3]?.toString() },
      { client, limit: '100', cursor: taskIds[1]?.toString() },
    ])
  })

  it('reads pages only down to afterTaskId, and keeps the filters on fresh state', async () => {
    const [t1, t2, t3, t4, t5] = taskIds as [bigint, bigint, bigint, bigint, bigint]
    let queries = fakeIndexer(taskIds)
    const filters = { deployment: deployment(), client, status: ['Open', 'Claimed'] as const, indexer: URL }
    // The indexer lists t2 (it says Open: it has not seen the cancellation): the chain's state drops it.
    const page = await listTasks(reader, { ...filters, afterTaskId: t1, limit: 2 })
    expect(page.map((task) => task.taskId)).toEqual([t3, t4])
    expect(queries.map((query) => query.cursor)).toEqual([undefined, t4.toString(), t2.toString()])
    expect(queries[0]).toMatchObject({ status: 'Open,Claimed' })

    // The page holding t3 is the last read.
    queries = fakeIndexer(taskIds)
    const next = await listTasks(reader, { ...filters, afterTaskId: t3, limit: 2 })
    expect(next.map((task) => task.taskId)).toEqual([t4, t5])
    expect(queries.map((query) => query.cursor)).toEqual([undefined, t4.toString()])
  })

  it('reads the chain when the indexer fails or cannot be reached, and says so', async () => {
    server.use(
      http.get(`${URL}/tasks`, () => HttpResponse.json({ error: { message: 'boom' } }, { status: 503 })),
    )
    const fallbacks: IndexerFallback[] = []
    const onFallback = (fallback: IndexerFallback) => fallbacks.push(fallback)
    const expected = await listTasks(reader, { deployment: deployment(), client })
    for (const url of [URL, 'http://127.0.0.1:1']) {
      const indexer = createIndexerClient({ url, onFallback })
      expect(await listTasks(reader, { deployment: deployment(), client, indexer })).toEqual(expected)
    }
    expect(fallbacks.map(({ action, error }) => [action, error.constructor, error.status])).toEqual([
      ['listTasks', IndexerRequestError, 503],
      ['listTasks', IndexerRequestError, undefined],
    ])
  })

  it('throws what the indexer refuses (HTTP 400), naming the parameter, and does not fall back', async () => {
    server.use(
      http.get(`${URL}/tasks`, () =>
        HttpResponse.json(
          {
            error: {
              parameter: 'status',
              message: 'status: expected one or more of Open, Claimed, got "Held"',
            },
          },
          { status: 400 },
        ),
      ),
    )
    const onFallback = vi.fn()
    const indexer = createIndexerClient({ url: URL, onFallback })
    const error = await listTasks(reader, { deployment: deployment(), status: 'Held', indexer }).catch(
      (error: unknown) => error,
    )
    expect(error).toBeInstanceOf(IndexerParameterError)
    expect(error).toMatchObject({ parameter: 'status' })
    expect(onFallback).not.toHaveBeenCalled()
  })

  it('reads the logs for a block range, without asking the indexer', async () => {
    const queries = fakeIndexer(taskIds)
    const fromBlock = BigInt(deployment().blockNumber)
    const tasks = await listTasks(reader, { deployment: deployment(), client, fromBlock, indexer: URL })
    expect(tasks.map((task) => task.taskId)).toEqual(taskIds)
    expect(queries).toEqual([])
  })
})
