import { getAddress } from 'viem'
import type { LeaseRef } from './LeaseAuthority.js'

/**
 * The resource URI naming a lease in a sign-in message
 * (`gridforge-lease:<chainId>:<leaseMarket>:<leaseId>`), and its parser: the
 * SDK's, so that the renter's software that builds the message and this
 * gateway that checks it share one definition.
 */
export { leaseResource, parseLeaseResource } from '@gridforge/sdk'

/** Whether two refs name the same lease. */
export function sameLease(a: LeaseRef, b: LeaseRef): boolean {
  return (
    a.chainId === b.chainId &&
    a.leaseId === b.leaseId &&
    getAddress(a.leaseMarket) === getAddress(b.leaseMarket)
  )
}
