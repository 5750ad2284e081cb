import { hashTypedData, recoverTypedDataAddress } from 'viem'
import { describe, expect, it } from 'vitest'
import { InvalidParametersError } from '../errors/validation.js'
import { createLeaseSessionKey } from './createLeaseSessionKey.js'
import { signUsage } from './signUsage.js'
import { usageDomain, usageTypes } from './usage.js'

const leaseMarket = '0x5FbDB2315678afecb367f032d93F642f64180aa3'

describe('signUsage', () => {
  it('signs Usage(leaseId, servedSec, at) in the lease market domain with the session key', async () => {
    const key = createLeaseSessionKey()
    const message = { leaseId: 7n, servedSec: 540, at: 1_800_000_600 }
    const signature = await signUsage({ account: key.account, chainId: 31337, leaseMarket, ...message })
    const typedData = {
      domain: usageDomain({ chainId: 31337, leaseMarket }),
      types: usageTypes,
      primaryType: 'Usage',
      message,
    } as const
    expect(await recoverTypedDataAddress({ ...typedData, signature })).toBe(key.address)
    // The domain the contract's EIP712("Gridforge LeaseMarket", "1") uses.
    expect(typedData.domain).toEqual({
      name: 'Gridforge LeaseMarket',
      version: '1',
      chainId: 31337,
      verifyingContract: leaseMarket,
    })
    expect(hashTypedData(typedData)).toMatch(/^0x[0-9a-f]{64}$/)
  })

  it('refuses what a uint40 cannot hold', async () => {
    const key = createLeaseSessionKey()
    await expect(
      signUsage({ account: key.account, chainId: 1, leaseMarket, leaseId: 7n, servedSec: -1, at: 2 ** 40 }),
    ).rejects.toThrow(InvalidParametersError)
  })
})
