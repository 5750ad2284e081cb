import type { Hash } from 'viem'
import type { AuditVerdict, TaskStatus } from '../types/task.js'
import { formatAmount, type TokenInfo } from '../utils/amount.js'
import { BaseError } from './base.js'

export type TaskNotFoundErrorType = TaskNotFoundError & { name: 'TaskNotFoundError' }

/** No task with this id exists in the deployment's market. */
export class TaskNotFoundError extends BaseError {
  override name = 'TaskNotFoundError' as const
  readonly taskIds: readonly bigint[]

  constructor({ taskIds, cause }: { taskIds: readonly bigint[]; cause?: unknown }) {
    super(
      taskIds.length === 1
        ? `Task ${taskIds[0]} does not exist.`
        : `Tasks ${taskIds.join(', ')} do not exist.`,
      {
        cause,
        metaMessages: ['Check the task id and that the deployment is the one the task was submitted to.'],
      },
    )
    this.taskIds = taskIds
  }
}

/** What every error about a task that settled without a result carries. */
export interface TaskSettlementErrorParameters {
  taskId: bigint
  /** Escrow returned to the client's market balance (the whole escrow, in base units). */
  refund: bigint
  /** The transaction that settled the task, when known. */
  hash?: Hash | undefined
  token?: TokenInfo | undefined
}

const refunded = (refund: bigint, token?: TokenInfo) =>
  `${formatAmount(refund, token)} went back to the client's market balance (withdraw it, or submit again).`

export type TaskFailedErrorType = TaskFailedError & { name: 'TaskFailedError' }

/**
 * The replicas' results found no majority, or the audit of a single result
 * (or the dispute of replicas whose results differed) overturned it or
 * reached no verdict: nobody was paid for the result and the escrow was
 * refunded.
 */
export class TaskFailedError extends BaseError {
  override name = 'TaskFailedError' as const
  readonly taskId: bigint
  readonly status = 'Failed' as const satisfies TaskStatus
  readonly refund: bigint
  readonly hash: Hash | undefined
  /**
   * An audited result, or a dispute: the audit's verdict (`overturned`,
   * `unresolved`, or for a dispute `lapsed` without a majority); `undefined`
   * for replicas that were not disputed.
   */
  readonly audit: AuditVerdict | undefined
  /** Whether the replicas' results differed and were audited (a dispute): `audit` is its verdict. */
  readonly disputed: boolean

  constructor({
    taskId,
    refund,
    hash,
    token,
    audit,
    disputed = false,
  }: TaskSettlementErrorParameters & { audit?: AuditVerdict | undefined; disputed?: boolean | undefined }) {
    super(
      audit === 'overturned'
        ? disputed
          ? `Task ${taskId} failed: its auditors found a result none of its replicas revealed, and the replicas that revealed were slashed.`
          : `Task ${taskId} failed: its audit found another result than the provider's, which was slashed.`
        : audit === 'unresolved'
          ? `Task ${taskId} failed: its auditors agreed on no result.`
          : `Task ${taskId} failed: the replicas' results found no majority.`,
      {
        metaMessages: [
          refunded(refund, token),
          audit === undefined || audit === 'lapsed'
            ? 'A source whose outputs differ between runs is not deterministic: submit with replicas: 1.'
            : 'Submit again: another provider will run it. If auditors keep disagreeing, the source may not be deterministic.',
        ],
      },
    )
    this.taskId = taskId
    this.refund = refund
    this.hash = hash
    this.audit = audit
    this.disputed = disputed
  }
}

export type TaskExpiredErrorType = TaskExpiredError & { name: 'TaskExpiredError' }

/** The task's deadline passed without a result and it was expired: the escrow was refunded. */
export class TaskExpiredError extends BaseError {
  override name = 'TaskExpiredError' as const
  readonly taskId: bigint
  readonly status = 'Expired' as const satisfies TaskStatus
  readonly refund: bigint
  readonly hash: Hash | undefined

  constructor({ taskId, refund, hash, token }: TaskSettlementErrorParameters) {
    super(`Task ${taskId} expired: its deadline passed without a result.`, {
      metaMessages: [
        refunded(refund, token),
        'Submit it again with a later deadline or a higher maxPayment.',
      ],
    })
    this.taskId = taskId
    this.refund = refund
    this.hash = hash
  }
}

