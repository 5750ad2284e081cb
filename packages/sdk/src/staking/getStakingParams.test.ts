import { parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import { deployerClient, deployment, fundedClient } from '../../test/chain.js'
import { getStakingParams } from './getStakingParams.js'
import { stake } from './stake.js'

describe('getStakingParams', () => {
  it("reads Staking's settings and totals in one call", async () => {
    const client = await fundedClient({ grid: '25' })
    const { blockNumber } = await stake(client, { deployment: deployment(), amount: '25', permit: true })
    const before = await getStakingParams(client, { deployment: deployment(), blockNumber: blockNumber - 1n })
    const after = await getStakingParams(client, { deployment: deployment(), blockNumber })
    expect(after).toMatchObject({
      asset: deployment().contracts.token,
      market: deployment().contracts.market,
      owner: deployerClient().account.address,
      pendingOwner: undefined,
      unbondingPeriodSec: 7 * 86_400,
    })
    expect(after.totalStaked - before.totalStaked).toBe(parseUnits('25', 18))
    expect(after.totalUnbonding).toBeGreaterThanOrEqual(0n)
    expect(after.rewardsReserve).toBeGreaterThanOrEqual(0n)
    expect(after.rewardPerToken).toBeGreaterThanOrEqual(before.rewardPerToken)
  })
})
