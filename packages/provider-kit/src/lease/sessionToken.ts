import { createHmac, timingSafeEqual } from 'node:crypto'
import { type Address, getAddress } from 'viem'
import type { LeaseRef } from './LeaseAuthority.js'

/** What a session token says: who signed in, to which lease, until when. */
export interface LeaseSession extends LeaseRef {
  renter: Address
  /** Milliseconds since the epoch. */
  expiresAt: number
}

/** The cookie that carries a session for a scheme (`__Host-`, and `Secure`, over https). */
export function sessionCookieName(scheme: 'http' | 'https'): string {
  return scheme === 'https' ? '__Host-gridforge_lease' : 'gridforge_lease'
}

/** Every token starts so, which lets the gateway tell its own bearer tokens from a service's. */
export const sessionTokenPrefix = 'gfl1.'

/**
 * A session token: `gfl1.<payload>.<mac>`, the payload JSON in base64url and
 * the mac an HMAC-SHA256 of both under the gateway's secret. Stateless: the
 * gateway keeps no session table, and a new secret ends every session.
 */
export function issueSessionToken(secret: Uint8Array, session: LeaseSession): string {
  const payload = Buffer.from(
    JSON.stringify({
      c: session.chainId,
      m: session.leaseMarket,
      l: session.leaseId.toString(),
      r: session.renter,
      e: session.expiresAt,
    }),
  ).toString('base64url')
  const signed = `${sessionTokenPrefix}${payload}`
  return `${signed}.${mac(secret, signed)}`
}

/**
 * The session a token holds, `undefined` when it is not one of this
 * gateway's (wrong mac, wrong shape) or it has expired at `now`.
 */
export function readSessionToken(secret: Uint8Array, token: string, now: number): LeaseSession | undefined {
  if (!token.startsWith(sessionTokenPrefix)) return undefined
  const dot = token.lastIndexOf('.')
  const signed = token.slice(0, dot)
  const expected = Buffer.from(mac(secret, signed))
  const actual = Buffer.from(token.slice(dot + 1))
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return undefined
  try {
    const payload = JSON.parse(Buffer.from(signed.slice(sessionTokenPrefix.length), 'base64url').toString())
    const session: LeaseSession = {
      chainId: payload.c,
      leaseMarket: getAddress(payload.m),
      leaseId: BigInt(payload.l),
      renter: getAddress(payload.r),
      expiresAt: payload.e,
    }
    if (!Number.isSafeInteger(session.chainId) || !Number.isSafeInteger(session.expiresAt)) return undefined
    return now < session.expiresAt ? session : undefined
  } catch {
    return undefined
  }
}

/** Reads session tokens like {@link readSessionToken}, against one secret. */
export type SessionTokenReader = (token: string, now: number) => LeaseSession | undefined

/**
 * {@link readSessionToken} with a memory of the last `size` tokens it found
 * valid: a renter sends the same token with every request, and checking its
 * mac and parsing it again each time was a fifth of the gateway's work per
 * request. Only tokens whose mac held are remembered, so a flood of forged
 * ones cannot push real sessions out; expiry is checked on every read.
 */
export function sessionTokenReader(
  secret: Uint8Array,
  { size = 4096 }: { size?: number } = {},
): SessionTokenReader {
  const verified = new Map<string, LeaseSession>()
  return (token, now) => {
    const known = verified.get(token)
    if (known !== undefined) {
      if (now < known.expiresAt) return known
      verified.delete(token)
      return undefined
    }
    const session = readSessionToken(secret, token, now)
    if (session === undefined) return undefined
    // Map keeps insertion order: the oldest token goes first.
    if (verified.size >= size) verified.delete(verified.keys().next().value as string)
    verified.set(token, session)
    return session
  }
}

function mac(secret: Uint8Array, signed: string): string {
  return createHmac('sha256', secret).update(signed).digest('base64url')
}
