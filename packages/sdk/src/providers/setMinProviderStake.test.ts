import { parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import { deployerClient, deployment, fundedClient } from '../../test/chain.js'
import { ContractRevertedError } from '../errors/contract.js'
import { InvalidParametersError } from '../errors/validation.js'
import { getProviderRegistryParams } from './getProviderRegistryParams.js'
import { setMinProviderStake } from './setMinProviderStake.js'

describe('setMinProviderStake', () => {
  it('sets the minimum from the owner (to the value it has: other test files register providers)', async () => {
    const owner = deployerClient()
    const { minProviderStake } = await getProviderRegistryParams(owner, { deployment: deployment() })
    expect(minProviderStake).toBe(parseUnits('100', 18))
    const result = await setMinProviderStake(owner, { deployment: deployment(), amount: '100' })
    expect(result.minProviderStake).toBe(parseUnits('100', 18))
    // The record's minimum payment follows: a thousandth of the stake floor.
    expect(result.minRecordPayment).toBe(parseUnits('0.1', 18))
  })

  it("turns a stranger's call into a typed revert", async () => {
    const stranger = await fundedClient({ grid: '0' })
    const error = await setMinProviderStake(stranger, { deployment: deployment(), amount: '1' }).catch(
      (error: unknown) => error,
    )
    expect(error).toBeInstanceOf(ContractRevertedError)
    expect((error as ContractRevertedError).errorName).toBe('OwnableUnauthorizedAccount')
    expect((error as ContractRevertedError).hint).toContain('send this from the owner')
  })

  it('refuses more than the registry allows before sending', async () => {
    const error = await setMinProviderStake(deployerClient(), {
      deployment: deployment(),
      amount: 10n ** 27n + 1n,
    }).catch((error: unknown) => error)
    expect(error).toBeInstanceOf(InvalidParametersError)
    expect((error as InvalidParametersError).fields[0]?.path).toBe('amount')
    expect((error as InvalidParametersError).fields[0]?.message).toContain('1000000000 token units')
  })
})
