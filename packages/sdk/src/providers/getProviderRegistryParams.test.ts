import { parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import { deployerClient, deployment, fundedClient } from '../../test/chain.js'
import { getProviderRegistryParams } from './getProviderRegistryParams.js'

describe('getProviderRegistryParams', () => {
  it("reads the registry's settings in one call", async () => {
    const client = await fundedClient({ grid: '0' })
    expect(await getProviderRegistryParams(client, { deployment: deployment() })).toEqual({
      minProviderStake: parseUnits('100', 18),
      // A thousandth of the stake floor, the default.
      minRecordPayment: parseUnits('0.1', 18),
      market: deployment().contracts.market,
      owner: deployerClient().account.address,
      pendingOwner: undefined,
    })
  })
})
