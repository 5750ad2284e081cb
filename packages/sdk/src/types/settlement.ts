import type { Address, Hash, Hex } from 'viem'
import type { Failure } from '../tasks/failures.js'
import type { AuditVerdict } from './task.js'

/** The final statuses a task settles in. */
export type SettledStatus = 'Completed' | 'Failed' | 'Cancelled' | 'Expired'

/** One replica (or auditor) paid at settlement. */
export interface ReplicaPayment {
  /** The slot: a replica's, or an auditor's (1 and on for an audited single result, `replicas` and on for a dispute). */
  slot: number
  provider: Address
  /** Charged to the escrow: what the provider earned plus `fee`. */
  payment: bigint
  /** The protocol fee taken from `payment`. */
  fee: bigint
}

/**
 * One claimant slashed (a no-show, a missed reveal, or outvoted), or in an
 * audit an auditor that missed its commitment or reveal or found another
 * result than the verdict, or the provider whose result was overturned; in a
 * dispute, a replica that revealed another result than the verdict's (the
 * replicas that did not reveal were slashed when the dispute opened).
 */
export interface ProviderSlash {
  slot: number
  provider: Address
  /** Collateral taken. */
  amount: bigint
  /**
   * The part of `amount` paid to the client. In an audit or a dispute 0n:
   * slashes pay the auditors first, and the client's share of the rest is in
   * `refund`.
   */
  toClient: bigint
  /** True when the provider revealed a result that lost the vote (or an audit overturned it). */
  outvoted: boolean
}

/** How the audit of a single result, or a dispute of replicas, ended, from its `AuditResolved` event. */
export interface AuditResolution {
  verdict: AuditVerdict
  /**
   * The seal of the result the auditors' majority found (the market seals
   * what auditors reveal); `undefined` when none (`unresolved`, `lapsed`).
   */
  resultDigest: Hex | undefined
  /**
   * An upheld metered result billed for more runtime than its auditors
   * measured; `undefined` when the runtime held (or nothing was measured).
   */
  overstated: RuntimeOverstatement | undefined
}

/**
 * What an audit found of a metered result's runtime (`RuntimeOverstated`).
 * Within 10% of what it measured the result is paid as billed and the
 * provider forfeits the excess ÷ the audit probability (`forfeit`, to the
 * treasury); beyond that, after an escalation, it is paid `measuredSec` and
 * its whole bond is slashed (`forfeit`, also in `slashes`).
 */
export interface RuntimeOverstatement {
  provider: Address
  billedSec: number
  /** The upper median of the runtimes the auditors who found the result revealed. */
  measuredSec: number
  forfeit: bigint
}

/** An audit round that opened (`AuditRoundOpened`): eligible providers `joinAudit` it until `joinDeadline`. */
export interface AuditRound {
  /** 1 for the first round (a drawn result's, or a dispute's), then one more each time the auditors disagree. */
  round: number
  /** The round's first auditor slot. */
  firstSlot: number
  /** Auditors the round seats. */
  auditors: number
  joinDeadline: Date
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
  /**
   * The winning result's seal (see `sealResult`) of a consensus task (after a
   * dispute, the replicas' result that stands), or the seal of a single
   * result settled as it was submitted; `undefined` otherwise (a held result
   * settles without it: see `audit`). A failure digest is its own seal.
   */
  resultDigest: Hex | undefined
  /**
   * The failed run the settled result reports, when the settlement's events
   * carry its digest (`resultDigest`, or the digest an audit upheld); a held
   * result released without an audit does not: read `getTask(…).failure`.
   */
  failure: Failure | undefined
  /** Paid out of the escrow to providers (fees included). */
  paid: bigint
  /** The unspent escrow returned to the client's market balance (slashed collateral for the client is in `slashes`). */
  refund: bigint
  payments: ReplicaPayment[]
  slashes: ProviderSlash[]
  /**
   * An audited single result, or a dispute of replicas whose results
   * differed: how its audit ended (settled in the same transaction);
   * `undefined` otherwise.
   */
  audit: AuditResolution | undefined
}

/** A {@link TaskSettlement} with the transaction that wrote it. */
export type TaskSettlementRecord = TaskSettlement & {
  /** The settling transaction. */
  hash: Hash
  blockNumber: bigint
}
