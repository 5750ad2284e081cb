import { type Address, type Client, type Hex, verifyMessage } from 'viem'
import { createSiweMessage, parseSiweMessage, validateSiweMessage, verifySiweMessage } from 'viem/siwe'
import type { LeaseRef } from './LeaseAuthority.js'
import { leaseResource, parseLeaseResource, sameLease } from './leaseResource.js'

export interface CreateLeaseSignInMessageParameters {
  /** The renter's address. */
  address: Address
  /** The lease's address on the gateway, e.g. `https://7.leases.example.com` (the nonce answer's `uri`). */
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
 * through a provider's gateway: `domain` is the lease's host on the gateway,
 * and its `resources` name the lease (see {@link leaseResource}), so the
 * signature opens that lease on that gateway and nothing else.
 *
 * @example
 * const info = await (await fetch('https://7.leases.example.com/_gridforge/nonce')).json()
 * const message = createLeaseSignInMessage({
 *   address: account.address, uri: info.uri, nonce: info.nonce,
 *   lease: { chainId: info.chainId, leaseMarket: info.leaseMarket, leaseId: 7n },
 *   expirationTime: new Date(Date.now() + 3_600_000),
 * })
 * const signature = await account.signMessage({ message })
 * await fetch('https://7.leases.example.com/_gridforge/login', { method: 'POST', body: JSON.stringify({ message, signature }) })
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

export interface VerifyLeaseSignInParameters {
  message: string
  signature: Hex
  lease: LeaseRef
  /** The lease's authority on this gateway (`7.leases.example.com`): the message's domain must be it. */
  domain: string
  now: Date
  /** Verifies smart-contract wallets' signatures (ERC-1271, ERC-6492) on chain; without it, EOA signatures only. */
  client?: Client | undefined
}

export type VerifyLeaseSignInReturnType =
  | { ok: true; address: Address; nonce: string; expiresAt: number }
  | { ok: false; reason: string }

/**
 * Checks a sign-in message and its signature for `lease` on this gateway:
 * its domain, chain, the lease it names, that it has an expiration time and
 * is within its validity, and the signature. The nonce is the caller's to
 * consume (only after this passed, so a forged message cannot burn a
 * renter's nonce). Never throws: a message that does not check out says why.
 */
export async function verifyLeaseSignIn({
  message,
  signature,
  lease,
  domain,
  now,
  client,
}: VerifyLeaseSignInParameters): Promise<VerifyLeaseSignInReturnType> {
  const parsed = parseSiweMessage(message)
  const fail = (reason: string) => ({ ok: false, reason }) as const
  if (parsed.address === undefined || parsed.nonce === undefined || parsed.uri === undefined)
    return fail('not a Sign-In with Ethereum message')
  if (parsed.domain?.toLowerCase() !== domain.toLowerCase())
    return fail(`the message is for ${parsed.domain}, not ${domain}`)
  if (parsed.chainId !== lease.chainId)
    return fail(`the message is for chain ${parsed.chainId}, not ${lease.chainId}`)
  const named = (parsed.resources ?? []).map(parseLeaseResource)
  if (!named.some((ref) => ref !== undefined && sameLease(ref, lease)))
    return fail(`the message's resources do not name ${leaseResource(lease)}`)
  if (parsed.expirationTime === undefined) return fail('the message has no expiration time')
  if (!validateSiweMessage({ message: parsed, domain: parsed.domain, time: now }))
    return fail(
      parsed.expirationTime.getTime() <= now.getTime()
        ? `the message expired at ${parsed.expirationTime.toISOString()}`
        : 'the message is not valid now (not before, nonce or version)',
    )
  let valid: boolean
  try {
    valid =
      client === undefined
        ? await verifyMessage({ address: parsed.address, message, signature })
        : await verifySiweMessage(client, { message, signature, domain: parsed.domain, time: now })
  } catch {
    valid = false
  }
  if (!valid) return fail(`the signature is not ${parsed.address}'s`)
  return {
    ok: true,
    address: parsed.address,
    nonce: parsed.nonce,
    expiresAt: parsed.expirationTime.getTime(),
  }
}
