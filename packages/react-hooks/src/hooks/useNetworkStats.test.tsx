import { waitFor } from '@testing-library/react'
import { parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import { deployment } from '../../../sdk/test/chain.js'
import {
  cids,
  claim,
  publishTestSource,
  submit,
  submitFixtureTasks,
  testProvider,
} from '../../../sdk/test/fixtures.js'
import { testConfig } from '../../test/config.js'
import { renderWithConfig } from '../../test/render.js'
import { useNetworkStats } from './useNetworkStats.js'
import { useTask } from './useTask.js'

describe('useNetworkStats', () => {
  it('counts a settlement: live when a watched task settles, exactly between its block and the one before', async () => {
    const { config, client } = await testConfig()
    const sourceId = await publishTestSource({ owner: client })
    const provider = await testProvider([sourceId])
    const {
      taskIds: [taskId = 0n],
    } = await submitFixtureTasks(client, deployment(), { sourceId, maxPayment: '7' })
    await claim(provider, deployment(), taskId)

    const { result } = renderWithConfig(() => ({ stats: useNetworkStats(), task: useTask({ taskId }) }), {
      config,
    })
    await waitFor(() => {
      expect(result.current.task.data?.status).toBe('Claimed')
      expect(result.current.stats.isSuccess).toBe(true)
    })
    const before = result.current.stats.data
    if (before === undefined) throw new Error('no stats')
    expect(before.tasks).toBeGreaterThanOrEqual(taskId)
    expect(before.registeredProviders).toBeGreaterThanOrEqual(1)
    expect(before.activeProviders).toBeLessThanOrEqual(before.registeredProviders)
    expect(before.settledTasks).toBe(
      before.completedTasks + before.failedTasks + before.cancelledTasks + before.expiredTasks,
    )

    // The settlement refetches the stats through the task's watch: no refetch here.
    const settled = await submit(provider, deployment(), taskId)
    await waitFor(() =>
      expect(result.current.stats.data?.blockNumber).toBeGreaterThanOrEqual(settled.blockNumber),
    )
    const after = result.current.stats.data
    expect(after?.completedTasks).toBeGreaterThanOrEqual(before.completedTasks + 1)
    expect(after?.totalPaid).toBeGreaterThanOrEqual(before.totalPaid + parseUnits('7', 18))

    // Other files settle tasks on this chain too: between the settlement's block and the one before
    // (one transaction per block), the difference is exactly this task.
    const exact = renderWithConfig(
      () => ({
        before: useNetworkStats({ toBlock: settled.blockNumber - 1n }),
        after: useNetworkStats({ toBlock: settled.blockNumber }),
      }),
      { config },
    )
    await waitFor(() => {
      expect(exact.result.current.before.isSuccess).toBe(true)
      expect(exact.result.current.after.isSuccess).toBe(true)
    })
    const [then, now] = [exact.result.current.before.data, exact.result.current.after.data]
    if (then === undefined || now === undefined) throw new Error('no stats')
    expect(now).toEqual({
      ...then,
      openTasks: then.openTasks - 1,
      settledTasks: then.settledTasks + 1,
      completedTasks: then.completedTasks + 1,
      totalPaid: then.totalPaid + parseUnits('7', 18),
      blockNumber: settled.blockNumber,
    })
    expect(exact.result.current.after.queryKey).toEqual([
      'gridforge',
      'networkStats',
      { chainId: 31337, market: deployment().contracts.market, toBlock: settled.blockNumber },
    ])
  })

  it('counts a provider when it registers, and as inactive while paused', async () => {
    const { config, client } = await testConfig({ grid: '200' })
    await client.stake({ amount: '200', approve: true })
    const capabilities = {
      gpuCount: 1,
      vramMiB: 24_576,
      computeCapability: 89,
      cpuCores: 8,
      memoryMiB: 65_536,
    }
    const registered = await client.registerProvider({ capabilities, profile: cids.metadata })
    const paused = await client.pauseProvider()
    const { result } = renderWithConfig(
      () => ({
        before: useNetworkStats({ toBlock: registered.blockNumber - 1n }),
        registered: useNetworkStats({ toBlock: registered.blockNumber }),
        paused: useNetworkStats({ toBlock: paused.blockNumber }),
      }),
      { config },
    )
    await waitFor(() => {
      expect(result.current.before.isSuccess).toBe(true)
      expect(result.current.registered.isSuccess).toBe(true)
      expect(result.current.paused.isSuccess).toBe(true)
    })
    const before = result.current.before.data
    if (before === undefined) throw new Error('no stats')
    expect(result.current.registered.data).toMatchObject({
      registeredProviders: before.registeredProviders + 1,
      activeProviders: before.activeProviders + 1,
    })
    expect(result.current.paused.data).toMatchObject({
      registeredProviders: before.registeredProviders + 1,
      activeProviders: before.activeProviders,
    })
  })
})
