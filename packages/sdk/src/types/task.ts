import type { Address, Hex } from 'viem'
import type { Failure } from '../tasks/failures.js'
import type { Requirements } from './requirements.js'

/**
 * Where a task is in its life (DESIGN §2.3):
 * - `Open`: at least one slot is free to claim;
 * - `Claimed`: every slot is claimed, results (1 replica) or commitments are awaited;
 * - `Revealing`: every slot committed, reveals are open until `revealDeadline`;
 * - `Held`: the result of an auditable task is in; payment waits for the audit draw (`releaseResult`);
 * - `Auditing`: the draw picked the result, or the results the replicas revealed differ (a
 *   dispute); auditors re-run the task before it settles;
 * - `Completed`: paid out; `Failed`: the replicas found no majority (a dispute nobody audited),
 *   or the audit (of a result or a dispute) overturned it or reached no verdict, refunded;
 *   `Cancelled`: cancelled before any claim, refunded; `Expired`: the deadline passed, refunded.
 */
export type TaskStatus =
  | 'Open'
  | 'Claimed'
  | 'Revealing'
  | 'Completed'
  | 'Failed'
  | 'Cancelled'
  | 'Expired'
  | 'Held'
  | 'Auditing'

/**
 * Where one slot is: free, claimed, committed (replicas > 1 and auditors), with
 * its result in, or forfeited (an auditor that missed its commitment or reveal,
 * or a provider whose result an audit overturned: slashed).
 */
export type SlotStatus = 'Free' | 'Claimed' | 'Committed' | 'Submitted' | 'Forfeited'

/**
 * Where the audit of a single-replica result, or the dispute of replicas
 * whose results differ, stands:
 * - `none`: not auditable, or its result is not drawn yet (not disputed yet);
 * - `not-drawn`: the draw passed the result without an audit (it was paid);
 * - `pending`: drawn (disputed); auditors are joining or re-running the task;
 * - `upheld`: the auditors reproduced the result (in a dispute, a replica's result): who handed it in
 *   was paid, the other replicas that revealed were slashed;
 * - `overturned`: the auditors agreed on another result (in a dispute, one no replica revealed): the
 *   provider (every replica that revealed) was slashed, the client refunded;
 * - `unresolved`: the auditors agreed on no result: the client was refunded, nobody paid for the result;
 * - `lapsed`: no eligible provider joined the audit in time: the result was paid unaudited (in a
 *   dispute, a strict majority of at least two replicas, if any, was paid; nobody was slashed).
 */
export type AuditVerdict =
  | 'none'
  | 'not-drawn'
  | 'pending'
  | 'upheld'
  | 'overturned'
  | 'unresolved'
  | 'lapsed'

/** The contract's `AuditVerdict` enum, by value. */
export const auditVerdicts = [
  'none',
  'not-drawn',
  'pending',
  'upheld',
  'overturned',
  'unresolved',
  'lapsed',
] as const satisfies readonly AuditVerdict[]

/**
 * The audit of a single-replica result of a deterministic source, or the
 * dispute of a task with replicas > 1 whose revealed results differ (read
 * like an audit: the replicas hold slots 0 to replicas − 1, the auditors the
 * slots after them). A single result's provider holds slot 0 and its
 * auditors slots 1 to 6, a dispute's auditors slots from `replicas` on,
 * added in rounds (1, then 2 and so on) while they disagree, up to 7 slots.
 *
 * `getAudit` of a task with replicas > 1 that is not disputed reads round 0:
 * the race for its seats, which ends at `joinDeadline` and draws its tickets
 * from the hash of the block after `seedBlock` (the submission's).
 */
export interface TaskAudit {
  verdict: AuditVerdict
  /** The current (or last) round, from 1; 0 before any audit (the race for the seats of replicas). */
  round: number
  /** First slot of the round's auditors (0 before any audit): from 1 for a single result, from `replicas` for a dispute. */
  firstSlot: number
  /** Auditors the round seats. */
  auditors: number
  /** Auditors join the round until then (round 0 of replicas: the race for the seats ends then). */
  joinDeadline: Date | undefined
  /** The round's commitments are due by then. */
  commitDeadline: Date | undefined
  /** The round's tickets are seeded by the hash of the block after this one (auditors, or claims in the race, from two blocks after it). */
  seedBlock: bigint | undefined
  /** Collateral slashed from auditors (and a dispute's replicas that did not reveal) so far: it pays the auditors. */
  slashed: bigint
}

/** The contract's `TaskStatus` enum, by value (0 is `None`: no such task). */
export const taskStatuses = [
  'None',
  'Open',
  'Claimed',
  'Revealing',
  'Completed',
  'Failed',
  'Cancelled',
  'Expired',
  'Held',
  'Auditing',
] as const

/** The contract's `SlotStatus` enum, by value. */
export const slotStatuses = [
  'Free',
  'Claimed',
  'Committed',
  'Submitted',
  'Forfeited',
] as const satisfies readonly SlotStatus[]

/** The statuses a task never leaves. */
export const finalTaskStatuses = [
  'Completed',
  'Failed',
  'Cancelled',
  'Expired',
] as const satisfies readonly TaskStatus[]

