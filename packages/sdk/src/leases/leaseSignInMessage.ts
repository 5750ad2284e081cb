import { type Address, getAddress, isAddress } from 'viem'
import { createSiweMessage } from 'viem/siwe'

/** A lease as a gateway names it: the chain, the lease market and the id. */
export interface LeaseRef {
  chainId: number
  leaseMarket: Address
  leaseId: bigint
}

/**
 * The URI naming a lease in a Sign-In with Ethereum message's `resources`:
 * `gridforge-lease:<chainId>:<leaseMarket>:<leaseId>`, the lease market's
 * address checksummed. A gateway takes a signature only for the lease it names.
 *
 * @example
 * leaseResource({ chainId: 8453, leaseMarket: '0x5FbDB2315678afecb367f032d93F642f64180aa3', leaseId: 7n })
 * // 'gridforge-lease:8453:0x5FbDB2315678afecb367f032d93F642f64180aa3:7'
 */
export function leaseResource({ chainId, leaseMarket, leaseId }: LeaseRef): string {
  return `gridforge-lease:${chainId}:${getAddress(leaseMarket)}:${leaseId}`
}

/** The lease a resource URI names, `undefined` when it names none (see {@link leaseResource}). */
export function parseLeaseResource(resource: string): LeaseRef | undefined {
  const match = /^gridforge-lease:([1-9]\d{0,15}):(0x[0-9a-fA-F]{40}):(0|[1-9]\d{0,77})$/.exec(resource)
  if (match === null) return undefined
  const [, chainId = '', leaseMarket = '', leaseId = ''] = match
  if (!isAddress(leaseMarket, { strict: false })) return undefined
  return { chainId: Number(chainId), leaseMarket: getAddress(leaseMarket), leaseId: BigInt(leaseId) }
}

export interface CreateLeaseSignInMessageParameters {
  /** The renter's address. */
  address: Address
  /** The lease's origin on the gateway, e.g. `https://7.leases.example.com` (the nonce answer's `uri`). */
  uri: string
  lease: LeaseRef
  /** A nonce from the gateway's `GET /_gridforge/nonce`. */
  nonce: string
  /** When the signature stops being good; the session ends then at the latest. */
  expirationTime: Date
  issuedAt?: Date | undefined
  statement?: string | undefined
}

/**
 * The Sign-In with Ethereum (EIP-4361) message a renter signs to use a lease
 * through a provider's gateway: its domain is the lease's host on the
 * gateway, and its `resources` name the lease ({@link leaseResource}), so the
 * signature opens that lease on that gateway and nothing else. The gateway
 * (`@gridforge/provider-kit`'s `verifyLeaseSignIn`) checks exactly these
 * fields. `signInToLease` builds, signs and posts it for you.
 *
 * @example
 * const message = createLeaseSignInMessage({
 *   address: account.address, uri: 'https://7.leases.example.com', nonce,
 *   lease: { chainId: 8453, leaseMarket: deployment.contracts.leases, leaseId: 7n },
 *   expirationTime: new Date(Date.now() + 3_600_000),
 * })
 */
export function createLeaseSignInMessage({
  address,
  uri,
  lease,
  nonce,
  expirationTime,
  issuedAt = new Date(),
  statement = `Use lease ${lease.leaseId} through its provider's gateway.`,
}: CreateLeaseSignInMessageParameters): string {
  const url = new URL(uri)
  return createSiweMessage({
    address,
    chainId: lease.chainId,
    domain: url.host,
    uri: url.origin,
    nonce,
    version: '1',
    issuedAt,
    expirationTime,
    statement,
    resources: [leaseResource(lease)],
  })
}
