import { waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { deployment } from '../../../sdk/test/chain.js'
import { cids, publishTestSource, randomBytes32 } from '../../../sdk/test/fixtures.js'
import { testConfig } from '../../test/config.js'
import { renderWithConfig } from '../../test/render.js'
import { useSource } from './useSource.js'
import { useSources } from './useSources.js'

describe('useSource', () => {
  it('reads a source the test published', async () => {
    const { config, client, address } = await testConfig()
    const imageDigest = randomBytes32()
    const sourceId = await publishTestSource({
      owner: client,
      imageDigest,
      metadata: cids.metadata,
      creatorFeeBps: 250,
      maxRuntimeSec: 600,
    })
    const { result } = renderWithConfig(() => useSource({ sourceId }), { config })
    await waitFor(() => expect(result.current.isSuccess).toBe(true))
    expect(result.current.data).toEqual({
      sourceId,
      owner: address,
      active: true,
      publishedAt: expect.any(Date),
      imageDigest,
      metadata: cids.metadata,
      requirements: {
        minGpus: 0,
        minVramMiB: 0,
        minComputeCapability: 0,
        maxRuntimeSec: 600,
        deterministic: false,
      },
      creatorFeeBps: 250,
      predecessor: undefined,
      failureFeeBps: 0,
      validator: undefined,
    })
    expect(result.current.queryKey).toEqual([
      'gridforge',
      'source',
      { chainId: 31337, market: deployment().contracts.market, sourceId },
    ])
  })

  it('stays idle without a source id', async () => {
    const { config } = await testConfig({ grid: '0' })
    const { result } = renderWithConfig(() => useSource(), { config })
    expect(result.current.status).toBe('pending')
    expect(result.current.fetchStatus).toBe('idle')
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(result.current.fetchStatus).toBe('idle')
  })
})

describe('useSources', () => {
  it("lists active sources, and an owner's, with a deactivated one only among the inactive", async () => {
    const { config, client, address } = await testConfig()
    const kept = await publishTestSource({ owner: client })
    const dropped = await publishTestSource({ owner: client })
    await client.deactivateSource({ sourceId: dropped })

    const { result } = renderWithConfig(
      () => ({
        active: useSources({ active: true }),
        mine: useSources({ owner: address }),
        inactive: useSources({ owner: address, active: false }),
      }),
      { config },
    )
    await waitFor(() => {
      expect(result.current.active.isSuccess).toBe(true)
      expect(result.current.mine.isSuccess).toBe(true)
      expect(result.current.inactive.isSuccess).toBe(true)
    })
    const active = result.current.active.data ?? []
    expect(active.find((source) => source.sourceId === kept)).toMatchObject({ owner: address, active: true })
    expect(active.map((source) => source.sourceId)).not.toContain(dropped)
    expect(active.every((source) => source.active)).toBe(true)
    expect(result.current.mine.data?.map((source) => [source.sourceId, source.active])).toEqual([
      [kept, true],
      [dropped, false],
    ])
    expect(result.current.inactive.data?.map((source) => source.sourceId)).toEqual([dropped])
    expect(result.current.active.queryKey).toEqual([
      'gridforge',
      'sources',
      { chainId: 31337, market: deployment().contracts.market, active: true },
    ])
  })
})