export type TaskCancelledErrorType = TaskCancelledError & { name: 'TaskCancelledError' }

/** The client cancelled the task before anyone claimed it: the escrow was refunded. */
export class TaskCancelledError extends BaseError {
  override name = 'TaskCancelledError' as const
  readonly taskId: bigint
  readonly status = 'Cancelled' as const satisfies TaskStatus
  readonly refund: bigint
  readonly hash: Hash | undefined

  constructor({ taskId, refund, hash, token }: TaskSettlementErrorParameters) {
    super(`Task ${taskId} was cancelled.`, { metaMessages: [refunded(refund, token)] })
    this.taskId = taskId
    this.refund = refund
    this.hash = hash
  }
}

export type TaskDeadlinePassedErrorType = TaskDeadlinePassedError & { name: 'TaskDeadlinePassedError' }

/**
 * The task's deadline passed without a result but nobody has expired it yet:
 * it can never complete now; `expireTask` refunds the escrow.
 */
export class TaskDeadlinePassedError extends BaseError {
  override name = 'TaskDeadlinePassedError' as const
  readonly taskId: bigint
  /** Still `Open` or `Claimed` on chain. */
  readonly status: TaskStatus
  readonly deadline: Date
  /** What `expireTask` will return to the client's market balance. */
  readonly refund: bigint

  constructor({
    taskId,
    status,
    deadline,
    refund,
    token,
  }: {
    taskId: bigint
    status: TaskStatus
    deadline: Date
    refund: bigint
    token?: TokenInfo | undefined
  }) {
    super(`Task ${taskId} passed its deadline (${deadline.toISOString()}) without a result.`, {
      metaMessages: [
        `Call expireTask({ taskId: ${taskId}n }) (anyone may): it refunds ${formatAmount(refund, token)} to the client's market balance and slashes overdue claimants.`,
      ],
    })
    this.taskId = taskId
    this.status = status
    this.deadline = deadline
    this.refund = refund
  }
}

export type TaskRevealClosedErrorType = TaskRevealClosedError & { name: 'TaskRevealClosedError' }

/**
 * The reveal window of a replicated task closed without every reveal and
 * nobody has finalised it yet: `finalizeTask` settles it on the reveals made.
 */
export class TaskRevealClosedError extends BaseError {
  override name = 'TaskRevealClosedError' as const
  readonly taskId: bigint
  readonly status = 'Revealing' as const satisfies TaskStatus
  readonly revealDeadline: Date

  constructor({ taskId, revealDeadline }: { taskId: bigint; revealDeadline: Date }) {
    super(`Task ${taskId}'s reveal window closed (${revealDeadline.toISOString()}) before every reveal.`, {
      metaMessages: [
        `Call finalizeTask({ taskId: ${taskId}n }) (anyone may): a majority of the reveals made is paid, the rest is slashed or refunded.`,
      ],
    })
    this.taskId = taskId
    this.revealDeadline = revealDeadline
  }
}

export type WaitForTaskTimeoutErrorType = WaitForTaskTimeoutError & { name: 'WaitForTaskTimeoutError' }

/** `waitForTask` gave up after its `timeout`; the task itself goes on. */
export class WaitForTaskTimeoutError extends BaseError {
  override name = 'WaitForTaskTimeoutError' as const
  readonly taskId: bigint
  /** The last status seen. */
  readonly status: TaskStatus | undefined
  readonly timeout: number

  constructor({
    taskId,
    status,
    timeout,
    cause,
  }: {
    taskId: bigint
    status: TaskStatus | undefined
    timeout: number
    /** The last failed read, if reads were failing. */
    cause?: unknown
  }) {
    super(
      `Timed out after ${timeout} ms waiting for task ${taskId}${status === undefined ? '' : ` (still ${status})`}.`,
      {
        cause,
        metaMessages: [
          'The task goes on: wait again, or check it later with getTask; it settles by its deadline at the latest.',
        ],
      },
    )
    this.taskId = taskId
    this.status = status
    this.timeout = timeout
  }
}
