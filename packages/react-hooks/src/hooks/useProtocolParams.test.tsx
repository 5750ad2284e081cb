import { DeploymentNotFoundError } from '@gridforge/contracts'
import { waitFor } from '@testing-library/react'
import { http } from 'viem'
import { localhost } from 'viem/chains'
import { describe, expect, it } from 'vitest'
import { deployerClient, deployment, devnet } from '../../../sdk/test/chain.js'
import { testConfig } from '../../test/config.js'
import { renderWithConfig } from '../../test/render.js'
import { useProtocolParams } from './useProtocolParams.js'

describe('useProtocolParams', () => {
  it("reads the market's parameters, treasury and task count", async () => {
    const { config } = await testConfig()
    const { result } = renderWithConfig(() => useProtocolParams(), { config })
    await waitFor(() => expect(result.current.isSuccess).toBe(true))
    expect(result.current.data).toEqual({
      protocolFeeBps: 500,
      stakerShareBps: 1_200,
      collateralBps: 5_000,
      slashToClientBps: 5_000,
      revealWindow: 600,
      claimGrace: 300,
      minCollateral: 0n,
      auditBps: 1_000,
      auditJoinWindow: 120,
      treasury: deployerClient().account.address,
      taskCount: expect.any(BigInt),
    })
    expect(result.current.queryKey).toEqual([
      'gridforge',
      'protocolParams',
      { chainId: 31337, market: deployment().contracts.market },
    ])
  })

  it('fails with DeploymentNotFoundError, saying to pass `deployment`, on a chain without a known deployment', async () => {
    const { config } = await testConfig({
      otherChains: [{ chain: localhost, transport: http('http://127.0.0.1:1') }],
    })
    const { result } = renderWithConfig(() => useProtocolParams({ chainId: localhost.id }), { config })
    await waitFor(() => expect(result.current.isError).toBe(true))
    const error = result.current.error
    expect(error).toBeInstanceOf(DeploymentNotFoundError)
    expect(error).toMatchObject({ name: 'DeploymentNotFoundError', chainId: 1337, knownChainIds: [31337] })
    expect(error?.message).toMatch(/^No Gridforge deployment on chain 1337\. Known chains: 31337\./)
    expect(error?.message).toContain('Pass them as `deployment`')
    // The key has no market: it is not the deployment of some other chain.
    expect(result.current.queryKey).toEqual([
      'gridforge',
      'protocolParams',
      { chainId: 1337, market: undefined },
    ])

    // Given the deployment, the same chain works (here: the test node under another chain id).
    const { config: named } = await testConfig({
      otherChains: [{ chain: localhost, transport: http(devnet().rpcUrl) }],
    })
    const passed = renderWithConfig(
      () => useProtocolParams({ chainId: localhost.id, deployment: deployment() }),
      {
        config: named,
      },
    )
    await waitFor(() => expect(passed.result.current.isSuccess).toBe(true))
    expect(passed.result.current.data?.treasury).toBe(deployerClient().account.address)
    expect(passed.result.current.queryKey).toEqual([
      'gridforge',
      'protocolParams',
      { chainId: 1337, market: deployment().contracts.market },
    ])
  })
})
