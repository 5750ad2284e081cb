import { describe, expect, it } from 'vitest'
import { deployerClient, deployment, fundedClient } from '../../test/chain.js'
import { ContractRevertedError } from '../errors/contract.js'
import { InvalidParametersError } from '../errors/validation.js'
import { getStakingParams } from './getStakingParams.js'
import { setUnbondingPeriod } from './setUnbondingPeriod.js'

describe('setUnbondingPeriod', () => {
  it('sets the period from the owner (to the value it has: other test files rely on it)', async () => {
    const owner = deployerClient()
    const { unbondingPeriodSec } = await getStakingParams(owner, { deployment: deployment() })
    expect(unbondingPeriodSec).toBe(7 * 86_400)
    const result = await setUnbondingPeriod(owner, { deployment: deployment(), period: '7d' })
    expect(result.unbondingPeriodSec).toBe(7 * 86_400)
    expect(result.hash).toMatch(/^0x[0-9a-f]{64}$/)
  })

  it("turns a stranger's call into a typed revert naming the owner problem", async () => {
    const stranger = await fundedClient({ grid: '0' })
    const error = await setUnbondingPeriod(stranger, { deployment: deployment(), period: '1d' }).catch(
      (error: unknown) => error,
    )
    expect(error).toBeInstanceOf(ContractRevertedError)
    expect((error as ContractRevertedError).errorName).toBe('OwnableUnauthorizedAccount')
    expect((error as ContractRevertedError).args).toEqual([stranger.account.address])
    expect((error as ContractRevertedError).hint).toContain('is not the owner of the contract')
  })

  it('refuses periods outside 1h to 60d before sending', async () => {
    const owner = deployerClient()
    for (const period of ['59m', '61d', 'soon'] as const) {
      const error = await setUnbondingPeriod(owner, {
        deployment: deployment(),
        period: period as never,
      }).catch((error: unknown) => error)
      expect(error).toBeInstanceOf(InvalidParametersError)
      expect((error as InvalidParametersError).fields[0]?.path).toBe('period')
    }
  })
})