/**
 * Whether a task in `status` is settled for good (`Completed`, `Failed`,
 * `Cancelled` or `Expired`); `Held` and `Auditing` results (audits and
 * disputes) are not settled yet.
 *
 * @example
 * import { isFinalStatus } from '@gridforge/sdk'
 *
 * const task = await client.getTask({ taskId: 7n })
 * if (isFinalStatus(task.status)) console.log('settled:', task.status)
 */
export function isFinalStatus(status: TaskStatus): boolean {
  return (finalTaskStatuses as readonly TaskStatus[]).includes(status)
}

/**
 * One slot of a task: a replica, or (after the replicas of an audited result
 * or a dispute) an auditor. Fields that do not apply to the slot's status are
 * `undefined`.
 */
export interface Slot {
  /** The slot's index: 0 to replicas − 1, then the auditors of an audited result or a dispute. */
  index: number
  status: SlotStatus
  /** The claimant (`undefined` while free, including after a no-show's slot was reopened). */
  provider: Address | undefined
  /**
   * When the slot's time started: the claim, or for a seat won in the race
   * for the seats of a task with replicas > 1, the race's end + 1 s. Until
   * then (a time still to come) the seat is not final: a better ticket may
   * take it, and it takes no commitment.
   */
  claimedAt: Date | undefined
  /** While `Claimed`: when the result (1 replica) or the commitment is due; later the slot can be reopened. */
  dueAt: Date | undefined
  /** Replicas > 1 and auditors, once committed: when the commitment was made. */
  committedAt: Date | undefined
  /** Replicas > 1 and auditors, while `Committed`: the commitment. */
  commitment: Hex | undefined
  /**
   * Replicas > 1 and auditors, once revealed: the result's seal (`sealResult`
   * of its digest; the market seals what an auditor reveals; a failure digest
   * is its own seal). Equal seals agree.
   */
  resultDigest: Hex | undefined
  /**
   * Slot 0 of an auditable task, once its result is in: the first 8 bytes of
   * the result's seal, all the market keeps to compare the auditors' results with.
   */
  resultTag: Hex | undefined
  /** Slot 0 of an auditable task, once its result is in: the block it was submitted in (the draw uses the next one's hash). */
  submittedBlock: bigint | undefined
  /** Replicas > 1 and auditors, once revealed: the runtime counted for payment (1 replica: see `getTaskResult`). */
  runtimeSec: number | undefined
}

/** Who may claim a task, besides the requirements on the host. */
export interface TaskGates {
  /** Least success rate of a claimant, in basis points. */
  minSuccessBps: number
  /** Least number of completed slots of a claimant. */
  minCompleted: number
}

/** A task as the market holds it, with its slots. Amounts are in the token's base units. */
export interface Task {
  taskId: bigint
  /** The account that submitted the task and receives refunds. */
  client: Address
  sourceId: number
  /** Number of providers that run it (1 to 7). */
  replicas: number
  status: TaskStatus
  /** After this the task can no longer be claimed or answered, only expired and refunded. */
  deadline: Date
  /** Most paid to each replica. */
  maxPayment: bigint
  /** 0n for a fixed price; otherwise payment = min(maxPayment, pricePerSecond × runtime). */
  pricePerSecond: bigint
  /** Protocol fee rate fixed at submission, in basis points. */
  feeBps: number
  /** The source owner's share of the fee, fixed at submission, in basis points. */
  creatorFeeBps: number
  /** The client's fee discount (from its stake), fixed at submission, in basis points. */
  discountBps: number
  /** Collateral each claimant locks. */
  collateral: bigint
  /** The task's requirements merged with the source's. */
  requirements: Requirements
  gates: TaskGates
  /** Replicas > 1, once every slot committed: end of the reveal window. */
  revealDeadline: Date | undefined
  /** Number of committed slots (replicas > 1). */
  committed: number
  /** Number of revealed slots (replicas > 1). */
  revealed: number
  /**
   * Probability that the result is audited, in basis points, fixed at
   * submission: 0 unless the task is auditable (one replica of a deterministic source).
   */
  auditBps: number
  /**
   * An auditable task's audit (`auditBps > 0`), or the dispute of a task with
   * replicas > 1 whose revealed results differed (its auditors' slots follow
   * the replicas'); `undefined` for any other task.
   */
  audit: TaskAudit | undefined
  /**
   * The result handed in (1 replica) or agreed on (replicas > 1) reports a
   * failed run: it is paid the source's failure terms and its result CID is
   * the run's logs, not an output. A `Completed` task may have failed.
   */
  failed: boolean
  /**
   * How the run failed, when `failed`: decoded from the agreed digest
   * (replicas > 1), the held result's tag (an auditable result) or the
   * ResultSubmitted event (any other single result). `undefined` when the
   * task did not fail, or its digest is not one `failureDigest` makes.
   */
  failure: Failure | undefined
  slots: Slot[]
  /** CID of the input, from the TaskSubmitted event (present where the action says so). */
  inputCID?: string | undefined
  /**
   * The client's X25519 public key the output is sealed to, from the
   * TaskSubmitted event (present with `inputCID`): providers encrypt the
   * output to it (`sealOutput` in `@gridforge/sdk/results`). The zero hash:
   * none, the output is published in the clear.
   */
  resultKey?: Hex | undefined
}
