import { BaseError } from '@gridforge/sdk'

export type TaskRefusedErrorType = TaskRefusedError & { name: 'TaskRefusedError' }

/**
 * The agent will not run this task: its source, metadata, image or input is
 * unusable or hostile, or this host cannot meet it. Permanent: the agent
 * journals the reason and never tries the task again.
 */
export class TaskRefusedError extends BaseError {
  override name = 'TaskRefusedError' as const
  readonly taskId: bigint
  readonly reason: string

  constructor({ taskId, reason, cause }: { taskId: bigint; reason: string; cause?: unknown }) {
    super(`Task ${taskId} refused: ${reason}`, { cause })
    this.taskId = taskId
    this.reason = reason
  }
}

export type LeaseSourceRefusedErrorType = LeaseSourceRefusedError & { name: 'LeaseSourceRefusedError' }

/**
 * A lease source this agent cannot serve, whatever it retries: its metadata is not a document, names no
 * image or another image than the digest on chain, or asks for egress the policy does not allow. Checked
 * before a lease is accepted: an accepted lease that cannot start would only be reported offline.
 */
export class LeaseSourceRefusedError extends BaseError {
  override name = 'LeaseSourceRefusedError' as const
  readonly sourceId: number
  readonly reason: string

  constructor({ sourceId, reason, cause }: { sourceId: number; reason: string; cause?: unknown }) {
    super(`Lease source ${sourceId} refused: ${reason}`, { cause })
    this.sourceId = sourceId
    this.reason = reason
  }
}

export type TaskOutputRejectedErrorType = TaskOutputRejectedError & { name: 'TaskOutputRejectedError' }

/**
 * What a task left in its output directory cannot be stored: a FIFO, a socket,
 * a device, a link pointing out of the tree, or a file the agent cannot read.
 * Permanent: trying again reads the same directory.
 */
export class TaskOutputRejectedError extends BaseError {
  override name = 'TaskOutputRejectedError' as const
  readonly taskId: bigint
  readonly reason: string

  constructor({ taskId, reason, cause }: { taskId: bigint; reason: string; cause?: unknown }) {
    super(`Task ${taskId} output rejected: ${reason}`, {
      cause,
      metaMessages: ['A source must leave only regular files, folders and links within its output folder.'],
    })
    this.taskId = taskId
    this.reason = reason
  }
}
