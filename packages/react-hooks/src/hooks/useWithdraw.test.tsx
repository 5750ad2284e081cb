import { waitFor } from '@testing-library/react'
import { parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import { tokenBalance } from '../../../sdk/test/fixtures.js'
import { testConfig } from '../../test/config.js'
import { renderWithConfig } from '../../test/render.js'
import { useDeposit } from './useDeposit.js'
import { useWalletBalance } from './useWalletBalance.js'
import { useWithdraw } from './useWithdraw.js'

const grid = (amount: string) => parseUnits(amount, 18)

describe('useWithdraw', () => {
  it('withdraws to the account, or to another; both mounted balances show it when the mutation resolves', async () => {
    const { config } = await testConfig({ grid: '100' })
    const recipient = await testConfig({ grid: '0', connected: false })
    const { result, queryClient } = renderWithConfig(
      () => ({
        wallet: useWalletBalance(),
        recipient: useWalletBalance({ account: recipient.address }),
        deposit: useDeposit(),
        withdraw: useWithdraw(),
      }),
      { config },
    )
    await result.current.deposit.mutateAsync({ amount: '60', approve: true })
    await waitFor(() =>
      expect(result.current.wallet.data).toEqual({ balance: grid('60'), token: grid('40'), allowance: 0n }),
    )
    expect(result.current.recipient.data).toEqual({ balance: 0n, token: 0n, allowance: 0n })

    const withdrawn = await result.current.withdraw.mutateAsync({ amount: '25' })
    expect(withdrawn.amount).toBe(grid('25'))
    const expected = { balance: grid('35'), token: grid('65'), allowance: 0n }
    expect(
      queryClient.getQueryCache().find({ queryKey: result.current.wallet.queryKey, exact: true })?.state.data,
    ).toEqual(expected)
    await waitFor(() => expect(result.current.wallet.data).toEqual(expected))

    const sent = await result.current.withdraw.mutateAsync({ amount: '10', to: recipient.address })
    expect(sent).toMatchObject({ amount: grid('10'), to: recipient.address })
    await waitFor(() => {
      expect(result.current.wallet.data).toEqual({ balance: grid('25'), token: grid('65'), allowance: 0n })
      expect(result.current.recipient.data).toEqual({ balance: 0n, token: grid('10'), allowance: 0n })
    })
    expect(await tokenBalance(recipient.address)).toBe(grid('10'))
  })
})
