import type { Address, Hex } from 'viem'
import type { Requirements } from './requirements.js'

/**
 * Where a task is in its life (DESIGN §2.3):
 * - `Open`: at least one slot is free to claim;
 * - `Claimed`: every slot is claimed, results (1 replica) or commitments are awaited;
 * - `Revealing`: every slot committed, reveals are open until `revealDeadline`;
 * - `Completed`: paid out; `Failed`: the replicas found no majority, refunded;
 *   `Cancelled`: cancelled before any claim, refunded; `Expired`: the deadline passed, refunded.
 */
export type TaskStatus = 'Open' | 'Claimed' | 'Revealing' | 'Completed' | 'Failed' | 'Cancelled' | 'Expired'

/** Where one replica slot is: free, claimed, committed (replicas > 1) or with its result in. */
export type SlotStatus = 'Free' | 'Claimed' | 'Committed' | 'Submitted'

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
] as const

/** The contract's `SlotStatus` enum, by value. */
export const slotStatuses = [
  'Free',
  'Claimed',
  'Committed',
  'Submitted',
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
 * `Cancelled` or `Expired`).
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

/** One replica slot of a task. Fields that do not apply to the slot's status are `undefined`. */
export interface Slot {
  /** The slot's index, 0 to replicas − 1. */
  index: number
  status: SlotStatus
  /** The claimant (`undefined` while free, including after a no-show's slot was reopened). */
  provider: Address | undefined
  /** When the slot was claimed. */
  claimedAt: Date | undefined
  /** While `Claimed`: when the result (1 replica) or the commitment is due; later the slot can be reopened. */
  dueAt: Date | undefined
  /** Replicas > 1, once committed: when the commitment was made. */
  committedAt: Date | undefined
  /** Replicas > 1, while `Committed`: the commitment. */
  commitment: Hex | undefined
  /** Replicas > 1, once revealed: the digest of the result (equal digests agree). */
  resultDigest: Hex | undefined
  /** Replicas > 1, once revealed: the runtime counted for payment (1 replica: see `getTaskResult`). */
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
  slots: Slot[]
  /** CID of the input, from the TaskSubmitted event (present where the action says so). */
  inputCID?: string | undefined
}
