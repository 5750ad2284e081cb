import type { TaskStatus } from '../types/task.js'
import { BaseError } from './base.js'

export type TaskNotOpenErrorType = TaskNotOpenError & { name: 'TaskNotOpenError' }

/**
 * `quoteTask` of a task that no provider can claim any more: every slot is
 * taken, or it settled. Only an `Open` task waits for providers.
 */
export class TaskNotOpenError extends BaseError {
  override name = 'TaskNotOpenError' as const
  readonly taskId: bigint
  readonly status: TaskStatus

  constructor({ taskId, status }: { taskId: bigint; status: TaskStatus }) {
    super(`Task ${taskId} is ${status}, not Open: no provider can claim it now.`, {
      metaMessages: [
        status === 'Claimed' || status === 'Revealing' || status === 'Held' || status === 'Auditing'
          ? `Its slots are taken: follow it with getTask / waitForTask (gridforge task watch ${taskId}).`
          : 'It settled: quote its terms (sourceId, maxPayment, …) to see who would take a new task like it.',
      ],
    })
    this.taskId = taskId
    this.status = status
  }
}

export type SourceInactiveErrorType = SourceInactiveError & { name: 'SourceInactiveError' }

/** `quoteTask` of a source that takes no new tasks (its owner deactivated it): a submission would revert. */
export class SourceInactiveError extends BaseError {
  override name = 'SourceInactiveError' as const
  readonly sourceId: number

  constructor({ sourceId }: { sourceId: number }) {
    super(`Source ${sourceId} is inactive: it takes no new tasks.`, {
      metaMessages: [
        'Use a newer version of it (a source naming it as predecessor), or ask its owner to reactivate it.',
      ],
    })
    this.sourceId = sourceId
  }
}
