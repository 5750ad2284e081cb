import type { Account, Address, Chain, Client, Transport } from 'viem'
import * as z from 'zod/mini'
import { TaskClaimed, TaskSubmitted } from '../abis/taskMarket.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import { blockWindow, getLogsPaginated } from '../internal/logs.js'
import * as s from '../internal/schemas.js'
import { validate } from '../internal/validate.js'
import type { DeploymentParameter } from '../types/deployment.js'
import { type Task, type TaskStatus, taskStatuses } from '../types/task.js'
import { getTasks } from './getTasks.js'

/** Most task ids OR-ed in one `eth_getLogs` topic (geth refuses more than 1,000). */
const idsPerTopic = 1_000

export type ListTasksParameters = DeploymentParameter & {
  /** Only tasks this account submitted. */
  client?: Address | undefined
  /** Only tasks this provider claimed (including claims later reopened). */
  provider?: Address | undefined
  /** Only tasks of this source. */
  sourceId?: number | bigint | undefined
  /** Only tasks in this status (or one of these), as they are now. */
  status?: TaskStatus | readonly TaskStatus[] | undefined
  /** First block to search for submissions (or claims), inclusive; default the deployment's block. */
  fromBlock?: bigint | undefined
  /** Last block to search, inclusive; default the latest. */
  toBlock?: bigint | undefined
  /**
   * Most blocks per `eth_getLogs` request. Default: the whole range in one
   * request; a range the RPC refuses is halved until it passes. Set it to your
   * RPC's limit (e.g. `2_000n`) to skip the refusals.
   */
  blockRange?: bigint | undefined
}

/** The tasks found, by ascending id, each with its `inputCID`. */
export type ListTasksReturnType = Task[]

export type ListTasksErrorType = InvalidParametersErrorType | ContractRevertedErrorType | Error

const statusName = z.enum(taskStatuses.filter((status) => status !== 'None') as [TaskStatus, ...TaskStatus[]])

const schema = z.object({
  client: z.optional(s.address),
  provider: z.optional(s.address),
  sourceId: z.optional(s.uint(32)),
  status: z.optional(z.union([statusName, z.array(statusName)])),
  fromBlock: z.optional(z.bigint()),
  toBlock: z.optional(z.bigint()),
  blockRange: z.optional(z.bigint()),
})

/**
 * Lists tasks from the market's events (TaskSubmitted, or TaskClaimed with a
 * `provider`), block range by block range, then reads their state with one
 * multicall per 1,000 tasks and keeps those in `status`. Filters on indexed
 * topics run on the node, so a client's tasks cost the same few requests on a
 * busy market as on an idle one.
 *
 * @example
 * import { createPublicClient, http } from 'viem'
 * import { hardhat } from 'viem/chains'
 * import { getDeployment } from '@gridforge/contracts'
 * import { listTasks } from '@gridforge/sdk'
 *
 * const client = createPublicClient({ chain: hardhat, transport: http() })
 * const open = await listTasks(client, {
 *   deployment: getDeployment(31337),
 *   client: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
 *   status: ['Open', 'Claimed'],
 * })
 * for (const task of open) console.log(task.taskId, task.status, task.inputCID)
 */
export async function listTasks(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: ListTasksParameters,
): Promise<ListTasksReturnType> {
  const { deployment } = parameters
  const action = 'listTasks'
  const params = validate(action, schema, parameters)
  const deployedAt = BigInt(deployment.blockNumber)
  // One end for every query, so that claims and submissions cover the same blocks.
  const { fromBlock, toBlock } = await blockWindow(client, action, deployment, params)
  const range = { address: deployment.contracts.market, fromBlock, toBlock, blockRange: params.blockRange }
  const submittedArgs = {
    ...(params.client === undefined ? {} : { client: params.client }),
    ...(params.sourceId === undefined ? {} : { sourceId: params.sourceId }),
  }

  const [submitted, claimed] = await Promise.all([
    getLogsPaginated(client, { ...range, event: TaskSubmitted, args: submittedArgs }),
    params.provider === undefined
      ? undefined
      : getLogsPaginated(client, { ...range, event: TaskClaimed, args: { provider: params.provider } }),
  ])
  const inputs = new Map(submitted.map((log) => [log.args.taskId, log.args.inputCID]))
  const ids = [...new Set((claimed ?? submitted).map((log) => log.args.taskId))].sort((a, b) =>
    a < b ? -1 : a > b ? 1 : 0,
  )

  const statuses =
    params.status === undefined
      ? undefined
      : new Set(Array.isArray(params.status) ? params.status : [params.status])
  // State as of the end of the range when that is the latest block (a historical toBlock still reads state now).
  const blockNumber = params.toBlock === undefined ? toBlock : undefined
  const tasks = (await getTasks(client, { deployment, taskIds: ids, blockNumber })).filter(
    (task) =>
      (statuses === undefined || statuses.has(task.status)) &&
      (params.client === undefined || task.client.toLowerCase() === params.client.toLowerCase()) &&
      (params.sourceId === undefined || task.sourceId === params.sourceId),
  )

  // Tasks claimed in the range but submitted before it: find their inputs by id.
  const missing = tasks.filter((task) => !inputs.has(task.taskId)).map((task) => task.taskId)
  for (let start = 0; start < missing.length && fromBlock > deployedAt; start += idsPerTopic) {
    const logs = await getLogsPaginated(client, {
      ...range,
      fromBlock: deployedAt,
      toBlock: fromBlock - 1n,
      event: TaskSubmitted,
      args: { taskId: missing.slice(start, start + idsPerTopic) },
    })
    for (const log of logs) inputs.set(log.args.taskId, log.args.inputCID)
  }
  return tasks.map((task) => ({ ...task, inputCID: inputs.get(task.taskId) }))
}
