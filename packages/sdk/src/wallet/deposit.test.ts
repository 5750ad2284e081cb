import { parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import { deployment, fundedClient } from '../../test/chain.js'
import { ContractRevertedError } from '../errors/contract.js'
import { InvalidParametersError } from '../errors/validation.js'
import { approveMarket } from './approveMarket.js'
import { deposit } from './deposit.js'
import { getWalletBalance } from './getWalletBalance.js'
import { signPermit } from './signPermit.js'

describe('deposit', () => {
  it('deposits from an existing allowance', async () => {
    const client = await fundedClient({ grid: '50' })
    await approveMarket(client, { deployment: deployment(), amount: '50' })
    const result = await deposit(client, { deployment: deployment(), amount: '20.5' })
    expect(result.amount).toBe(parseUnits('20.5', 18))
    expect(result.approveHash).toBeUndefined()
    expect(await getWalletBalance(client, { deployment: deployment() })).toEqual({
      balance: parseUnits('20.5', 18),
      token: parseUnits('29.5', 18),
      allowance: parseUnits('29.5', 18),
    })
  })

  it('approves first with approve: true when the allowance is short (two transactions)', async () => {
    const client = await fundedClient({ grid: '50' })
    const result = await deposit(client, { deployment: deployment(), amount: '30', approve: true })
    expect(result.approveHash).toMatch(/^0x[0-9a-f]{64}$/)
    expect(await client.getTransactionCount({ address: client.account.address })).toBe(2)
    expect((await getWalletBalance(client, { deployment: deployment() })).balance).toBe(parseUnits('30', 18))
    // Enough allowance left: no second approval.
    await approveMarket(client, { deployment: deployment(), amount: '20' })
    const again = await deposit(client, { deployment: deployment(), amount: '20', approve: true })
    expect(again.approveHash).toBeUndefined()
  })

  it('deposits in one transaction with permit: true', async () => {
    const client = await fundedClient({ grid: '50' })
    const result = await deposit(client, { deployment: deployment(), amount: '40', permit: true })
    expect(result.amount).toBe(parseUnits('40', 18))
    expect(await client.getTransactionCount({ address: client.account.address })).toBe(1)
    expect(await getWalletBalance(client, { deployment: deployment() })).toEqual({
      balance: parseUnits('40', 18),
      token: parseUnits('10', 18),
      allowance: 0n,
    })
  })

  it('uses a permit signed earlier, and refuses one for another spender, amount or owner', async () => {
    const client = await fundedClient({ grid: '50' })
    const { contracts } = deployment()
    const permit = await signPermit(client, {
      deployment: deployment(),
      spender: contracts.market,
      amount: '5',
    })
    const result = await deposit(client, { deployment: deployment(), amount: '5', permit })
    expect(result.amount).toBe(parseUnits('5', 18))
    const other = await fundedClient({ grid: '0' })
    const wrong = await deposit(other, {
      deployment: deployment(),
      amount: '6',
      permit: await signPermit(client, { deployment: deployment(), spender: contracts.staking, amount: '5' }),
    }).catch((error: unknown) => error)
    expect(wrong).toBeInstanceOf(InvalidParametersError)
    expect((wrong as InvalidParametersError).fields.map((field) => field.path)).toEqual([
      'permit.owner',
      'permit.spender',
      'permit.value',
    ])
  })

  it('turns a deposit without allowance into a typed revert with a hint', async () => {
    const client = await fundedClient({ grid: '50' })
    const error = await deposit(client, { deployment: deployment(), amount: '5' }).catch(
      (error: unknown) => error,
    )
    expect(error).toBeInstanceOf(ContractRevertedError)
    const reverted = error as ContractRevertedError
    expect(reverted.errorName).toBe('ERC20InsufficientAllowance')
    expect(reverted.args).toEqual([deployment().contracts.market, 0n, parseUnits('5', 18)])
    expect(reverted.hint).toContain('approve: true')
  })

  it('turns a deposit beyond the wallet into a typed revert', async () => {
    const client = await fundedClient({ grid: '1' })
    const error = await deposit(client, { deployment: deployment(), amount: '2', permit: true }).catch(
      (error: unknown) => error,
    )
    expect((error as ContractRevertedError).errorName).toBe('ERC20InsufficientBalance')
    expect((error as ContractRevertedError).hint).toBe(
      `token balance of ${client.account.address} is 1 GRID < 2 GRID needed: get more GRID first`,
    )
  })

  it('names bad parameters before sending anything', async () => {
    const client = await fundedClient({ grid: '50' })
    const zero = await deposit(client, { deployment: deployment(), amount: '0' }).catch(
      (error: unknown) => error,
    )
    expect((zero as InvalidParametersError).fields).toEqual([
      { path: 'amount', message: 'must be greater than zero' },
    ])
    const both = await deposit(client, {
      deployment: deployment(),
      amount: '1',
      permit: true,
      approve: true,
    }).catch((error: unknown) => error)
    expect((both as InvalidParametersError).fields[0]?.path).toBe('approve')
    const junk = await deposit(client, {
      deployment: deployment(),
      amount: '1',
      permit: 'yes' as never,
    }).catch((error: unknown) => error)
    expect((junk as InvalidParametersError).fields[0]?.path).toBe('permit')
    expect(await client.getTransactionCount({ address: client.account.address })).toBe(0)
  })
})
