import { describe, expect, it } from 'vitest'
import { deployment, fundedClient } from '../../test/chain.js'
import type { InvalidParametersError } from '../errors/validation.js'
import { getRewards } from './getRewards.js'
import { stake } from './stake.js'

// Earning rewards needs a settled task: see claimRewards.test.ts, which reads them before claiming.
describe('getRewards', () => {
  it('is zero without stake, and for a stake that saw no fees yet', async () => {
    const client = await fundedClient({ grid: '10' })
    expect(await getRewards(client, { deployment: deployment() })).toBe(0n)
    const { blockNumber } = await stake(client, { deployment: deployment(), amount: '10', permit: true })
    expect(
      await getRewards(client, { deployment: deployment(), account: client.account.address, blockNumber }),
    ).toBe(0n)
  })

  it('refuses a malformed account', async () => {
    const client = await fundedClient({ grid: '0' })
    const error = await getRewards(client, { deployment: deployment(), account: '0x0' as never }).catch(
      (error: unknown) => error,
    )
    expect((error as InvalidParametersError).fields[0]?.path).toBe('account')
  })
})
