import type { Account, Chain, Client, Transport } from 'viem'
import { getBlock } from 'viem/actions'
import { getAction } from 'viem/utils'
import * as z from 'zod/mini'
import {
  TaskCancelledError,
  type TaskCancelledErrorType,
  TaskDeadlinePassedError,
  type TaskDeadlinePassedErrorType,
  TaskExpiredError,
  type TaskExpiredErrorType,
  TaskFailedError,
  type TaskFailedErrorType,
  TaskNotFoundError,
  type TaskNotFoundErrorType,
  TaskRevealClosedError,
  type TaskRevealClosedErrorType,
  WaitForTaskTimeoutError,
  type WaitForTaskTimeoutErrorType,
} from '../errors/task.js'
import { InvalidParametersError, type InvalidParametersErrorType } from '../errors/validation.js'
import * as s from '../internal/schemas.js'
import { validate } from '../internal/validate.js'
import type { DeploymentParameter } from '../types/deployment.js'
import { isFinalStatus, type Task, type TaskStatus } from '../types/task.js'
import { escrowOf } from './escrow.js'
import { getTask } from './getTask.js'
import { type GetTaskResultReturnType, getTaskResult } from './getTaskResult.js'
import { watchTasks } from './watchTasks.js'

/** A change of a waited-for task's status (the first call reports the status found). */
export interface TaskProgress {
  status: TaskStatus
  /** `undefined` on the first call. */
  previousStatus: TaskStatus | undefined
  task: Task
  /**
   * The latest block's time when the task was read: a slot whose `claimedAt`
   * is later is a seat still raced for (final at its `claimedAt`).
   */
  readAt: Date
}

export type WaitForTaskParameters = DeploymentParameter & {
  taskId: number | bigint
  /** Give up after this many milliseconds (default: wait until the task settles or can no longer complete). */
  timeout?: number | undefined
  /** Milliseconds between reads of the task, in case events are missed (default: the client's `pollingInterval`). */
  pollingInterval?: number | undefined
  /** Called with the status found, then on each change (e.g. to show progress). */
  onProgress?: ((progress: TaskProgress) => void) | undefined
}

export type WaitForTaskReturnType = {
  /** The task as settled. */
  task: Task
  /** Its results and settlement. */
  result: GetTaskResultReturnType
}

export type WaitForTaskErrorType =
  | InvalidParametersErrorType
  | TaskNotFoundErrorType
  | TaskFailedErrorType
  | TaskExpiredErrorType
  | TaskCancelledErrorType
  | TaskDeadlinePassedErrorType
  | TaskRevealClosedErrorType
  | WaitForTaskTimeoutErrorType
  | Error

const schema = z.object({
  taskId: s.taskId,
  timeout: z.optional(s.uint(31)),
  pollingInterval: z.optional(s.uint(31)),
})

/**
 * Waits until a task completes and resolves with it and its results. Rejects
 * with a typed error when it settles otherwise ({@link TaskFailedError},
 * {@link TaskExpiredError}, {@link TaskCancelledError}, each with the
 * refund), when it can no longer complete but nobody has settled it yet
 * ({@link TaskDeadlinePassedError}: call `expireTask`;
 * {@link TaskRevealClosedError}: call `finalizeTask`), or after `timeout`
 * ({@link WaitForTaskTimeoutError}). Returns at once if the task already
 * settled. Listens to the task's claim and settlement events and also reads
 * the task every `pollingInterval`, so missed events only cost latency. A
 * `Held` or `Auditing` result (an audit, or the dispute of replicas whose
 * results differ) is not settled: it waits on (someone must call
 * `releaseResult` on a held one, and `finalizeTask` on an audit round whose
 * time is over; providers' agents do).
 *
 * @example
 * import { createPublicClient, http } from 'viem'
 * import { hardhat } from 'viem/chains'
 * import { getDeployment } from '@gridforge/contracts'
 * import { TaskFailedError, waitForTask } from '@gridforge/sdk'
 *
 * const client = createPublicClient({ chain: hardhat, transport: http() })
 * try {
 *   const { result } = await waitForTask(client, {
 *     deployment: getDeployment(31337),
 *     taskId: 7n,
 *     timeout: 3_600_000,
 *     onProgress: ({ status }) => console.log('task 7 is', status),
 *   })
 *   console.log('output:', result.resultCID)
 * } catch (error) {
 *   if (error instanceof TaskFailedError) console.log('refunded', error.refund)
 *   else throw error
 * }
 */
