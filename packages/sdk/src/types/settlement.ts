import type { Address, Hash, Hex } from 'viem'

/** The final statuses a task settles in. */
export type SettledStatus = 'Completed' | 'Failed' | 'Cancelled' | 'Expired'

/** One replica paid at settlement. */
export interface ReplicaPayment {
  slot: number
  provider: Address
  /** Charged to the escrow: what the provider earned plus `fee`. */
  payment: bigint
  /** The protocol fee taken from `payment`. */
  fee: bigint
}

/** One claimant slashed (a no-show, a missed reveal, or outvoted). */
export interface ProviderSlash {
  slot: number
  provider: Address
  /** Collateral taken. */
  amount: bigint
  /** The part of `amount` paid to the client. */
  toClient: bigint
  /** True when the provider revealed a result that lost the vote. */
  outvoted: boolean
}

/**
 * How a task settled, decoded from its `TaskFinalized` event and the
 * `ReplicaPaid` / `ProviderSlashed` events of the same transaction: its final
 * status, who was paid or slashed, what the client got back.
 */
export interface TaskSettlement {
  taskId: bigint
  client: Address
  status: SettledStatus
  /** The winning result digest of a consensus task; `undefined` otherwise. */
  resultDigest: Hex | undefined
  /** Paid out of the escrow to providers (fees included). */
  paid: bigint
  /** The unspent escrow returned to the client's market balance (slashed collateral for the client is in `slashes`). */
  refund: bigint
  payments: ReplicaPayment[]
  slashes: ProviderSlash[]
}

/** A {@link TaskSettlement} with the transaction that wrote it. */
export type TaskSettlementRecord = TaskSettlement & {
  /** The settling transaction. */
  hash: Hash
  blockNumber: bigint
}
