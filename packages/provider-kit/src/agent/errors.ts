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
