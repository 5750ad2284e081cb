import type { Address, Client, Hex } from 'viem'
import type { LeaseRef } from './LeaseAuthority.js'
import type { Refusal } from './leaseAccess.js'
import { verifyLeaseSignIn } from './leaseSignIn.js'
import type { NonceBook } from './nonceBook.js'
import { issueSessionToken } from './sessionToken.js'

export interface SignInRenterParameters {
  /** The message and signature the renter posted. */
  message: string
  signature: Hex
  lease: LeaseRef
  /** The lease's authority on this gateway (`7.leases.example.com`). */
  domain: string
  nonces: NonceBook
  secret: Uint8Array
  /** Longest session, whatever the message's expiration time. */
  sessionMaxAgeMs: number
  now: number
  client?: Client | undefined
  /** What the lease authority, asked afresh, refuses the signer (`undefined`: nothing). */
  refusalFor(renter: Address): Promise<Refusal | undefined>
}

export type SignInRenterReturnType = { token: string; renter: Address; expiresAt: number } | Refusal

/**
 * A sign-in at the gateway: the message checks out for this lease (see
 * {@link verifyLeaseSignIn}), its nonce is one the gateway issued and unused
 * (401 otherwise), the signer is the lease's renter (403) and the lease is
 * active (410). Then a session token, expiring with the message or after
 * `sessionMaxAgeMs`, whichever comes first.
 */
export async function signInRenter({
  message,
  signature,
  lease,
  domain,
  nonces,
  secret,
  sessionMaxAgeMs,
  now,
  client,
  refusalFor,
}: SignInRenterParameters): Promise<SignInRenterReturnType> {
  const signIn = await verifyLeaseSignIn({ message, signature, lease, domain, now: new Date(now), client })
  if (!signIn.ok) return { status: 401, reason: signIn.reason }
  // Consumed only now: a message whose signature does not check out cannot burn a renter's nonce.
  if (!nonces.consume(signIn.nonce))
    return { status: 401, reason: 'the nonce is not one this gateway issued, was used or has expired' }
  const refusal = await refusalFor(signIn.address)
  if (refusal !== undefined) return refusal
  const expiresAt = Math.min(signIn.expiresAt, now + sessionMaxAgeMs)
  const token = issueSessionToken(secret, { ...lease, renter: signIn.address, expiresAt })
  return { token, renter: signIn.address, expiresAt }
}
