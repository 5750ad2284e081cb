import { getDeployment } from '@gridforge/contracts'
import { createConfig, http } from '@wagmi/core'
import { hardhat } from 'viem/chains'
import { describe, expect, it } from 'vitest'
import { closeLeaseInvalidates, closeLeaseMutationOptions } from './closeLease.js'
import { extendLeaseMutationOptions } from './extendLease.js'
import { getLeaseQueryKey, getLeaseQueryOptions } from './getLease.js'
import { getLeaseCostQueryKey, getLeaseCostQueryOptions } from './getLeaseCost.js'
import { listLeasesQueryKey, listLeasesQueryOptions } from './listLeases.js'
import { requestLeaseInvalidates, requestLeaseMutationOptions } from './requestLease.js'
import { topUpLeaseInvalidates, topUpLeaseMutationOptions } from './topUpLease.js'

// Keys and options are built without the chain: the transport is never called.
const config = createConfig({
  chains: [hardhat],
  transports: { [hardhat.id]: http('http://127.0.0.1:1') },
  storage: null,
  multiInjectedProviderDiscovery: false,
})
const market = getDeployment(31337).contracts.market

describe('lease queries', () => {
  it('key a lease by its id as a bigint, so events (bigints) match what components passed', () => {
    expect(getLeaseQueryKey(config, { leaseId: 7 })).toEqual([
      'gridforge',
      'lease',
      { chainId: 31337, market, leaseId: 7n },
    ])
    expect(getLeaseCostQueryKey(config, { leaseId: '7' as never })).toEqual([
      'gridforge',
      'leaseCost',
      { chainId: 31337, market, leaseId: 7n },
    ])
    expect(
      listLeasesQueryKey(config, { renter: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', status: 'Active' }),
    ).toEqual([
      'gridforge',
      'leases',
      { chainId: 31337, market, renter: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', status: 'Active' },
    ])
  })

  it('stay disabled until the lease id is set; a list needs nothing', () => {
    expect(getLeaseQueryOptions(config).enabled).toBe(false)
    expect(getLeaseCostQueryOptions(config, { leaseId: 7n }).enabled).toBe(true)
    expect(listLeasesQueryOptions(config).enabled).toBeUndefined()
  })

  it('mutations name themselves and what they refresh', () => {
    expect(requestLeaseMutationOptions(config).mutationKey).toEqual(['gridforge', 'requestLease'])
    expect(topUpLeaseMutationOptions(config).mutationKey).toEqual(['gridforge', 'topUpLease'])
    expect(extendLeaseMutationOptions(config).mutationKey).toEqual(['gridforge', 'extendLease'])
    expect(closeLeaseMutationOptions(config).mutationKey).toEqual(['gridforge', 'closeLease'])
    expect(requestLeaseInvalidates).toEqual(['leases', 'walletBalance'])
    expect(topUpLeaseInvalidates).toContain('leaseCost')
    expect(closeLeaseInvalidates).toEqual(['lease', 'leaseCost', 'leases', 'walletBalance'])
  })
})
