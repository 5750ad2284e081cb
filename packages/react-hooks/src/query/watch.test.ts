import { QueryClient } from '@tanstack/query-core'
import { describe, expect, it, vi } from 'vitest'
import { deployment, devnet, testClient } from '../../../sdk/test/chain.js'
import {
  claim,
  countingTransport,
  publishTestSource,
  submit,
  submitFixtureTasks,
  testProvider,
} from '../../../sdk/test/fixtures.js'
import { testConfig } from '../../test/config.js'
import { filterInstalled } from '../../test/watching.js'
import { getReceiptQueryKey } from './getReceipt.js'
import { getTaskQueryKey } from './getTask.js'
import { listTasksQueryKey } from './listTasks.js'
import { queryKeyHashFn } from './utils.js'
import { watchTaskQueries, watchTasksQueries } from './watch.js'

type Config = Awaited<ReturnType<typeof testConfig>>['config']

/** A query client holding one entry per named key; `invalidated()` lists those an invalidation reached. */
async function seeded(config: Config, taskId: bigint, otherId: bigint) {
  const queryClient = new QueryClient()
  const keys = {
    task: getTaskQueryKey(config, { taskId }),
    receipt: getReceiptQueryKey(config, { taskId }),
    otherTask: getTaskQueryKey(config, { taskId: otherId }),
    otherReceipt: getReceiptQueryKey(config, { taskId: otherId }),
    tasks: listTasksQueryKey(config, {}),
    walletBalance: ['gridforge', 'walletBalance', { chainId: 31337 }],
    stake: ['gridforge', 'stake', { chainId: 31337 }],
    rewards: ['gridforge', 'rewards', { chainId: 31337 }],
    networkStats: ['gridforge', 'networkStats', { chainId: 31337 }],
    source: ['gridforge', 'source', { chainId: 31337 }],
  } as const
  const seed = () =>
    Promise.all(
      Object.values(keys).map((queryKey) =>
        queryClient.fetchQuery({ queryKey, queryFn: async () => 1, queryKeyHashFn }),
      ),
    )
  await seed()
  const invalidated = () =>
    Object.entries(keys)
      .filter(([, queryKey]) =>
        queryClient
          .getQueryCache()
          .findAll({ queryKey, exact: true })
          .some((query) => query.state.isInvalidated),
      )
      .map(([name]) => name)
  const reset = async () => {
    queryClient.clear()
    await seed()
  }
  return { queryClient, invalidated, reset }
}

describe('watchTaskQueries', () => {
  it("invalidates the task's queries and the lists on each of its events, and the balances on settlement", async () => {
    const rpc = countingTransport(devnet().rpcUrl)
    const { config, client } = await testConfig({ transport: rpc.transport })
    const sourceId = await publishTestSource({ owner: client })
    const provider = await testProvider([sourceId])
    const {
      taskIds: [taskId = 0n, otherId = 0n],
    } = await submitFixtureTasks(client, deployment(), { sourceId, count: 2 })
    const { queryClient, invalidated, reset } = await seeded(config, taskId, otherId)
    // New filters include the latest block: move past the submissions.
    await testClient().mine({ blocks: 1 })

    const unwatch = watchTaskQueries(config, queryClient, { taskId: Number(taskId) })
    try {
      await filterInstalled(rpc)
      // One catch-up refetch of the task's queries covers the moment before the node's filter existed.
      await vi.waitFor(() => expect(invalidated()).toEqual(['task', 'receipt']), { timeout: 10_000 })
      await reset()

      await claim(provider, deployment(), otherId)
      await claim(provider, deployment(), taskId)
      await vi.waitFor(() => expect(invalidated()).toEqual(['task', 'receipt', 'tasks']), { timeout: 10_000 })
      await reset()

      await submit(provider, deployment(), taskId)
      await vi.waitFor(
        () =>
          expect(invalidated()).toEqual([
            'task',
            'receipt',
            'tasks',
            'walletBalance',
            'stake',
            'rewards',
            'networkStats',
          ]),
        { timeout: 10_000 },
      )
    } finally {
      unwatch()
    }
  })
})

describe('watchTasksQueries', () => {
  it("invalidates the lists and the task on a matching submission, claim or settlement; other clients' do nothing", async () => {
    const rpc = countingTransport(devnet().rpcUrl)
    const { config, client, address } = await testConfig({ transport: rpc.transport })
    const other = await testConfig({ connected: false })
    const sourceId = await publishTestSource({ owner: client })
    const provider = await testProvider([sourceId])
    const {
      taskIds: [taskId = 0n],
    } = await submitFixtureTasks(client, deployment(), { sourceId })
    const {
      taskIds: [otherId = 0n],
    } = await submitFixtureTasks(other.client, deployment(), { sourceId })
    const { queryClient, invalidated, reset } = await seeded(config, taskId, otherId)
    await testClient().mine({ blocks: 1 })

    // Three watches: submissions, claims, settlements.
    const unwatch = watchTasksQueries(config, queryClient, { client: address })
    try {
      await filterInstalled(rpc, 3)
      // One catch-up refetch of the lists covers the moment before the node's filters existed.
      await vi.waitFor(() => expect(invalidated()).toEqual(['tasks']), { timeout: 10_000 })
      await reset()

      await claim(provider, deployment(), otherId)
      await submit(provider, deployment(), otherId)
      await new Promise((resolve) => setTimeout(resolve, 500))
      expect(invalidated()).toEqual([])

      await submitFixtureTasks(client, deployment(), { sourceId })
      await vi.waitFor(() => expect(invalidated()).toEqual(['tasks']), { timeout: 10_000 })
      await reset()
      await claim(provider, deployment(), taskId)
      await vi.waitFor(() => expect(invalidated()).toEqual(['task', 'tasks']), { timeout: 10_000 })
      await reset()
      await submit(provider, deployment(), taskId)
      await vi.waitFor(
        () =>
          expect(invalidated()).toEqual([
            'task',
            'tasks',
            'walletBalance',
            'stake',
            'rewards',
            'networkStats',
          ]),
        { timeout: 10_000 },
      )
    } finally {
      unwatch()
    }
  })
})
