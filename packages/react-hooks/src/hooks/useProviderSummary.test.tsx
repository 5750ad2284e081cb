import { waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { deployment } from '../../../sdk/test/chain.js'
import {
  claim,
  publishTestSource,
  submit,
  submitFixtureTasks,
  testProvider,
} from '../../../sdk/test/fixtures.js'
import { testConfig } from '../../test/config.js'
import { renderWithConfig } from '../../test/render.js'
import { useProviderSummary } from './useProviderSummary.js'

describe('useProviderSummary', () => {
  it("reads a provider's record, earnings and current tasks from the chain (no indexer configured)", async () => {
    const { config, client } = await testConfig()
    const sourceId = await publishTestSource({ owner: client })
    const provider = await testProvider([sourceId])
    const {
      taskIds: [done = 0n, running = 0n],
    } = await submitFixtureTasks(client, deployment(), { sourceId, count: 2 })
    await claim(provider, deployment(), done)
    await submit(provider, deployment(), done, { runtimeSec: 10 })
    await claim(provider, deployment(), running)

    const { result } = renderWithConfig(() => useProviderSummary({ provider: provider.account.address }), {
      config,
    })
    await waitFor(() => expect(result.current.isSuccess).toBe(true))
    expect(result.current.data).toMatchObject({
      provider: provider.account.address,
      registered: true,
      capabilities: { gpuCount: 1, vramMiB: 24_576, computeCapability: 89 },
      record: { claimed: 2, completed: 1, successBps: 10_000 },
      readFrom: 'chain',
    })
    expect(result.current.data?.earnings.paid).toBeGreaterThan(0n)
    expect(result.current.data?.currentTasks.map((task) => task.taskId)).toEqual([running])
    expect(result.current.queryKey).toEqual([
      'gridforge',
      'providerSummary',
      { chainId: 31337, market: deployment().contracts.market, provider: provider.account.address },
    ])
  })
})
