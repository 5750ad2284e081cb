import { getDeployment } from '@gridforge/contracts'
import { memoryStore } from '@gridforge/sdk/storage'
import { QueryClient } from '@tanstack/query-core'
import { createConfig, http } from '@wagmi/core'
import { zeroAddress } from 'viem'
import { hardhat, localhost } from 'viem/chains'
import { describe, expect, it } from 'vitest'
import { cancelTaskInvalidates, cancelTaskMutationOptions } from './cancelTask.js'
import { claimRewardsInvalidates, claimRewardsMutationOptions } from './claimRewards.js'
import { depositInvalidates, depositMutationOptions } from './deposit.js'
import { getNetworkStatsQueryKey, getNetworkStatsQueryOptions } from './getNetworkStats.js'
import { getProtocolParamsQueryKey, getProtocolParamsQueryOptions } from './getProtocolParams.js'
import { getProviderQueryKey, getProviderQueryOptions } from './getProvider.js'
import { getReceiptQueryKey, getReceiptQueryOptions } from './getReceipt.js'
import { getRewardsQueryKey, getRewardsQueryOptions } from './getRewards.js'
import { getSourceQueryKey, getSourceQueryOptions } from './getSource.js'
import { getStakeQueryKey, getStakeQueryOptions } from './getStake.js'
import { getTaskQueryKey, getTaskQueryOptions } from './getTask.js'
import { getWalletBalanceQueryKey, getWalletBalanceQueryOptions } from './getWalletBalance.js'
import { listSourcesQueryKey, listSourcesQueryOptions } from './listSources.js'
import { listTasksQueryKey, listTasksQueryOptions } from './listTasks.js'
import { requestUnbondInvalidates, requestUnbondMutationOptions } from './requestUnbond.js'
import { stakeInvalidates, stakeMutationOptions } from './stake.js'
import { submitTaskInvalidates, submitTaskMutationOptions } from './submitTask.js'
import { withdrawInvalidates, withdrawMutationOptions } from './withdraw.js'
import { withdrawUnbondedInvalidates, withdrawUnbondedMutationOptions } from './withdrawUnbonded.js'

// Keys and options are built without the chain: the transport is never called.
const config = createConfig({
  chains: [hardhat, localhost],
  transports: { [hardhat.id]: http('http://127.0.0.1:1'), [localhost.id]: http('http://127.0.0.1:1') },
  storage: null,
  multiInjectedProviderDiscovery: false,
})
const chainId = 31337
const market = getDeployment(31337).contracts.market
const account = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const own = { blockNumber: 0, contracts: { ...getDeployment(31337).contracts, market: zeroAddress } }

