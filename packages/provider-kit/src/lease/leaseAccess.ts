import { type Address, isAddressEqual } from 'viem'
import type { LeaseRef, LeaseState } from './LeaseAuthority.js'
import type { LeaseSession, SessionTokenReader } from './sessionToken.js'

/** Why the gateway refuses a request, as the renter reads it. */
export interface Refusal {
  /** 401: sign in (again); 403: signed in, not allowed; 404: no such lease here; 410: the lease has ended. */
  status: 401 | 403 | 404 | 410
  reason: string
}

export type Credentials = { token: string; via: 'cookie' | 'bearer' }

/**
 * Reads the session a request's credentials hold for `lease`: 401 when there
 * are none, or they are not this gateway's, have expired, or are for another lease.
 */
export function sessionOf(
  credentials: Credentials | undefined,
  { readToken, lease, now }: { readToken: SessionTokenReader; lease: LeaseRef; now: number },
): LeaseSession | Refusal {
  if (credentials === undefined) return { status: 401, reason: `sign in to use lease ${lease.leaseId}` }
  const session = readToken(credentials.token, now)
  if (session === undefined)
    return {
      status: 401,
      reason: 'the session is not valid (expired, or issued by another gateway): sign in again',
    }
  if (
    session.leaseId !== lease.leaseId ||
    session.chainId !== lease.chainId ||
    !isAddressEqual(session.leaseMarket, lease.leaseMarket)
  )
    return {
      status: 401,
      reason: `the session is for lease ${session.leaseId}, not ${lease.leaseId}: sign in again`,
    }
  return session
}

/**
 * Whether `renter` may use the lease as the lease authority knows it now:
 * `undefined` when they may, else the refusal.
 */
export function leaseRefusal(
  state: LeaseState | undefined,
  { leaseId, renter, provider }: { leaseId: bigint; renter: Address; provider?: Address | undefined },
): Refusal | undefined {
  if (state === undefined) return { status: 404, reason: `there is no lease ${leaseId}` }
  if (provider !== undefined && !isAddressEqual(state.provider, provider))
    return { status: 404, reason: `lease ${leaseId} is served by provider ${state.provider}, not this one` }
  if (!isAddressEqual(state.renter, renter))
    return { status: 403, reason: `lease ${leaseId} is rented by ${state.renter}, not ${renter}` }
  if (!state.active)
    return { status: 410, reason: `lease ${leaseId} is not active${state.reason ? `: ${state.reason}` : ''}` }
  return undefined
}

export function isRefusal<T extends object>(value: T | Refusal): value is Refusal {
  return 'status' in value && 'reason' in value
}
