import { usageDomain, usageTypes } from '@gridforge/sdk'
import { type Address, type Hex, isHex, verifyTypedData } from 'viem'
import type { LeaseRef, LeaseState } from './LeaseAuthority.js'

/**
 * A usage acknowledgement: "by time `at` (chain seconds) I had `servedSec` seconds of service",
 * signed by the lease's ack signer (EIP-712 `Usage(uint256 leaseId,uint40 servedSec,uint40 at)`).
 * The provider redeems the latest one with `redeemUsage`.
 */
export interface UsageAck {
  servedSec: number
  at: number
  signature: Hex
}

/** The EIP-712 domain, types and message of an acknowledgement, as the lease market checks them (the SDK's). */
export function usageTypedData(lease: LeaseRef, { servedSec, at }: { servedSec: number; at: number }) {
  return {
    domain: usageDomain(lease),
    types: usageTypes,
    primaryType: 'Usage',
    message: { leaseId: lease.leaseId, servedSec, at },
  } as const
}

/** What the gateway checks an acknowledgement against, besides the latest one it holds. */
export interface AckCheck {
  lease: LeaseRef
  state: LeaseState
  /** The latest acknowledgement accepted for the lease. */
  latest: UsageAck | undefined
  /** Chain time now, seconds. */
  nowSec: number
  /** How far in the future `at` may be (clocks differ), seconds. */
  futureSkewSec: number
}

/** Why an acknowledgement is refused: 400 malformed, 409 older than the latest, 422 not a valid acknowledgement. */
export interface AckRefusal {
  status: 400 | 409 | 422
  reason: string
}

const maxUint40 = 2 ** 40 - 1
const isUint40 = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && value <= maxUint40

/** Reads `{ servedSec, at, signature }` from a request body; a refusal (400) when it is not that. */
export function parseUsageAck(body: unknown): UsageAck | AckRefusal {
  const { servedSec, at, signature } = (typeof body === 'object' && body !== null ? body : {}) as Record<
    string,
    unknown
  >
  if (!isUint40(servedSec) || !isUint40(at) || typeof signature !== 'string' || !isHex(signature))
    return {
      status: 400,
      reason: 'expected JSON {"servedSec": <uint40>, "at": <uint40, chain seconds>, "signature": "0x…"}',
    }
  return { servedSec, at, signature }
}

/**
 * Checks an acknowledgement: not in the future (beyond the skew), no more service than time since the
 * start, not older than the latest accepted, signed by the lease's ack signer. `undefined`: accept it.
 */
export async function usageAckRefusal(ack: UsageAck, check: AckCheck): Promise<AckRefusal | undefined> {
  const { state, latest, nowSec, futureSkewSec } = check
  if (ack.at > nowSec + futureSkewSec)
    return { status: 422, reason: `at ${ack.at} is in the future (now ${nowSec})` }
  const startedAt = state.startedAt ?? 0
  if (ack.servedSec > ack.at - startedAt)
    return {
      status: 422,
      reason: `servedSec ${ack.servedSec} is more than the ${ack.at - startedAt} s between the lease's start and at`,
    }
  if (latest !== undefined && (ack.at < latest.at || ack.servedSec < latest.servedSec))
    return {
      status: 409,
      reason: `older than the latest acknowledgement accepted (servedSec ${latest.servedSec}, at ${latest.at})`,
    }
  const signer: Address | undefined = state.ackSigner
  if (signer === undefined) return { status: 422, reason: "the lease's ack signer is not known" }
  let valid = false
  try {
    valid = await verifyTypedData({
      address: signer,
      ...usageTypedData(check.lease, ack),
      signature: ack.signature,
    })
  } catch {
    valid = false
  }
  if (!valid) return { status: 422, reason: `the signature is not the lease's ack signer's (${signer})` }
  return undefined
}

/** Whether the gateway keeps serving a lease, by its acknowledgements (see {@link AckPolicy}). */
export interface AckPolicy {
  /**
   * The lease stops being served when its latest acknowledgement is older than this, seconds (default
   * half the lease's `ackGrace`): the renter acknowledges well before the provider could end the lease.
   */
  lapseSec?: number | undefined
  /** How far an acknowledgement's servedSec may lag the gateway's own count, seconds (default 120). */
  servedLagSec?: number | undefined
  /** How far in the future an acknowledgement's `at` may be, seconds (default 30). */
  futureSkewSec?: number | undefined
}

/** How old the latest acknowledgement may be, seconds; `undefined` when the lease needs none (no ack signer, not started). */
function lapseSecOf(state: LeaseState, policy: AckPolicy): number | undefined {
  if (state.ackSigner === undefined || state.startedAt === undefined || state.startedAt === 0)
    return undefined
  return policy.lapseSec ?? Math.floor((state.ackGraceSec ?? 300) / 2)
}

/**
 * The chain time (seconds) from which {@link ackLapse} finds the lease's latest
 * acknowledgement too old; `undefined` when the lease needs none (no ack signer,
 * not started).
 */
export function ackLapseAt(
  state: LeaseState,
  latest: UsageAck | undefined,
  policy: AckPolicy,
): number | undefined {
  const lapseSec = lapseSecOf(state, policy)
  if (lapseSec === undefined || state.startedAt === undefined) return undefined
  return (latest?.at ?? state.startedAt) + lapseSec + 1
}

/**
 * Why the gateway stops proxying a lease until the renter acknowledges: the latest acknowledgement
 * lapsed (or none came in the first period after the start), or it acknowledges much less service
 * than the gateway gave. `undefined`: keep serving. Leases the authority reports without an ack
 * signer or start time are not gated.
 */
export function ackLapse(
  state: LeaseState,
  latest: UsageAck | undefined,
  { nowSec, servedSec, policy }: { nowSec: number; servedSec: number; policy: AckPolicy },
): string | undefined {
  const lapseSec = lapseSecOf(state, policy)
  if (lapseSec === undefined || state.startedAt === undefined) return undefined
  const lastAt = latest?.at ?? state.startedAt
  if (nowSec - lastAt > lapseSec)
    return latest === undefined
      ? `no usage acknowledgement since the lease started ${nowSec - state.startedAt} s ago`
      : `the latest usage acknowledgement is ${nowSec - latest.at} s old (at most ${lapseSec} s)`
  const lag = policy.servedLagSec ?? 120
  // The gateway's count when the acknowledgement was made: what it counts now, less the time since.
  if (latest !== undefined && servedSec - Math.max(0, nowSec - latest.at) - latest.servedSec > lag)
    return `the latest usage acknowledgement counts ${latest.servedSec} s served; the gateway served ${servedSec} s`
  return undefined
}
