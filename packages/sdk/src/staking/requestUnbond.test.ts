import { parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import { deployment, fundedClient } from '../../test/chain.js'
import { ContractRevertedError } from '../errors/contract.js'
import { InvalidParametersError } from '../errors/validation.js'
import { getStake } from './getStake.js'
import { requestUnbond } from './requestUnbond.js'
import { stake } from './stake.js'

const week = 7 * 86_400

describe('requestUnbond', () => {
  it('moves stake to unbonding until the period ends, restarting it on every request', async () => {
    const client = await fundedClient({ grid: '100' })
    await stake(client, { deployment: deployment(), amount: '100', permit: true })
    const first = await requestUnbond(client, { deployment: deployment(), amount: '30' })
    const firstBlock = await client.getBlock({ blockNumber: first.blockNumber })
    expect(first).toMatchObject({ amount: parseUnits('30', 18), totalUnbonding: parseUnits('30', 18) })
    expect(first.readyAt).toEqual(new Date((Number(firstBlock.timestamp) + week) * 1000))
    const second = await requestUnbond(client, { deployment: deployment(), amount: '20' })
    const secondBlock = await client.getBlock({ blockNumber: second.blockNumber })
    expect(second.totalUnbonding).toBe(parseUnits('50', 18))
    expect(second.readyAt).toEqual(new Date((Number(secondBlock.timestamp) + week) * 1000))
    expect(await getStake(client, { deployment: deployment() })).toEqual({
      staked: parseUnits('50', 18),
      locked: 0n,
      available: parseUnits('50', 18),
      unbonding: parseUnits('50', 18),
      unbondingReadyAt: second.readyAt,
    })
  })

  it('turns unbonding more than is available into a typed revert with a hint', async () => {
    const client = await fundedClient({ grid: '10' })
    await stake(client, { deployment: deployment(), amount: '10', permit: true })
    const error = await requestUnbond(client, { deployment: deployment(), amount: '10.5' }).catch(
      (error: unknown) => error,
    )
    expect(error).toBeInstanceOf(ContractRevertedError)
    expect((error as ContractRevertedError).errorName).toBe('StakingInsufficientAvailable')
    expect((error as ContractRevertedError).args).toEqual([
      client.account.address,
      parseUnits('10', 18),
      parseUnits('10.5', 18),
    ])
    expect((error as ContractRevertedError).hint).toBe(
      'available stake 10 GRID < 10.5 GRID needed: stake more, or wait for locked collateral to unlock',
    )
  })

  it('refuses zero and malformed amounts before sending', async () => {
    const client = await fundedClient({ grid: '0' })
    for (const amount of ['0', 'ten', 1 as never]) {
      const error = await requestUnbond(client, { deployment: deployment(), amount: amount as never }).catch(
        (error: unknown) => error,
      )
      expect(error).toBeInstanceOf(InvalidParametersError)
      expect((error as InvalidParametersError).fields[0]?.path).toBe('amount')
    }
    expect(await client.getTransactionCount({ address: client.account.address })).toBe(0)
  })
})
