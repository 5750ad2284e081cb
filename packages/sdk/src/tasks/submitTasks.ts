import { type Account, type Chain, type Client, type Hex, parseEventLogs, type Transport } from 'viem'
import { ERC20InsufficientBalance } from '../abis/gridToken.js'
import { errors as sourceRegistryErrors } from '../abis/sourceRegistry.js'
import {
  submitTasks as submitTasksFunction,
  TaskSubmitted,
  errors as taskMarketErrors,
} from '../abis/taskMarket.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import { sourceRegistryHints } from '../errors/hints/registries.js'
import { taskMarketHints } from '../errors/hints/taskMarket.js'
import { taskSubmissionHints } from '../errors/hints/taskSubmission.js'
import { EventNotFoundError, type TransactionRevertedErrorType } from '../errors/transaction.js'
import {
  type InvalidField,
  InvalidParametersError,
  type InvalidParametersErrorType,
} from '../errors/validation.js'
import { parseFields } from '../internal/validate.js'
import { type WriteOptions, type WriteResult, writeAndWait, writeOptions } from '../internal/write.js'
import type { DeploymentParameter } from '../types/deployment.js'
import { gridToken } from '../utils/amount.js'
import {
  deadlineAt,
  deadlineField,
  latestTimestamp,
  type SubmitTaskParameters,
  taskFields,
  toTaskParams,
  type ValidTask,
} from './submitTask.js'

/** One task of a batch: the parameters of `submitTask` without the deployment and write options. */
export type TaskSubmission = Omit<SubmitTaskParameters, keyof DeploymentParameter | keyof WriteOptions>

export type SubmitTasksParameters = DeploymentParameter &
  WriteOptions & {
    /** The tasks, at least one. Each is escrowed like `submitTask`; the shortfall is pulled once. */
    tasks: readonly TaskSubmission[]
  }

export type SubmitTasksReturnType = WriteResult & {
  /** The new task ids, in the order of `tasks` (consecutive). */
  taskIds: bigint[]
  /** Each task's id, escrow, deadline (Unix seconds) and result key (zero: none), in the order of `tasks`. */
  tasks: { taskId: bigint; escrow: bigint; deadline: number; resultKey: Hex }[]
  /** Escrowed in all, in base units. */
  escrow: bigint
}

export type SubmitTasksErrorType =
  | InvalidParametersErrorType
  | ContractRevertedErrorType
  | TransactionRevertedErrorType
  | Error

/**
 * Submits several tasks in one transaction, escrowing each like
 * {@link submitTask} and pulling any shortfall from the token allowance once.
 * Every task is validated before sending; a bad field is named by its place,
 * e.g. `tasks.3.maxPayment`.
 *
 * @example
 * import { submitTasks } from '@gridforge/sdk'
 *
 * const { taskIds } = await submitTasks(client, {
 *   deployment,
 *   tasks: inputs.map((input) => ({ sourceId: 1, input, maxPayment: '2', deadline: '6h' })),
 * })
 */
export async function submitTasks(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: SubmitTasksParameters,
): Promise<SubmitTasksReturnType> {
  const { deployment } = parameters
  const token = deployment.token ?? gridToken
  const action = 'submitTasks'
  const tasks = validateTasks(action, token.decimals, parameters.tasks)
  const now = await latestTimestamp(client)
  const deadlines = tasks.map((task) => deadlineAt(now, task.deadline ?? 86_400))
  const late = deadlines.flatMap((deadline, index) =>
    deadline === undefined ? [deadlineField(`tasks.${index}.deadline`)] : [],
  )
  if (late.length > 0) throw new InvalidParametersError({ action, fields: late })
  const market = deployment.contracts.market
  const receipt = await writeAndWait(client, {
    action,
    hints: { ...sourceRegistryHints, ...taskMarketHints, ...taskSubmissionHints },
    token,
    address: market,
    abi: [submitTasksFunction, ...taskMarketErrors, ...sourceRegistryErrors, ERC20InsufficientBalance],
    functionName: 'submitTasks',
    args: [tasks.map((task, index) => toTaskParams(task, deadlines[index] as number))],
    ...writeOptions(parameters),
  })
  const submitted = parseEventLogs({
    abi: [TaskSubmitted],
    logs: receipt.logs.filter((log) => log.address.toLowerCase() === market.toLowerCase()),
  })
  if (submitted.length !== tasks.length) {
    throw new EventNotFoundError({ action, event: 'TaskSubmitted', hash: receipt.transactionHash })
  }
  const results = submitted.map(({ args }, index) => ({
    taskId: args.taskId,
    escrow: args.escrow,
    deadline: deadlines[index] as number,
    resultKey: args.resultKey,
  }))
  return {
    taskIds: results.map((task) => task.taskId),
    tasks: results,
    escrow: results.reduce((sum, task) => sum + task.escrow, 0n),
    hash: receipt.transactionHash,
    blockNumber: receipt.blockNumber,
  }
}

/** Every task of a batch, validated; a bad field is named `tasks.<index>.<field>`. */
function validateTasks(action: string, decimals: number, tasks: unknown): ValidTask[] {
  if (!Array.isArray(tasks) || tasks.length === 0) {
    throw new InvalidParametersError({
      action,
      fields: [{ path: 'tasks', message: 'pass at least one task' }],
    })
  }
  const invalid: InvalidField[] = []
  const shape = taskFields(decimals)
  const valid = tasks.map((task, index) => parseFields(shape, task, `tasks.${index}.`, invalid))
  if (invalid.length > 0) throw new InvalidParametersError({ action, fields: invalid })
  return valid
}
