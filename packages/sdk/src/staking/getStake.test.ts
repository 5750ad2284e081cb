import { parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import { deployment, fundedClient } from '../../test/chain.js'
import { InvalidParametersError } from '../errors/validation.js'
import { getStake } from './getStake.js'
import { requestUnbond } from './requestUnbond.js'
import { stake } from './stake.js'

describe('getStake', () => {
  it("reads anyone's position, now or at an earlier block", async () => {
    const client = await fundedClient({ grid: '40' })
    const reader = await fundedClient({ grid: '0' })
    expect(await getStake(reader, { deployment: deployment(), account: client.account.address })).toEqual({
      staked: 0n,
      locked: 0n,
      available: 0n,
      unbonding: 0n,
      unbondingReadyAt: undefined,
    })
    const staked = await stake(client, { deployment: deployment(), amount: '40', permit: true })
    const { readyAt } = await requestUnbond(client, { deployment: deployment(), amount: '15' })
    expect(await getStake(reader, { deployment: deployment(), account: client.account.address })).toEqual({
      staked: parseUnits('25', 18),
      locked: 0n,
      available: parseUnits('25', 18),
      unbonding: parseUnits('15', 18),
      unbondingReadyAt: readyAt,
    })
    const before = await getStake(reader, {
      deployment: deployment(),
      account: client.account.address,
      blockNumber: staked.blockNumber,
    })
    expect(before).toMatchObject({ staked: parseUnits('40', 18), unbonding: 0n, unbondingReadyAt: undefined })
  })

  it('refuses a malformed account', async () => {
    const client = await fundedClient({ grid: '0' })
    const error = await getStake(client, { deployment: deployment(), account: 'me' as never }).catch(
      (error: unknown) => error,
    )
    expect(error).toBeInstanceOf(InvalidParametersError)
    expect((error as InvalidParametersError).fields.map((field) => field.path)).toEqual(['account'])
  })
})