describe('query keys', () => {
  it('have the documented shapes', () => {
    expect(getSourceQueryKey(config, { sourceId: 3, blockNumber: 9n })).toEqual([
      'gridforge',
      'source',
      { chainId, market, sourceId: 3, blockNumber: 9n },
    ])
    expect(
      listSourcesQueryKey(config, {
        owner: account,
        active: true,
        fromBlock: 1n,
        toBlock: 2n,
        blockRange: 3n,
      }),
    ).toEqual([
      'gridforge',
      'sources',
      { chainId, market, owner: account, active: true, fromBlock: 1n, toBlock: 2n, blockRange: 3n },
    ])
    expect(getTaskQueryKey(config, { taskId: 7, includeInput: true, blockNumber: 9n })).toEqual([
      'gridforge',
      'task',
      { chainId, market, taskId: 7n, includeInput: true, blockNumber: 9n },
    ])
    expect(
      listTasksQueryKey(config, {
        client: account,
        provider: zeroAddress,
        sourceId: 2,
        status: ['Open', 'Claimed'],
        fromBlock: 1n,
        toBlock: 2n,
        blockRange: 3n,
        limit: 100,
        afterTaskId: 42n,
      }),
    ).toEqual([
      'gridforge',
      'tasks',
      {
        chainId,
        market,
        client: account,
        provider: zeroAddress,
        sourceId: 2,
        status: ['Open', 'Claimed'],
        fromBlock: 1n,
        toBlock: 2n,
        blockRange: 3n,
        limit: 100,
        afterTaskId: 42n,
      },
    ])
    // The store is not part of the key.
    expect(
      getReceiptQueryKey(config, {
        taskId: '7',
        slot: 1,
        maxBytes: 100,
        fromBlock: 1n,
        blockRange: 3n,
        store: memoryStore(),
      } as never),
    ).toEqual([
      'gridforge',
      'receipt',
      { chainId, market, taskId: 7n, slot: 1, maxBytes: 100, fromBlock: 1n, blockRange: 3n },
    ])
    for (const [name, key] of [
      ['walletBalance', getWalletBalanceQueryKey],
      ['stake', getStakeQueryKey],
      ['rewards', getRewardsQueryKey],
    ] as const) {
      expect(key(config, { account, blockNumber: 9n })).toEqual([
        'gridforge',
        name,
        { chainId, market, account, blockNumber: 9n },
      ])
    }
    expect(getProviderQueryKey(config, { provider: account, blockNumber: 9n })).toEqual([
      'gridforge',
      'provider',
      { chainId, market, provider: account, blockNumber: 9n },
    ])
    expect(getProtocolParamsQueryKey(config, { blockNumber: 9n })).toEqual([
      'gridforge',
      'protocolParams',
      { chainId, market, blockNumber: 9n },
    ])
    expect(getNetworkStatsQueryKey(config, { fromBlock: 1n, toBlock: 2n, blockRange: 3n })).toEqual([
      'gridforge',
      'networkStats',
      { chainId, market, fromBlock: 1n, toBlock: 2n, blockRange: 3n },
    ])
  })

  it('drop undefined parameters', () => {
    expect(listTasksQueryKey(config, { client: undefined, status: undefined })).toEqual([
      'gridforge',
      'tasks',
      { chainId, market },
    ])
    expect(getStakeQueryKey(config, { account: undefined })).toEqual([
      'gridforge',
      'stake',
      { chainId, market },
    ])
    expect(getNetworkStatsQueryKey(config)).toEqual(['gridforge', 'networkStats', { chainId, market }])
  })

  it('share an entry for task 7 and 7n', async () => {
    expect(getTaskQueryKey(config, { taskId: 7 })).toEqual(getTaskQueryKey(config, { taskId: 7n }))
    expect(getReceiptQueryKey(config, { taskId: 7 })).toEqual(getReceiptQueryKey(config, { taskId: 7n }))
    const queryClient = new QueryClient()
    const task = { taskId: 7n, status: 'Open' }
    await queryClient.fetchQuery({
      ...getTaskQueryOptions(config, { taskId: 7 }),
      queryFn: async () => task as never,
    })
    const cached = queryClient
      .getQueryCache()
      .find({ queryKey: getTaskQueryOptions(config, { taskId: 7n }).queryKey, exact: true })
    expect(cached?.state.data).toBe(task)
    expect(queryClient.getQueryCache().getAll()).toHaveLength(1)
  })

  it('name the market of a custom deployment, and the chain asked for', () => {
    expect(getTaskQueryKey(config, { taskId: 1n, deployment: own })).toEqual([
      'gridforge',
      'task',
      { chainId, market: zeroAddress, taskId: 1n },
    ])
    expect(getTaskQueryKey(config, { taskId: 1n, chainId: 1337, deployment: own })[2]).toEqual({
      chainId: 1337,
      market: zeroAddress,
      taskId: 1n,
    })
    expect(listSourcesQueryKey(config, { chainId: 1337 })[2]).toEqual({ chainId: 1337, market: undefined })
  })
})

describe('query options', () => {
  it('are disabled until the required parameters are set', () => {
    const store = memoryStore()
    const cases = [
      [getSourceQueryOptions(config), getSourceQueryOptions(config, { sourceId: 1 })],
      [getTaskQueryOptions(config), getTaskQueryOptions(config, { taskId: 1n })],
      [getReceiptQueryOptions(config, { store }), getReceiptQueryOptions(config, { taskId: 1n, store })],
      [getReceiptQueryOptions(config, { taskId: 1n }), getReceiptQueryOptions(config, { taskId: 1n, store })],
      [getWalletBalanceQueryOptions(config), getWalletBalanceQueryOptions(config, { account })],
      [getStakeQueryOptions(config), getStakeQueryOptions(config, { account })],
      [getRewardsQueryOptions(config), getRewardsQueryOptions(config, { account })],
      [getProviderQueryOptions(config), getProviderQueryOptions(config, { provider: account })],
    ] as const
    for (const [without, withParameters] of cases) {
      expect(without.enabled).toBe(false)
      expect(withParameters.enabled).toBe(true)
    }
  })

  it("keep the caller's `enabled: false` once the parameters are set", () => {
    expect(getTaskQueryOptions(config, { taskId: 1n, query: { enabled: false } }).enabled).toBe(false)
    expect(
      getReceiptQueryOptions(config, { taskId: 1n, store: memoryStore(), query: { enabled: false } }).enabled,
    ).toBe(false)
    expect(getStakeQueryOptions(config, { account, query: { enabled: false } }).enabled).toBe(false)
    // A caller's `enabled: true` does not enable a query that lacks its parameters.
    expect(getTaskQueryOptions(config, { query: { enabled: true } }).enabled).toBe(false)
  })

  it('need nothing for lists, parameters and stats', () => {
    for (const options of [
      listSourcesQueryOptions(config),
      listTasksQueryOptions(config),
      getProtocolParamsQueryOptions(config),
      getNetworkStatsQueryOptions(config),
    ])
      expect(options.enabled).toBeUndefined()
    expect(listTasksQueryOptions(config, { query: { enabled: false } }).enabled).toBe(false)
  })

  it("carry the caller's TanStack options, the key and the bigint-safe hash", () => {
    const select = (task: unknown) => task
    const options = getTaskQueryOptions(config, { taskId: 1n, query: { staleTime: 5_000, select } })
    expect(options).toMatchObject({
      staleTime: 5_000,
      select,
      queryKey: getTaskQueryKey(config, { taskId: 1n }),
    })
    expect(options.queryKeyHashFn?.(options.queryKey)).toBe(
      `["gridforge","task",{"chainId":31337,"market":"${market}","taskId":"1"}]`,
    )
    // Receipts of a settled task never change; a caller may still say otherwise.
    expect(getReceiptQueryOptions(config, { taskId: 1n }).staleTime).toBe(Number.POSITIVE_INFINITY)
    expect(getReceiptQueryOptions(config, { taskId: 1n, query: { staleTime: 0 } }).staleTime).toBe(0)
  })
})

