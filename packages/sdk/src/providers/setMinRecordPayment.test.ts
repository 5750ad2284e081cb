import { parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import { deployerClient, deployment, fundedClient } from '../../test/chain.js'
import { ContractRevertedError } from '../errors/contract.js'
import { InvalidParametersError } from '../errors/validation.js'
import { getProviderRegistryParams } from './getProviderRegistryParams.js'
import { setMinRecordPayment } from './setMinRecordPayment.js'

describe('setMinRecordPayment', () => {
  it('sets the minimum from the owner (to the value it has: other test files count completions)', async () => {
    const owner = deployerClient()
    const { minRecordPayment } = await getProviderRegistryParams(owner, { deployment: deployment() })
    expect(minRecordPayment).toBe(parseUnits('0.1', 18))
    const result = await setMinRecordPayment(owner, { deployment: deployment(), amount: '0.1' })
    expect(result.minRecordPayment).toBe(parseUnits('0.1', 18))
    expect(result.hash).toMatch(/^0x[0-9a-f]{64}$/)
  })

  it("turns a stranger's call into a typed revert", async () => {
    const stranger = await fundedClient({ grid: '0' })
    const error = await setMinRecordPayment(stranger, { deployment: deployment(), amount: '1' }).catch(
      (error: unknown) => error,
    )
    expect(error).toBeInstanceOf(ContractRevertedError)
    expect((error as ContractRevertedError).errorName).toBe('OwnableUnauthorizedAccount')
    expect((error as ContractRevertedError).hint).toContain('send this from the owner')
  })

  it('refuses more than the registry allows before sending', async () => {
    const error = await setMinRecordPayment(deployerClient(), {
      deployment: deployment(),
      amount: 10n ** 27n + 1n,
    }).catch((error: unknown) => error)
    expect(error).toBeInstanceOf(InvalidParametersError)
    expect((error as InvalidParametersError).fields[0]?.path).toBe('amount')
    expect((error as InvalidParametersError).fields[0]?.message).toContain('1000000000 token units')
  })
})
