import { parseSiweMessage } from 'viem/siwe'
import { describe, expect, it } from 'vitest'
import {
  createLeaseSignInMessage,
  type LeaseRef,
  leaseResource,
  parseLeaseResource,
} from './leaseSignInMessage.js'
import { leaseUrl } from './leaseUrl.js'

const leaseMarket = '0x5FbDB2315678afecb367f032d93F642f64180aa3'

describe('leaseUrl', () => {
  it("serves each lease on its own host under the gateway's", () => {
    expect(leaseUrl({ gatewayUrl: 'https://leases.example.com', leaseId: 7n })).toBe(
      'https://7.leases.example.com/',
    )
    expect(leaseUrl({ gatewayUrl: 'http://leases.local:8080/', leaseId: 12, path: '/lab?x=1' })).toBe(
      'http://12.leases.local:8080/lab?x=1',
    )
  })
})

describe('createLeaseSignInMessage', () => {
  it('names the lease host as domain and the lease as resource', () => {
    const lease: LeaseRef = { chainId: 31337, leaseMarket, leaseId: 7n }
    const message = createLeaseSignInMessage({
      address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
      uri: 'https://7.leases.example.com',
      lease,
      nonce: 'abcdefgh12345678',
      expirationTime: new Date('2030-01-01T00:00:00Z'),
    })
    const parsed = parseSiweMessage(message)
    expect(parsed).toMatchObject({
      domain: '7.leases.example.com',
      uri: 'https://7.leases.example.com',
      chainId: 31337,
      nonce: 'abcdefgh12345678',
      resources: [`gridforge-lease:31337:${leaseMarket}:7`],
    })
    expect(parseLeaseResource(leaseResource(lease))).toEqual(lease)
    expect(parseLeaseResource('gridforge-lease:0:0x00:7')).toBeUndefined()
  })
})
