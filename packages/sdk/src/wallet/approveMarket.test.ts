import { parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import { deployment, fundedClient } from '../../test/chain.js'
import { InvalidParametersError } from '../errors/validation.js'
import { approveMarket } from './approveMarket.js'
import { getWalletBalance } from './getWalletBalance.js'

describe('approveMarket', () => {
  it("sets, replaces and revokes the market's allowance", async () => {
    const client = await fundedClient()
    const result = await approveMarket(client, { deployment: deployment(), amount: '100' })
    expect(result.spender).toBe(deployment().contracts.market)
    expect(result.amount).toBe(parseUnits('100', 18))
    expect((await getWalletBalance(client, { deployment: deployment() })).allowance).toBe(
      parseUnits('100', 18),
    )
    await approveMarket(client, { deployment: deployment(), amount: 5n })
    expect((await getWalletBalance(client, { deployment: deployment() })).allowance).toBe(5n)
    const revoked = await approveMarket(client, { deployment: deployment(), amount: 0n })
    expect(revoked.amount).toBe(0n)
    expect((await getWalletBalance(client, { deployment: deployment() })).allowance).toBe(0n)
  })

  it('refuses numbers and negative amounts', async () => {
    const client = await fundedClient()
    for (const amount of [100 as never, -1n, '1e18' as never]) {
      const error = await approveMarket(client, { deployment: deployment(), amount }).catch(
        (error: unknown) => error,
      )
      expect(error).toBeInstanceOf(InvalidParametersError)
      expect((error as InvalidParametersError).fields[0]?.path).toBe('amount')
    }
  })
})
