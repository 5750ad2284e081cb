import { waitFor } from '@testing-library/react'
import { parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import { deployment } from '../../../sdk/test/chain.js'
import { marketBalance } from '../../../sdk/test/fixtures.js'
import { testConfig } from '../../test/config.js'
import { renderWithConfig } from '../../test/render.js'
import { useDeposit } from './useDeposit.js'
import { useWalletBalance } from './useWalletBalance.js'

const grid = (amount: string) => parseUnits(amount, 18)

describe('useDeposit', () => {
  it('approves and deposits; the mounted wallet balance shows it when the mutation resolves', async () => {
    const { config, address } = await testConfig({ grid: '100' })
    const { result, queryClient } = renderWithConfig(
      () => ({ wallet: useWalletBalance(), deposit: useDeposit() }),
      { config },
    )
    await waitFor(() =>
      expect(result.current.wallet.data).toEqual({ balance: 0n, token: grid('100'), allowance: 0n }),
    )
    expect(result.current.wallet.queryKey).toEqual([
      'gridforge',
      'walletBalance',
      { chainId: 31337, market: deployment().contracts.market, account: address },
    ])

    const deposited = await result.current.deposit.mutateAsync({ amount: '50', approve: true })
    expect(deposited).toMatchObject({
      amount: grid('50'),
      approveHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    })
    // Refetched before `mutateAsync` resolved (the cache already holds it), then rendered: no refetch call here.
    const expected = { balance: grid('50'), token: grid('50'), allowance: 0n }
    const cached = queryClient.getQueryCache().find({ queryKey: result.current.wallet.queryKey, exact: true })
    expect(cached?.state.data).toEqual(expected)
    await waitFor(() => expect(result.current.wallet.data).toEqual(expected))
    expect(result.current.deposit.data?.amount).toBe(grid('50'))
    expect(await marketBalance(address)).toBe(grid('50'))

    // A bigint amount in base units; the first approval was used up, so it approves again.
    const approved = await result.current.deposit.mutateAsync({ amount: grid('5'), approve: true })
    expect(approved).toMatchObject({ amount: grid('5'), approveHash: expect.stringMatching(/^0x/) })
    await waitFor(() =>
      expect(result.current.wallet.data).toEqual({ balance: grid('55'), token: grid('45'), allowance: 0n }),
    )
  })
})