describe('mutation options', () => {
  it('invalidate what each write changes', () => {
    expect({
      submitTask: submitTaskInvalidates,
      cancelTask: cancelTaskInvalidates,
      deposit: depositInvalidates,
      withdraw: withdrawInvalidates,
      stake: stakeInvalidates,
      requestUnbond: requestUnbondInvalidates,
      withdrawUnbonded: withdrawUnbondedInvalidates,
      claimRewards: claimRewardsInvalidates,
    }).toEqual({
      submitTask: ['tasks', 'walletBalance', 'networkStats', 'protocolParams'],
      cancelTask: ['task', 'tasks', 'walletBalance', 'networkStats'],
      deposit: ['walletBalance'],
      withdraw: ['walletBalance'],
      stake: ['stake', 'walletBalance', 'rewards'],
      requestUnbond: ['stake', 'rewards'],
      withdrawUnbonded: ['stake', 'walletBalance'],
      claimRewards: ['rewards', 'walletBalance'],
    })
  })

  it('are keyed by the action', () => {
    const keys = [
      submitTaskMutationOptions,
      cancelTaskMutationOptions,
      depositMutationOptions,
      withdrawMutationOptions,
      stakeMutationOptions,
      requestUnbondMutationOptions,
      withdrawUnbondedMutationOptions,
      claimRewardsMutationOptions,
    ].map((options) => options(config).mutationKey)
    expect(keys).toEqual([
      ['gridforge', 'submitTask'],
      ['gridforge', 'cancelTask'],
      ['gridforge', 'deposit'],
      ['gridforge', 'withdraw'],
      ['gridforge', 'stake'],
      ['gridforge', 'requestUnbond'],
      ['gridforge', 'withdrawUnbonded'],
      ['gridforge', 'claimRewards'],
    ])
  })

  it("invalidate the named queries on every chain, then run the caller's onSuccess", async () => {
    const queryClient = new QueryClient()
    const seed = async (queryKey: readonly unknown[]) =>
      queryClient.fetchQuery({ queryKey, queryFn: async () => 1, staleTime: Number.POSITIVE_INFINITY })
    await seed(['gridforge', 'walletBalance', { chainId, account }])
    await seed(['gridforge', 'walletBalance', { chainId: 1337, account }])
    await seed(['gridforge', 'stake', { chainId, account }])
    const calls: unknown[] = []
    const options = depositMutationOptions(config, {
      mutation: { onSuccess: (data, variables) => void calls.push([data, variables]) },
    })
    const data = { amount: 1n, hash: '0x01', blockNumber: 1n } as never
    await options.onSuccess?.(data, { amount: '1' }, undefined, { client: queryClient, meta: undefined })
    const invalidated = queryClient
      .getQueryCache()
      .getAll()
      .map((query) => [
        query.queryKey[1],
        (query.queryKey[2] as { chainId: number }).chainId,
        query.state.isInvalidated,
      ])
    expect(invalidated).toEqual([
      ['walletBalance', chainId, true],
      ['walletBalance', 1337, true],
      ['stake', chainId, false],
    ])
    expect(calls).toEqual([[data, { amount: '1' }]])
  })
})
