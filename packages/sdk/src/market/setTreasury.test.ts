import { zeroAddress } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { deployerClient, deployment, devnet, fundedClient } from '../../test/chain.js'
import { rejection } from '../../test/fixtures.js'
import type { ContractRevertedError } from '../errors/contract.js'
import { InvalidParametersError } from '../errors/validation.js'
import { getProtocolParams } from './getProtocolParams.js'
import { setTreasury } from './setTreasury.js'

describe('setTreasury', () => {
  it('changes the treasury (and changes it back)', async () => {
    const owner = deployerClient()
    const { treasury } = await getProtocolParams(owner, { deployment: deployment() })
    const next = privateKeyToAccount(devnet().privateKeys[9]!).address
    try {
      const result = await setTreasury(owner, { deployment: deployment(), treasury: next })
      expect(result.treasury).toBe(next)
      expect((await getProtocolParams(owner, { deployment: deployment() })).treasury).toBe(next)
    } finally {
      await setTreasury(owner, { deployment: deployment(), treasury })
    }
  })

  it('refuses the zero address before sending, and a non-owner on chain', async () => {
    const stranger = await fundedClient({ grid: '0' })
    const zero = await rejection(setTreasury(stranger, { deployment: deployment(), treasury: zeroAddress }))
    expect(zero).toBeInstanceOf(InvalidParametersError)
    expect((zero as InvalidParametersError).fields).toEqual([
      { path: 'treasury', message: 'must not be the zero address' },
    ])
    const error = (await rejection(
      setTreasury(stranger, { deployment: deployment(), treasury: stranger.account.address }),
    )) as ContractRevertedError
    expect(error.errorName).toBe('OwnableUnauthorizedAccount')
  })
})
