import { waitFor } from '@testing-library/react'
import { connect } from '@wagmi/core'
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
import { useProvider } from './useProvider.js'

describe('useProvider', () => {
  it("reads a registered provider's profile and reputation", async () => {
    const { config, client } = await testConfig()
    const sourceId = await publishTestSource({ owner: client })
    const provider = await testProvider([sourceId])
    const {
      taskIds: [taskId = 0n],
    } = await submitFixtureTasks(client, deployment(), { sourceId })
    await claim(provider, deployment(), taskId)
    await submit(provider, deployment(), taskId, { runtimeSec: 42 })

    const { result } = renderWithConfig(() => useProvider({ provider: provider.account.address }), { config })
    await waitFor(() => expect(result.current.isSuccess).toBe(true))
    expect(result.current.data).toEqual({
      provider: provider.account.address,
      registered: true,
      paused: false,
      registeredAt: expect.any(Date),
      capabilities: { gpuCount: 1, vramMiB: 24_576, computeCapability: 89, cpuCores: 8, memoryMiB: 65_536 },
      reputation: {
        claimed: 1,
        completed: 1,
        failed: 0,
        outvoted: 0,
        // The market counts at most the time since the claim.
        totalRuntimeSec: expect.any(Number),
        slashedAmount: 0n,
        successBps: 10_000,
        failedRuns: 0,
      },
    })
    expect(result.current.data?.reputation.totalRuntimeSec).toBeGreaterThanOrEqual(1)
    expect(result.current.data?.reputation.totalRuntimeSec).toBeLessThanOrEqual(42)
    expect(result.current.queryKey).toEqual([
      'gridforge',
      'provider',
      { chainId: 31337, market: deployment().contracts.market, provider: provider.account.address },
    ])
  })

  it('defaults to the connected account, and waits for one', async () => {
    const { config, connector, address } = await testConfig({ grid: '0', connected: false })
    const { result } = renderWithConfig(() => useProvider(), { config })
    expect(result.current.fetchStatus).toBe('idle')
    expect(result.current.queryKey[2]).toEqual({ chainId: 31337, market: deployment().contracts.market })

    await connect(config, { connector })
    await waitFor(() => expect(result.current.isSuccess).toBe(true))
    expect(result.current.data).toMatchObject({
      provider: address,
      registered: false,
      registeredAt: undefined,
    })
  })
})
