import { describe, expect, it } from 'vitest'
import { deployment, fundedClient } from '../../test/chain.js'
import type { InvalidParametersError } from '../errors/validation.js'
import { getReputation, toReputation } from './getReputation.js'

// A reputation earned on a settled task is checked in staking/claimRewards.test.ts, which runs one.
describe('getReputation', () => {
  it('reads an address without history as zero counters and no success rate (no record)', async () => {
    const client = await fundedClient({ grid: '0' })
    expect(await getReputation(client, { deployment: deployment() })).toEqual({
      claimed: 0,
      completed: 0,
      failed: 0,
      outvoted: 0,
      totalRuntimeSec: 0,
      slashedAmount: 0n,
      successBps: 0,
      failedRuns: 0,
    })
  })

  it('computes the success rate as the registry does (rounded down; failed runs do not count)', () => {
    const struct = {
      claimed: 9,
      completed: 2,
      failed: 1,
      outvoted: 0,
      totalRuntimeSec: 120n,
      slashedAmount: 5n,
      failedRuns: 4,
    }
    expect(toReputation(struct)).toEqual({ ...struct, totalRuntimeSec: 120, successBps: 6_666 })
    expect(toReputation({ ...struct, completed: 0, failed: 0, outvoted: 3 }).successBps).toBe(0)
    expect(toReputation({ ...struct, completed: 0, failed: 0, outvoted: 0 }).successBps).toBe(0)
  })

  it('refuses a malformed provider', async () => {
    const client = await fundedClient({ grid: '0' })
    const error = await getReputation(client, { deployment: deployment(), provider: 7 as never }).catch(
      (error: unknown) => error,
    )
    expect((error as InvalidParametersError).fields).toEqual([
      { path: 'provider', message: 'expected an address: 0x followed by 40 hex digits' },
    ])
  })
})
