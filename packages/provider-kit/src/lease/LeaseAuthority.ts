import type { Address } from 'viem'

/**
 * Where the gateway learns who rents a lease and whether it is still active.
 * The agent passes a reader of the lease contract; tests pass a fake. The
 * gateway asks again at most every `leaseCheckMs` (see {@link LeaseGatewayOptions}).
 *
 * @example
 * const authority: LeaseAuthority = {
 *   async getLease(leaseId) {
 *     const lease = await client.readContract({ address: leaseMarket, abi, functionName: 'getLease', args: [leaseId] })
 *     return { renter: lease.renter, provider: lease.provider, active: lease.status === 1 }
 *   },
 * }
 */
export interface LeaseAuthority {
  /** The lease, `undefined` when there is no such lease. */
  getLease(leaseId: bigint): Promise<LeaseState | undefined>
}

/** A lease as the gateway needs it. */
export interface LeaseState {
  /** Who may sign in. */
  renter: Address
  /** Whose host serves it. */
  provider: Address
  /** Whether the renter may use it now (paid for, not ended). */
  active: boolean
  /** Why it is not active ("ended at …", "out of funds"), said to the renter. */
  reason?: string | undefined
  /** Who signs the lease's usage acknowledgements (the renter or its session key); unset: acknowledgements are refused. */
  ackSigner?: Address | undefined
  /** When the lease was accepted, chain seconds; unset or 0: not started (acknowledgements do not gate it). */
  startedAt?: number | undefined
  /** The lease's `ackGrace`, seconds: how long acknowledgements may lapse before the provider may end it. */
  ackGraceSec?: number | undefined
}

/** Which lease, on which chain and lease market: what a sign-in and a session are bound to. */
export interface LeaseRef {
  chainId: number
  leaseMarket: Address
  leaseId: bigint
}
