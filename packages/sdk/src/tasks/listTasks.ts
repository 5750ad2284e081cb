import type { Account, Address, Chain, Client, Hex, Transport } from 'viem'
import { getBlockNumber } from 'viem/actions'
import { getAction } from 'viem/utils'
import * as z from 'zod/mini'
import { TaskClaimed, TaskSubmitted } from '../abis/taskMarket.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import type { IndexerParameterErrorType } from '../indexer/errors.js'
import { indexedTaskIds } from '../indexer/tasks.js'
import { type IndexerParameter, withIndexer } from '../indexer/withIndexer.js'
import { blockWindow, getLogsPaginated } from '../internal/logs.js'
import * as s from '../internal/schemas.js'
import { validate } from '../internal/validate.js'
import type { Deployment, DeploymentParameter } from '../types/deployment.js'
import { type Task, type TaskStatus, taskStatuses } from '../types/task.js'
import { getTasks } from './getTasks.js'

/** Most task ids OR-ed in one `eth_getLogs` topic (geth refuses more than 1,000). */
const idsPerTopic = 1_000

/** With a `limit` and a filter that drops tasks, states are read this many at a time until the page is full. */
export const tasksPerPage = 10_000

export type ListTasksParameters = DeploymentParameter &
  IndexerParameter & {
    /** Only tasks this account submitted. */
    client?: Address | undefined
    /**
     * Only tasks this provider claimed (including claims later reopened, and
     * seats a better ticket took in the race for the seats of replicas). Read
     * through an indexer, also the tasks it joined the audit of.
     */
    provider?: Address | undefined
    /** Only tasks of this source. */
    sourceId?: number | bigint | undefined
    /** Only tasks in this status (or one of these), as they are now. */
    status?: TaskStatus | readonly TaskStatus[] | undefined
    /**
     * First block to search for submissions (or claims), inclusive; default the
     * deployment's block. With `fromBlock` or `toBlock` the chain's logs are read,
     * indexer or not: the indexer lists whole histories.
     */
    fromBlock?: bigint | undefined
    /** Last block to search, inclusive; default the latest. */
    toBlock?: bigint | undefined
    /**
     * Most blocks per `eth_getLogs` request. Default: the whole range in one
     * request; a range the RPC refuses is halved until it passes. Set it to your
     * RPC's limit (e.g. `2_000n`) to skip the refusals.
     */
    blockRange?: bigint | undefined
    /**
     * Most tasks to return (default: every one found). With `afterTaskId`, pages
     * through a long history: a page shorter than `limit` is the last.
     */
    limit?: number | undefined
    /** Only tasks with a higher id: pass the last `taskId` of the previous page to get the next. */
    afterTaskId?: number | bigint | undefined
  }

/** The tasks found, by ascending id, each with its `inputCID` and `resultKey`. */
export type ListTasksReturnType = Task[]

export type ListTasksErrorType =
  | InvalidParametersErrorType
  | IndexerParameterErrorType
  | ContractRevertedErrorType
  | Error

const statusName = z.enum(taskStatuses.filter((status) => status !== 'None') as [TaskStatus, ...TaskStatus[]])

const schema = z.object({
  client: z.optional(s.address),
  provider: z.optional(s.address),
  sourceId: z.optional(s.uint(32)),
  status: z.optional(z.union([statusName, z.array(statusName)])),
  fromBlock: z.optional(z.bigint()),
  toBlock: z.optional(z.bigint()),
  blockRange: z.optional(z.bigint()),
  limit: z.optional(s.uint(53, Number.MAX_SAFE_INTEGER, 1)),
  afterTaskId: z.optional(s.taskId),
})

/**
 * Lists tasks from the market's events (TaskSubmitted, or TaskClaimed with a
 * `provider`), block range by block range, then reads their state with
 * `getTasks` (one `eth_call` per 500 tasks, four in flight) and keeps those in
 * `status`. Filters on indexed topics run on the node, so a client's tasks cost
 * the same few requests on a busy market as on an idle one. Any number of
 * tasks: all of them by default, or pages of `limit` tasks after `afterTaskId`.
 *
 * With an `indexer`, the indexer finds the tasks (100 per request, newest
 * first, down to `afterTaskId`) instead of the logs of the whole history; their
 * state is still read from the chain as above, and their input and result key
 * from their TaskSubmitted logs, looked up by id. The result is the same,
 * except for the tasks the indexer has not indexed yet.
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
 *
 * // Or page by page, 1,000 tasks at a time.
 * let page: Awaited<ReturnType<typeof listTasks>>
 * let afterTaskId: bigint | undefined
 * do {
 *   page = await listTasks(client, { deployment: getDeployment(31337), limit: 1_000, afterTaskId })
 *   afterTaskId = page.at(-1)?.taskId
 * } while (page.length === 1_000)
 */
