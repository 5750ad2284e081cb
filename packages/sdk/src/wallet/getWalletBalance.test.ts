import { createPublicClient, parseUnits } from 'viem'
import { hardhat } from 'viem/chains'
import { describe, expect, it } from 'vitest'
import { deployment, fundedClient, transport } from '../../test/chain.js'
import { InvalidParametersError } from '../errors/validation.js'
import { approveMarket } from './approveMarket.js'
import { deposit } from './deposit.js'
import { getWalletBalance } from './getWalletBalance.js'

describe('getWalletBalance', () => {
  it('reads the market balance, the token balance and the allowance in one call', async () => {
    const client = await fundedClient({ grid: '30' })
    expect(await getWalletBalance(client, { deployment: deployment() })).toEqual({
      balance: 0n,
      token: parseUnits('30', 18),
      allowance: 0n,
    })
    await approveMarket(client, { deployment: deployment(), amount: '25' })
    const { blockNumber } = await deposit(client, { deployment: deployment(), amount: '10' })
    const other = await fundedClient({ grid: '0' })
    // Anyone's balances can be read, at any block.
    expect(
      await getWalletBalance(other, { deployment: deployment(), account: client.account.address }),
    ).toEqual({
      balance: parseUnits('10', 18),
      token: parseUnits('20', 18),
      allowance: parseUnits('15', 18),
    })
    expect(
      await getWalletBalance(other, {
        deployment: deployment(),
        account: client.account.address,
        blockNumber: blockNumber - 1n,
      }),
    ).toEqual({ balance: 0n, token: parseUnits('30', 18), allowance: parseUnits('25', 18) })
  })

  it("needs an account: a parameter or the client's", async () => {
    const client = await fundedClient({ grid: '0' })
    const bad = await getWalletBalance(client, { deployment: deployment(), account: '0x12' as never }).catch(
      (error: unknown) => error,
    )
    expect((bad as InvalidParametersError).fields[0]?.path).toBe('account')
    const publicClient = createPublicClient({ chain: hardhat, transport: transport() })
    const none = await getWalletBalance(publicClient, { deployment: deployment() }).catch(
      (error: unknown) => error,
    )
    expect(none).toBeInstanceOf(InvalidParametersError)
    expect((none as InvalidParametersError).fields).toEqual([
      { path: 'account', message: 'pass an address, or use a client with an account' },
    ])
  })
})
