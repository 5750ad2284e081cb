import { type Address, type Client, type Hex, verifyMessage } from 'viem'
import { parseSiweMessage, validateSiweMessage, verifySiweMessage } from 'viem/siwe'
import type { LeaseRef } from './LeaseAuthority.js'
import { leaseResource, parseLeaseResource, sameLease } from './leaseResource.js'

/**
 * The Sign-In with Ethereum message a renter signs for a lease: built by the
 * SDK (`createLeaseSignInMessage`, which `signInToLease` uses), checked here
 * by {@link verifyLeaseSignIn}: one builder for both sides.
 */
export { type CreateLeaseSignInMessageParameters, createLeaseSignInMessage } from '@gridforge/sdk'

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
