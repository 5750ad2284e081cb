import { getAddress, isAddress } from 'viem'
import type { LeaseRef } from './LeaseAuthority.js'

const scheme = 'gridforge-lease'

/**
 * The URI naming a lease in a Sign-In with Ethereum message's `resources`:
 * `gridforge-lease:<chainId>:<leaseMarket>:<leaseId>`, the lease market's
 * address checksummed. A signature is only good for the lease it names.
 *
 * @example
 * leaseResource({ chainId: 8453, leaseMarket: '0x5FbDB2315678afecb367f032d93F642f64180aa3', leaseId: 7n })
 * // 'gridforge-lease:8453:0x5FbDB2315678afecb367f032d93F642f64180aa3:7'
 */
export function leaseResource({ chainId, leaseMarket, leaseId }: LeaseRef): string {
  return `${scheme}:${chainId}:${getAddress(leaseMarket)}:${leaseId}`
}

/** The lease a resource URI names, `undefined` when it names none (see {@link leaseResource}). */
export function parseLeaseResource(resource: string): LeaseRef | undefined {
  const match = /^gridforge-lease:([1-9]\d{0,15}):(0x[0-9a-fA-F]{40}):(0|[1-9]\d{0,77})$/.exec(resource)
  if (match === null) return undefined
  const [, chainId = '', leaseMarket = '', leaseId = ''] = match
  if (!isAddress(leaseMarket, { strict: false })) return undefined
  return { chainId: Number(chainId), leaseMarket: getAddress(leaseMarket), leaseId: BigInt(leaseId) }
}

/** Whether two refs name the same lease. */
export function sameLease(a: LeaseRef, b: LeaseRef): boolean {
  return (
    a.chainId === b.chainId &&
    a.leaseId === b.leaseId &&
    getAddress(a.leaseMarket) === getAddress(b.leaseMarket)
  )
}
