import { parseUnits, zeroAddress } from 'viem'
import { describe, expect, it } from 'vitest'
import { deployment, fundedClient } from '../../test/chain.js'
import { ContractRevertedError } from '../errors/contract.js'
import { InvalidParametersError } from '../errors/validation.js'
import { deposit } from './deposit.js'
import { getWalletBalance } from './getWalletBalance.js'
import { withdraw } from './withdraw.js'

describe('withdraw', () => {
  it('withdraws to the account, or to another address', async () => {
    const client = await fundedClient({ grid: '50' })
    const friend = await fundedClient({ grid: '0' })
    await deposit(client, { deployment: deployment(), amount: '50', permit: true })
    const own = await withdraw(client, { deployment: deployment(), amount: '20' })
    expect(own).toMatchObject({ amount: parseUnits('20', 18), to: client.account.address })
    const sent = await withdraw(client, { deployment: deployment(), amount: '5', to: friend.account.address })
    expect(sent).toMatchObject({ amount: parseUnits('5', 18), to: friend.account.address })
    expect(await getWalletBalance(client, { deployment: deployment() })).toMatchObject({
      balance: parseUnits('25', 18),
      token: parseUnits('20', 18),
    })
    expect(
      (await getWalletBalance(client, { deployment: deployment(), account: friend.account.address })).token,
    ).toBe(parseUnits('5', 18))
  })

  it('turns an overdraft into a typed revert with a hint', async () => {
    const client = await fundedClient({ grid: '10' })
    await deposit(client, { deployment: deployment(), amount: '2', permit: true })
    const error = await withdraw(client, { deployment: deployment(), amount: '3' }).catch(
      (error: unknown) => error,
    )
    expect(error).toBeInstanceOf(ContractRevertedError)
    expect((error as ContractRevertedError).errorName).toBe('TaskMarketInsufficientBalance')
    expect((error as ContractRevertedError).args).toEqual([
      client.account.address,
      parseUnits('2', 18),
      parseUnits('3', 18),
    ])
    expect((error as ContractRevertedError).hint).toContain('balance 2 GRID < 3 GRID needed')
  })

  it('refuses zero amounts and the zero address before sending', async () => {
    const client = await fundedClient({ grid: '0' })
    const error = await withdraw(client, { deployment: deployment(), amount: 0n }).catch(
      (error: unknown) => error,
    )
    expect((error as InvalidParametersError).fields).toEqual([
      { path: 'amount', message: 'must be greater than zero' },
    ])
    const burn = await withdraw(client, { deployment: deployment(), amount: 1n, to: zeroAddress }).catch(
      (error: unknown) => error,
    )
    expect(burn).toBeInstanceOf(InvalidParametersError)
    expect((burn as InvalidParametersError).fields[0]?.path).toBe('to')
    expect(await client.getTransactionCount({ address: client.account.address })).toBe(0)
  })
})
