import type { Address } from 'viem'
import { BaseError } from '../errors/base.js'
import type { InvalidField } from '../errors/validation.js'

export type InvalidReceiptErrorType = InvalidReceiptError & { name: 'InvalidReceiptError' }

/**
 * A receipt document (or the receipt given to sign) does not match the receipt
 * schema. `fields` lists every bad field: wrong types, out-of-range numbers,
 * missing fields and unknown ones.
 */
export class InvalidReceiptError extends BaseError {
  override name = 'InvalidReceiptError' as const
  readonly fields: readonly InvalidField[]

  constructor({ fields, cause }: { fields: readonly InvalidField[]; cause?: unknown }) {
    const first = fields[0]
    super(
      fields.length === 1 && first !== undefined
        ? `Invalid receipt: \`${first.path}\`: ${first.message}`
        : `Invalid receipt: ${fields.length} invalid fields`,
      { cause, metaMessages: fields.map((field) => `- ${field.path}: ${field.message}`) },
    )
    this.fields = fields
  }
}

export type ReceiptSignerMismatchErrorType = ReceiptSignerMismatchError & {
  name: 'ReceiptSignerMismatchError'
}

/** The account asked to sign a receipt is not the receipt's `provider`: the signature would not verify. */
export class ReceiptSignerMismatchError extends BaseError {
  override name = 'ReceiptSignerMismatchError' as const
  readonly provider: Address
  readonly signer: Address

  constructor({ provider, signer }: { provider: Address; signer: Address }) {
    super(`Cannot sign a receipt of provider ${provider} with account ${signer}`, {
      metaMessages: [
        'Sign with the provider account that claimed the task, or set `provider` to the signer.',
      ],
    })
    this.provider = provider
    this.signer = signer
  }
}

export type TaskNotSettledErrorType = TaskNotSettledError & { name: 'TaskNotSettledError' }

/** The task has no settlement yet (it is open, claimed or revealing), so its receipts cannot be checked. */
export class TaskNotSettledError extends BaseError {
  override name = 'TaskNotSettledError' as const
  readonly taskId: bigint
  /** The task's status now: `Open`, `Claimed`, `Revealing`, `Held` or `Auditing`. */
  readonly status: string

  constructor({ taskId, status }: { taskId: bigint; status: string }) {
    super(`Task ${taskId} is not settled yet (status ${status})`, {
      metaMessages: [
        status === 'Revealing'
          ? 'Reveals are open: wait for the last reveal, or call finalizeTask once the reveal window closes.'
          : status === 'Held'
            ? 'The result waits for its audit draw: call releaseResult (anyone may, two blocks after the submission), then ask again.'
            : status === 'Auditing'
              ? 'The result is being audited: wait for the verdict (getAudit), then ask again.'
              : 'Wait for the task to settle (waitForTask), then ask again.',
      ],
    })
    this.taskId = taskId
    this.status = status
  }
}

export type ReceiptNotSubmittedErrorType = ReceiptNotSubmittedError & { name: 'ReceiptNotSubmittedError' }

/** The task settled without a submitted (or revealed) result for the asked slot, so there is no receipt. */
export class ReceiptNotSubmittedError extends BaseError {
  override name = 'ReceiptNotSubmittedError' as const
  readonly taskId: bigint
  readonly slot: number | undefined
  /** The task's final status, e.g. `Expired` or `Cancelled`. */
  readonly status: string

  constructor({ taskId, slot, status }: { taskId: bigint; slot?: number | undefined; status: string }) {
    super(
      slot === undefined
        ? `Task ${taskId} has no submitted result (status ${status})`
        : `Slot ${slot} of task ${taskId} has no submitted result (status ${status})`,
      {
        metaMessages: [
          slot === undefined
            ? 'Only tasks whose providers submitted or revealed a result have receipts.'
            : 'Leave `slot` out to get the receipts of every slot that revealed.',
        ],
      },
    )
    this.taskId = taskId
    this.slot = slot
    this.status = status
  }
}

export type ReceiptNotFoundErrorType = ReceiptNotFoundError & { name: 'ReceiptNotFoundError' }

/** The store does not have the receipt document whose CID the provider submitted. */
export class ReceiptNotFoundError extends BaseError {
  override name = 'ReceiptNotFoundError' as const
  readonly taskId: bigint
  readonly slot: number
  readonly cid: string

  constructor({ taskId, slot, cid, cause }: { taskId: bigint; slot: number; cid: string; cause?: unknown }) {
    super(`Receipt ${cid} of task ${taskId} (slot ${slot}) is not in the store`, {
      cause,
      metaMessages: [
        'Read it from a store that has it: the Kubo node or gateway the provider published to.',
        'A provider that never published its receipt cannot be verified.',
      ],
    })
    this.taskId = taskId
    this.slot = slot
    this.cid = cid
  }
}

export type ReceiptTooLargeErrorType = ReceiptTooLargeError & { name: 'ReceiptTooLargeError' }

/** The receipt document is larger than `maxBytes`: receipts are small, so it was not read. */
export class ReceiptTooLargeError extends BaseError {
  override name = 'ReceiptTooLargeError' as const
  readonly taskId: bigint
  readonly slot: number
  readonly cid: string
  readonly maxBytes: number

  constructor({
    taskId,
    slot,
    cid,
    maxBytes,
    cause,
  }: {
    taskId: bigint
    slot: number
    cid: string
    maxBytes: number
    cause?: unknown
  }) {
    super(`Receipt ${cid} of task ${taskId} (slot ${slot}) is larger than ${maxBytes} bytes`, {
      cause,
      metaMessages: ['Raise `maxBytes` only if you trust this provider: a receipt is about 1 kB.'],
    })
    this.taskId = taskId
    this.slot = slot
    this.cid = cid
    this.maxBytes = maxBytes
  }
}

export type TaskLogsNotFoundErrorType = TaskLogsNotFoundError & { name: 'TaskLogsNotFoundError' }

/** A settled task's event (its submission or settlement) is not in the logs read: the block range misses it. */
export class TaskLogsNotFoundError extends BaseError {
  override name = 'TaskLogsNotFoundError' as const
  readonly taskId: bigint
  readonly event: string

  constructor({ taskId, event, fromBlock }: { taskId: bigint; event: string; fromBlock: bigint }) {
    super(`No ${event} event of task ${taskId} from block ${fromBlock} on`, {
      metaMessages: [
        'Check `fromBlock` and the deployment (its `blockNumber` and market address) for this chain.',
        'Some RPC nodes prune old logs: use one that keeps them.',
      ],
    })
    this.taskId = taskId
    this.event = event
  }
}
