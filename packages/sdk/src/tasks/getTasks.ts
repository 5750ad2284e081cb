import type { Account, Chain, Client, Transport } from 'viem'
import { ContractFunctionRevertedError } from 'viem'
import { getBlockNumber, multicall } from 'viem/actions'
import { getAction } from 'viem/utils'
import * as z from 'zod/mini'
import {
  getSlots as getSlotsFunction,
  getTask as getTaskFunction,
  TaskMarketUnknownTask,
} from '../abis/taskMarket.js'
import { type ContractRevertedErrorType, toContractError } from '../errors/contract.js'
import { taskMarketHints } from '../errors/hints/taskMarket.js'
import { TaskNotFoundError, type TaskNotFoundErrorType } from '../errors/task.js'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import { validate } from '../internal/validate.js'
import type { DeploymentParameter } from '../types/deployment.js'
import type { Task } from '../types/task.js'
import { type RawSlots, type RawTask, taskIdSchema, toTask } from './getTask.js'

/**
 * Most tasks read in one `eth_call`. Each costs two calls (task and slots),
 * about 30,000 gas and 1.3 kB of return data; 1,000 stay well inside the
 * 50M-gas `eth_call` cap of common nodes.
 */
export const tasksPerCall = 1_000

export type GetTasksParameters = DeploymentParameter & {
  /** The tasks to read (at most 10,000 at once). */
  taskIds: readonly (number | bigint)[]
  /** Read as of this block (default: the latest; pinned once when more than one call is needed). */
  blockNumber?: bigint | undefined
}

/** The tasks, in the order of `taskIds`. */
export type GetTasksReturnType = Task[]

export type GetTasksErrorType =
  | InvalidParametersErrorType
  | TaskNotFoundErrorType
  | ContractRevertedErrorType
  | Error

const schema = z.object({
  taskIds: z.array(taskIdSchema).check(z.maxLength(10_000, 'at most 10,000 tasks at once')),
  blockNumber: z.optional(z.bigint()),
})

/**
 * Reads many tasks and their slots with Multicall3 (deployless where the
 * chain has no Multicall3 contract, as on Hardhat): one `eth_call` per 1,000
 * tasks.
 *
 * @example
 * import { createPublicClient, http } from 'viem'
 * import { hardhat } from 'viem/chains'
 * import { getDeployment } from '@gridforge/contracts'
 * import { getTasks } from '@gridforge/sdk'
 *
 * const client = createPublicClient({ chain: hardhat, transport: http() })
 * const tasks = await getTasks(client, { deployment: getDeployment(31337), taskIds: [1n, 2n, 3n] })
 * for (const task of tasks) console.log(task.taskId, task.status)
 */
export async function getTasks(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: GetTasksParameters,
): Promise<GetTasksReturnType> {
  const { deployment } = parameters
  const action = 'getTasks'
  const { taskIds, blockNumber: pinned } = validate(action, schema, parameters)
  if (taskIds.length === 0) return []
  const address = deployment.contracts.market
  const contracts = taskIds.flatMap((taskId) => [
    {
      address,
      abi: [getTaskFunction, TaskMarketUnknownTask],
      functionName: 'getTask',
      args: [taskId],
    } as const,
    {
      address,
      abi: [getSlotsFunction, TaskMarketUnknownTask],
      functionName: 'getSlots',
      args: [taskId],
    } as const,
  ])
  const chunks: (typeof contracts)[] = []
  for (let start = 0; start < contracts.length; start += tasksPerCall * 2) {
    chunks.push(contracts.slice(start, start + tasksPerCall * 2))
  }
  // Several calls must see the same block.
  const blockNumber =
    pinned ??
    (chunks.length > 1
      ? await getAction(client, getBlockNumber, 'getBlockNumber')({ cacheTime: 0 })
      : undefined)
  const deployless = client.chain?.contracts?.multicall3 === undefined
  const results = (
    await Promise.all(
      chunks.map((chunk) =>
        getAction(
          client,
          multicall,
          'multicall',
        )({
          contracts: chunk,
          allowFailure: true,
          deployless,
          // The chunks above are the batches: viem must not split them again.
          batchSize: 0,
          blockNumber,
        }),
      ),
    )
  ).flat()

  const tasks: Task[] = []
  const unknown: bigint[] = []
  for (const [index, taskId] of taskIds.entries()) {
    const task = results[index * 2]
    const slots = results[index * 2 + 1]
    if (task?.status === 'success' && slots?.status === 'success') {
      tasks.push(toTask(taskId, task.result as RawTask, slots.result as RawSlots))
      continue
    }
    const error = task?.status === 'failure' ? task.error : slots?.error
    const reverted =
      error instanceof Error && 'walk' in error && typeof error.walk === 'function'
        ? (error.walk(
            (cause: unknown) => cause instanceof ContractFunctionRevertedError,
          ) as ContractFunctionRevertedError | null)
        : null
    if (reverted?.data?.errorName === 'TaskMarketUnknownTask') {
      unknown.push(taskId)
      continue
    }
    throw toContractError(error, { action, hints: taskMarketHints, token: deployment.token })
  }
  if (unknown.length > 0) throw new TaskNotFoundError({ taskIds: unknown })
  return tasks
}