export async function listTasks(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: ListTasksParameters,
): Promise<ListTasksReturnType> {
  const params = validate('listTasks', schema, parameters)
  return withIndexer(
    'listTasks',
    parameters.indexer,
    params.fromBlock === undefined && params.toBlock === undefined,
    async (indexer) => {
      const ids = await indexedTaskIds(indexer, params)
      return readTasks(client, parameters.deployment, params, ids, { dropsSome: false })
    },
    () => listTasksFromLogs(client, parameters.deployment, params),
  )
}

type Params = z.output<typeof schema>

/** The tasks of the market's logs (TaskSubmitted, or TaskClaimed with a `provider`) in the block window. */
async function listTasksFromLogs(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  deployment: Deployment,
  params: Params,
): Promise<ListTasksReturnType> {
  // One end for every query, so that claims and submissions cover the same blocks.
  const { fromBlock, toBlock } = await blockWindow(client, 'listTasks', deployment, params)
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
  const inputs = new Map(submitted.map((log) => [log.args.taskId, submissionOf(log.args)]))
  const after = params.afterTaskId ?? 0n
  const ids = [...new Set((claimed ?? submitted).map((log) => log.args.taskId))]
    .filter((taskId) => taskId > after)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  // Claims carry neither client nor source: with those filters, as with a status, some tasks read are dropped.
  const dropsSome =
    params.status !== undefined ||
    (params.provider !== undefined && (params.client !== undefined || params.sourceId !== undefined))
  return readTasks(client, deployment, params, ids, { dropsSome, fromBlock, toBlock, inputs })
}

/**
 * The state of the tasks `ids` (ascending) that match the filters, up to
 * `limit`, with their inputs: those in `inputs`, the others from their
 * TaskSubmitted logs before `fromBlock`, by id. State as of `toBlock` when that
 * is the latest block (a historical `toBlock` still reads state now, pinned
 * once when it takes several calls).
 */
async function readTasks(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  deployment: Deployment,
  params: Params,
  ids: readonly bigint[],
  {
    dropsSome,
    fromBlock,
    toBlock,
    inputs = new Map(),
  }: {
    /** Whether the filters drop some of `ids` (then state is read a page at a time until `limit` are kept). */
    dropsSome: boolean
    fromBlock?: bigint | undefined
    toBlock?: bigint | undefined
    inputs?: Map<bigint, { inputCID: string; resultKey: Hex }> | undefined
  },
): Promise<ListTasksReturnType> {
  const deployedAt = BigInt(deployment.blockNumber)
  const statuses =
    params.status === undefined
      ? undefined
      : new Set(Array.isArray(params.status) ? params.status : [params.status])
  const keep = (task: Task) =>
    (statuses === undefined || statuses.has(task.status)) &&
    (params.client === undefined || task.client.toLowerCase() === params.client.toLowerCase()) &&
    (params.sourceId === undefined || task.sourceId === params.sourceId)
  const limit = params.limit ?? Number.POSITIVE_INFINITY

  const severalPages = params.limit !== undefined && dropsSome && ids.length > tasksPerPage
  const blockNumber =
    toBlock !== undefined && params.toBlock === undefined
      ? toBlock
      : severalPages
        ? await getAction(client, getBlockNumber, 'getBlockNumber')({ cacheTime: 0 })
        : undefined
  // All at once without a limit; with one, no more than it needs: only what is missing, or whole pages
  // when filters drop tasks.
  const tasks: Task[] = []
  for (let start = 0; start < ids.length && tasks.length < limit; ) {
    const count = params.limit === undefined ? ids.length : dropsSome ? tasksPerPage : limit - tasks.length
    const page = ids.slice(start, start + count)
    start += page.length
    for (const task of await getTasks(client, { deployment, taskIds: page, blockNumber })) {
      if (tasks.length < limit && keep(task)) tasks.push(task)
    }
  }

  // Tasks claimed in the range but submitted before it (or found by the indexer): find their inputs by id.
  const missing = tasks.filter((task) => !inputs.has(task.taskId)).map((task) => task.taskId)
  const before = fromBlock === undefined ? undefined : fromBlock - 1n
  for (let start = 0; start < missing.length && (before === undefined || before >= deployedAt); ) {
    const logs = await getLogsPaginated(client, {
      address: deployment.contracts.market,
      fromBlock: deployedAt,
      toBlock: before,
      blockRange: params.blockRange,
      event: TaskSubmitted,
      args: { taskId: missing.slice(start, start + idsPerTopic) },
    })
    start += idsPerTopic
    for (const log of logs) inputs.set(log.args.taskId, submissionOf(log.args))
  }
  return tasks.map((task) => {
    const submission = inputs.get(task.taskId)
    return { ...task, inputCID: submission?.inputCID, resultKey: submission?.resultKey }
  })
}

/** What a TaskSubmitted event says of a task that the market does not keep: its input and result key. */
function submissionOf(args: { inputCID: string; resultKey: Hex }): { inputCID: string; resultKey: Hex } {
  return { inputCID: args.inputCID, resultKey: args.resultKey }
}