export function waitForTask(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: WaitForTaskParameters,
): Promise<WaitForTaskReturnType> {
  const { deployment, onProgress } = parameters
  let params: z.output<typeof schema>
  try {
    params = validate('waitForTask', schema, parameters)
  } catch (error) {
    return Promise.reject(error)
  }
  const { taskId, timeout } = params
  const pollingInterval = params.pollingInterval ?? client.pollingInterval
  const token = deployment.token

  return new Promise<WaitForTaskReturnType>((resolve, reject) => {
    let done = false
    let previousStatus: TaskStatus | undefined
    let lastError: unknown
    let checking = false
    let again = false
    let unwatch: (() => void) | undefined
    let poller: ReturnType<typeof setTimeout> | undefined
    const timer =
      timeout === undefined
        ? undefined
        : setTimeout(
            () =>
              finish(() =>
                reject(
                  new WaitForTaskTimeoutError({
                    taskId,
                    status: previousStatus,
                    timeout,
                    ...(lastError === undefined ? {} : { cause: lastError }),
                  }),
                ),
              ),
            timeout,
          )

    const finish = (settle: () => void) => {
      if (done) return
      done = true
      clearTimeout(timer)
      clearTimeout(poller)
      unwatch?.()
      settle()
    }

    /** Reads the task and settles the promise if it is final or stuck. */
    const check = async () => {
      if (done) return
      if (checking) {
        again = true
        return
      }
      checking = true
      try {
        const [task, block] = await Promise.all([
          getTask(client, { deployment, taskId }),
          getAction(client, getBlock, 'getBlock')({ blockTag: 'latest' }),
        ])
        if (done) return
        if (task.status !== previousStatus) {
          const readAt = new Date(Number(block.timestamp) * 1000)
          const progress = { status: task.status, previousStatus, task, readAt }
          previousStatus = task.status
          onProgress?.(progress)
        }
        const now = Number(block.timestamp) * 1000
        const refund = escrowOf({ ...task, auditable: task.auditBps > 0 })
        if (isFinalStatus(task.status)) {
          const result = await getTaskResult(client, { deployment, taskId })
          const settled = {
            taskId,
            refund: result.settlement?.refund ?? refund,
            hash: result.settlement?.hash,
            token,
          }
          if (task.status === 'Completed') return finish(() => resolve({ task, result }))
          if (task.status === 'Failed') {
            const disputed = task.replicas > 1 && task.audit !== undefined
            return finish(() =>
              reject(new TaskFailedError({ ...settled, audit: task.audit?.verdict, disputed })),
            )
          }
          if (task.status === 'Expired') return finish(() => reject(new TaskExpiredError(settled)))
          return finish(() => reject(new TaskCancelledError(settled)))
        }
        switch (task.status) {
          case 'Open':
          case 'Claimed':
            // No result can come in after the deadline: only expireTask can settle it now.
            if (now > task.deadline.getTime()) {
              const { status, deadline } = task
              return finish(() =>
                reject(new TaskDeadlinePassedError({ taskId, status, deadline, refund, token })),
              )
            }
            break
          case 'Revealing':
            if (task.revealDeadline !== undefined && now > task.revealDeadline.getTime()) {
              const { revealDeadline } = task
              return finish(() => reject(new TaskRevealClosedError({ taskId, revealDeadline })))
            }
            break
        }
      } catch (error) {
        if (error instanceof TaskNotFoundError || error instanceof InvalidParametersError) {
          return finish(() => reject(error))
        }
        // A failed read (network, RPC) is retried at the next poll; the timeout says why it gave up.
        lastError = error
      } finally {
        checking = false
        if (again && !done) {
          again = false
          void check()
        }
      }
    }

    const poll = async () => {
      await check()
      if (!done) poller = setTimeout(poll, pollingInterval)
    }

    // Read once first: a task that already settled needs no watch.
    void check().then(() => {
      if (done) return
      unwatch = watchTasks(client, {
        deployment,
        taskId,
        pollingInterval,
        onClaimed: () => void check(),
        onSettled: () => void check(),
      })
      poller = setTimeout(poll, pollingInterval)
    })
  })
}
