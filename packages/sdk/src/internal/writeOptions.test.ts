import { parseGwei } from 'viem'
import { describe, expect, it } from 'vitest'
import { deployment, fundedClient } from '../../test/chain.js'
import { InvalidParametersError } from '../errors/validation.js'
import { approveMarket } from '../wallet/approveMarket.js'
import { deposit } from '../wallet/deposit.js'
import { writeOptions } from './write.js'

describe('write options: gas, fees and nonce', () => {
  it('picks only the write options out of an action’s parameters', () => {
    expect(writeOptions({ gas: 1n, confirmations: 2, taskId: 7n, salt: '0x' } as never)).toEqual({
      gas: 1n,
      confirmations: 2,
    })
  })

  it('sends the transaction with the gas limit and fees given', async () => {
    const client = await fundedClient({ grid: '10' })
    await approveMarket(client, { deployment: deployment(), amount: '10' })
    const { hash } = await deposit(client, {
      deployment: deployment(),
      amount: '1',
      gas: 345_678n,
      maxFeePerGas: parseGwei('50'),
      maxPriorityFeePerGas: parseGwei('2'),
    })
    const sent = await client.getTransaction({ hash })
    expect(sent.gas).toBe(345_678n)
    expect(sent.maxFeePerGas).toBe(parseGwei('50'))
    expect(sent.maxPriorityFeePerGas).toBe(parseGwei('2'))
  })

  it('refuses overrides no transaction could carry, before anything is signed', async () => {
    const client = await fundedClient({ grid: '10' })
    const nonce = await client.getTransactionCount({ address: client.account.address })
    const refused = [{ gas: 0n }, { gasPrice: parseGwei('1'), maxFeePerGas: parseGwei('2') }, { nonce: -1 }]
    for (const overrides of refused) {
      const error = await approveMarket(client, {
        deployment: deployment(),
        amount: '1',
        ...overrides,
      }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(InvalidParametersError)
      expect((error as InvalidParametersError).fields[0]?.path).toBe(Object.keys(overrides)[0])
    }
    expect(await client.getTransactionCount({ address: client.account.address })).toBe(nonce)
  })
})
