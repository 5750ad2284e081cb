import { type Deployment, getLease, getLeaseEnd, getLeaseParams, LeaseNotFoundError } from '@gridforge/sdk'
import { type Client, zeroAddress } from 'viem'
import { type Clock, systemClock } from '../runtime/clock.js'
import type { LeaseAuthority, LeaseState } from './LeaseAuthority.js'

export interface OnChainLeaseAuthorityOptions {
  client: Client
  /** Where the lease market is (`contracts.leases`). */
  deployment: Deployment
  /** How long an answer is kept, ms (default 5 s; the gateway keeps its own for `leaseCheckMs` too). */
  cacheMs?: number | undefined
  /** Chain time, seconds (default the clock's): a lease whose end has passed is not active. */
  chainNow?: (() => number) | undefined
  clock?: Clock | undefined
}

/**
 * The lease authority of a running agent: the lease market's `getLease` and `leaseEnd`, and the
 * lease's `ackGrace` (its parameters version), kept briefly.
 *
 * @example
 * const authority = onChainLeaseAuthority({ client, deployment })
 * await using gateway = await startLeaseGateway({ chainId, leaseMarket: deployment.contracts.leases, authority })
 */
export function onChainLeaseAuthority(options: OnChainLeaseAuthorityOptions): LeaseAuthority {
  const { client, deployment } = options
  const clock = options.clock ?? systemClock
  const cacheMs = options.cacheMs ?? 5_000
  const chainNow = options.chainNow ?? (() => Math.floor(clock.now() / 1000))
  const cache = new Map<bigint, { at: number; state: Promise<LeaseState | undefined> }>()
  const graces = new Map<number, Promise<number>>()

  const ackGraceOf = (version: number) => {
    let grace = graces.get(version)
    if (grace === undefined) {
      grace = getLeaseParams(client, { deployment, version }).then((params) => params.ackGrace)
      grace.catch(() => graces.delete(version))
      graces.set(version, grace)
    }
    return grace
  }

  async function read(leaseId: bigint): Promise<LeaseState | undefined> {
    let lease: Awaited<ReturnType<typeof getLease>>
    try {
      lease = await getLease(client, { deployment, leaseId })
    } catch (error) {
      if (error instanceof LeaseNotFoundError) return undefined
      throw error
    }
    if (lease.status === 'None') return undefined
    const [end, ackGraceSec] = await Promise.all([
      getLeaseEnd(client, { deployment, leaseId }),
      ackGraceOf(lease.paramsVersion),
    ])
    const ended = lease.status === 'Settled' || (lease.status === 'Active' && end.endsAt <= chainNow())
    const active = lease.status === 'Active' && !ended
    return {
      renter: lease.renter,
      provider: lease.provider,
      active,
      reason:
        lease.status === 'Requested'
          ? 'not accepted yet'
          : ended
            ? `ended at ${new Date(end.endsAt * 1000).toISOString()} (${end.reason === 'None' ? lease.reason : end.reason})`
            : undefined,
      ackSigner: lease.ackSigner === zeroAddress ? lease.renter : lease.ackSigner,
      startedAt: lease.status === 'Requested' ? 0 : lease.startedAt,
      ackGraceSec,
    }
  }

  return {
    getLease(leaseId) {
      const cached = cache.get(leaseId)
      if (cached !== undefined && clock.now() - cached.at < cacheMs) return cached.state
      const state = read(leaseId)
      cache.set(leaseId, { at: clock.now(), state })
      state.catch(() => cache.delete(leaseId))
      return state
    },
  }
}
