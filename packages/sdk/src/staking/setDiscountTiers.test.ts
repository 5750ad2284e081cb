import { parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import { deployerClient, deployment, fundedClient } from '../../test/chain.js'
import type { ContractRevertedError } from '../errors/contract.js'
import { InvalidParametersError } from '../errors/validation.js'
import { getDiscountTiers } from './getDiscountTiers.js'
import { getFeeDiscount } from './getFeeDiscount.js'
import { setDiscountTiers } from './setDiscountTiers.js'
import { stake } from './stake.js'

// The tiers are global: setDiscountTiers, getDiscountTiers and getFeeDiscount are tested here, in one file
// (tests in a file run in order), with tiers far above any other test account's stake, and removed at the end.
describe('setDiscountTiers, getDiscountTiers, getFeeDiscount', () => {
  it('sets tiers that give stakers a fee discount, then removes them', async () => {
    const owner = deployerClient()
    const client = await fundedClient({ grid: '1500000' })
    expect(await getDiscountTiers(client, { deployment: deployment() })).toEqual([])
    expect(await getFeeDiscount(client, { deployment: deployment() })).toBe(0)
    try {
      const tiers = [
        { minStake: parseUnits('1000000', 18), discountBps: 1_000 },
        { minStake: parseUnits('2000000', 18), discountBps: 2_500 },
      ]
      const result = await setDiscountTiers(owner, {
        deployment: deployment(),
        tiers: [
          { minStake: '1000000', discountBps: 1_000 },
          { minStake: '2000000', discountBps: 2_500 },
        ],
      })
      expect(result.tiers).toEqual(tiers)
      expect(await getDiscountTiers(client, { deployment: deployment() })).toEqual(tiers)
      await stake(client, { deployment: deployment(), amount: '999999', permit: true })
      expect(await getFeeDiscount(client, { deployment: deployment() })).toBe(0)
      await stake(client, { deployment: deployment(), amount: '1', permit: true })
      expect(await getFeeDiscount(owner, { deployment: deployment(), account: client.account.address })).toBe(
        1_000,
      )
      expect(
        await getFeeDiscount(client, { deployment: deployment(), blockNumber: result.blockNumber }),
      ).toBe(0)
    } finally {
      const removed = await setDiscountTiers(owner, { deployment: deployment(), tiers: [] })
      expect(removed.tiers).toEqual([])
    }
    expect(await getDiscountTiers(client, { deployment: deployment() })).toEqual([])
    expect(await getFeeDiscount(client, { deployment: deployment() })).toBe(0)
  })

  it('names every rule a tier list breaks before sending', async () => {
    const owner = deployerClient()
    const error = await setDiscountTiers(owner, {
      deployment: deployment(),
      tiers: [
        { minStake: '100', discountBps: 2_000 },
        { minStake: '100', discountBps: 1_000 },
        { minStake: '0', discountBps: 5_001 },
      ],
    }).catch((error: unknown) => error)
    expect(error).toBeInstanceOf(InvalidParametersError)
    expect((error as InvalidParametersError).fields.map((field) => field.path)).toEqual([
      'tiers.2.minStake',
      'tiers.2.discountBps',
    ])
    const order = await setDiscountTiers(owner, {
      deployment: deployment(),
      tiers: [
        { minStake: '100', discountBps: 2_000 },
        { minStake: '100', discountBps: 1_000 },
      ],
    }).catch((error: unknown) => error)
    expect((order as InvalidParametersError).fields).toEqual([
      { path: 'tiers.1.minStake', message: "must be above the previous tier's minStake" },
      { path: 'tiers.1.discountBps', message: "must not be below the previous tier's discountBps" },
    ])
    const tooMany = await setDiscountTiers(owner, {
      deployment: deployment(),
      tiers: Array.from({ length: 9 }, (_, index) => ({ minStake: BigInt(index + 1), discountBps: 10 })),
    }).catch((error: unknown) => error)
    expect((tooMany as InvalidParametersError).fields).toEqual([
      { path: 'tiers', message: 'at most 8 tiers' },
    ])
  })

  it("turns a stranger's call into a typed revert", async () => {
    const stranger = await fundedClient({ grid: '0' })
    const error = await setDiscountTiers(stranger, { deployment: deployment(), tiers: [] }).catch(
      (error: unknown) => error,
    )
    expect((error as ContractRevertedError).errorName).toBe('OwnableUnauthorizedAccount')
  })

  it('refuses a malformed account for getFeeDiscount', async () => {
    const client = await fundedClient({ grid: '0' })
    const error = await getFeeDiscount(client, { deployment: deployment(), account: 'x' as never }).catch(
      (error: unknown) => error,
    )
    expect((error as InvalidParametersError).fields[0]?.path).toBe('account')
  })
})
