import type { Account, Address, Chain, Client, Hex, Transport } from 'viem'
import {
  BaseError,
  decodeErrorResult,
  decodeFunctionResult,
  encodeFunctionData,
  RawContractError,
  size,
} from 'viem'
import { getBlockNumber, multicall } from 'viem/actions'
import { getAction } from 'viem/utils'
import * as z from 'zod/mini'
import {
  getAudit as getAuditFunction,
  getSlots as getSlotsFunction,
  getTask as getTaskFunction,
  TaskMarketUnknownTask,
} from '../abis/taskMarket.js'
import { ContractRevertedError, type ContractRevertedErrorType } from '../errors/contract.js'
import { TaskNotFoundError, type TaskNotFoundErrorType } from '../errors/task.js'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import { aggregate } from '../internal/aggregator.js'
import * as s from '../internal/schemas.js'
import { validate } from '../internal/validate.js'
import type { DeploymentParameter } from '../types/deployment.js'
import type { Task } from '../types/task.js'
import type { RawAudit } from './getAudit.js'
import {
  hasAudit,
  needsSubmittedDigest,
  type RawSlots,
  type RawTask,
  readSubmittedDigests,
  toTask,
} from './getTask.js'

/**
 * Most tasks read in one `eth_call`. A single-replica task costs about 24,000
 * gas with the aggregator (35,000 through Multicall3), so 500 (300) stay well
 * inside the 2^24 gas cap of a call since Osaka (EIP-7825); a call that runs
 * out (tasks with many replicas cost more) is halved and made again.
 */
export const tasksPerCall = { aggregator: 500, multicall3: 300 } as const

/**
 * Most `eth_call`s in flight at once. A node runs calls one after another: with
 * all of them sent together, the last would wait past the transport's timeout
 * (viem's default, 10 s, at 20 calls on a busy Hardhat node) and be halved for
 * nothing.
 */
export const callsInFlight = 4

export type GetTasksParameters = DeploymentParameter & {
  /** The tasks to read, any number. */
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
  taskIds: z.array(s.taskId),
  blockNumber: z.optional(z.bigint()),
})

/** The reads of a task, with the error an unknown id reverts with (so that viem decodes it). */
const taskReads = [getTaskFunction, getSlotsFunction, getAuditFunction, TaskMarketUnknownTask] as const

/** The functions read for each task in a pass: its state and slots, then the audits of auditable tasks. */
type TaskRead = 'getTask' | 'getSlots' | 'getAudit'
const statePass = ['getTask', 'getSlots'] as const satisfies readonly TaskRead[]
const auditPass = ['getAudit'] as const satisfies readonly TaskRead[]

/**
 * Reads many tasks and their slots, as of one block, in as few `eth_call`s as
 * gas allows: one per 300 tasks through viem's `multicall` where the client's
 * chain names a Multicall3 contract, one per 500 elsewhere (Hardhat, Anvil,
 * chains without Multicall3) through an 82-byte read-only aggregator placed for
 * the call with an `eth_call` state override, which every dev node and the
 * common RPC providers support. Any number of ids, four calls in flight at a
 * time.
 *
 * Why not viem's deployless multicall on chains without Multicall3: its
 * results come back as the code a constructor returns, which EIP-170 caps at
 * 24,576 bytes, and a task with its slots is about 1,200 bytes of results.
 * Measured on the Hardhat 3 (EDR) devnet, which enforces the cap
 * (`bench/getTasksStrategies.ts`, median of 3 on a busy 2-core machine): a
 * deployless call of 21 tasks is refused ("trying to deploy a contract whose
 * code is too large"), so 10,000 tasks take 500 requests and 9.2 s (715
 * requests and 12.5 s with viem's default `batchSize`), against 20 requests and
 * 4.9 s with the aggregator. Multicall3's runtime code placed by a state
 * override would take 34 requests (8.7 s) and add 2.6 kB (gzip) of bytecode to
 * the bundle. Through a deployed Multicall3, 10,000 tasks take 34 requests
 * (20 s there): slower than the aggregator, but it needs no state override,
 * which some RPCs refuse.
 *
 * The audits of auditable tasks (`auditBps > 0`) and the disputes of
 * replicas whose results differed are read by a second pass
 * the same way, at the same block when the first was pinned. Failed runs of
 * single-replica tasks that were not audited have their `failure` read from
 * their ResultSubmitted events (`eth_getLogs` for 100 such tasks at a time).
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
  const { taskIds, blockNumber: pinned } = validate('getTasks', schema, parameters)
  if (taskIds.length === 0) return []
  const market = deployment.contracts.market
  const multicall3 = multicall3Of(client.chain, pinned)
  const perCall = multicall3 === undefined ? tasksPerCall.aggregator : tasksPerCall.multicall3
  // Several calls must see the same block.
  const blockNumber =
    pinned ??
    (taskIds.length > perCall
      ? await getAction(client, getBlockNumber, 'getBlockNumber')({ cacheTime: 0 })
      : undefined)

  const reader =
    (functionNames: readonly TaskRead[]): ReadTasks =>
    (ids) =>
      multicall3 === undefined
        ? viaAggregator(client, { market, taskIds: ids, blockNumber, functionNames })
        : viaMulticall3(client, { multicall3, market, taskIds: ids, blockNumber, functionNames })
  const readPass = async (ids: readonly bigint[], functionNames: readonly TaskRead[]) => {
    const chunks: bigint[][] = []
    for (let start = 0; start < ids.length; start += perCall) chunks.push(ids.slice(start, start + perCall))
    return (
      await inFlight(chunks, (chunk) => readChunk(reader(functionNames), chunk, functionNames.length))
    ).flat()
  }
  const states = await readPass(taskIds, statePass)

  const unknown = taskIds.filter((_, index) => states[index] === undefined)
  if (unknown.length > 0) throw new TaskNotFoundError({ taskIds: unknown })
  const read = states.map((state) => (state as NonNullable<TaskState>).results as [RawTask, RawSlots])
  // Auditable results and disputed replicas have an audit.
  const auditable = [
    ...new Set(taskIds.filter((_, index) => hasAudit(...(read[index] as [RawTask, RawSlots])))),
  ]
  const audits = new Map<bigint, RawAudit>()
  if (auditable.length > 0) {
    const found = await readPass(auditable, auditPass)
    for (const [index, taskId] of auditable.entries()) {
      const audit = found[index]
      if (audit === undefined) throw new TaskNotFoundError({ taskIds: [taskId] })
      audits.set(taskId, audit.results[0] as RawAudit)
    }
  }
  // A failed single result that was not held keeps its digest in its ResultSubmitted event alone.
  const failedRuns = [
    ...new Set(taskIds.filter((_, index) => needsSubmittedDigest(read[index]?.[0] as RawTask))),
  ]
  const submitted =
    failedRuns.length === 0
      ? undefined
      : await readSubmittedDigests(client, { deployment, taskIds: failedRuns, toBlock: blockNumber })
  return taskIds.map((taskId, index) => {
    const [task, slots] = read[index] as [RawTask, RawSlots]
    return toTask(taskId, task, slots, audits.get(taskId), submitted?.get(taskId))
  })
}

/** `work` on every item, {@link callsInFlight} at a time, results in the items' order; stops at the first error. */
async function inFlight<item, result>(items: readonly item[], work: (item: item) => Promise<result>) {
  const results: result[] = []
  let next = 0
  let failed = false
  const worker = async () => {
    while (next < items.length && !failed) {
      const index = next++
      try {
        results[index] = await work(items[index] as item)
      } catch (error) {
        failed = true
        throw error
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(callsInFlight, items.length) }, worker))
  return results
}

/** The chain's Multicall3, unless it is not deployed yet at `blockNumber`. */
function multicall3Of(chain: Chain | undefined, blockNumber: bigint | undefined): Address | undefined {
  const contract = chain?.contracts?.multicall3
  if (contract === undefined) return undefined
  const { blockCreated } = contract
  return blockNumber !== undefined && blockCreated !== undefined && blockNumber < BigInt(blockCreated)
    ? undefined
    : contract.address
}

/** What one call in a batch did: its decoded result, or its revert data (`0x` when it ran out of gas). */
type CallOutcome = { success: true; result: unknown } | { success: false; revertData: Hex }

/** Reads a pass's functions of each task (in that order) with one `eth_call`; throws when that call fails as a whole. */
type ReadTasks = (taskIds: readonly bigint[]) => Promise<CallOutcome[]>

/** A task's results of one pass, in the pass's order, or `undefined` for an id the market does not know. */
type TaskState = { results: unknown[] } | undefined

/**
 * Reads the tasks with one call, or with two halves (and so on) when the call
 * fails for its size. Reverts other than TaskMarketUnknownTask are thrown.
 * `reads` is the number of calls per task.
 */
async function readChunk(read: ReadTasks, taskIds: readonly bigint[], reads: number): Promise<TaskState[]> {
  const halves = async () => {
    const half = Math.ceil(taskIds.length / 2)
    return [
      ...(await readChunk(read, taskIds.slice(0, half), reads)),
      ...(await readChunk(read, taskIds.slice(half), reads)),
    ]
  }
  let outcomes: CallOutcome[]
  try {
    outcomes = await read(taskIds)
  } catch (error) {
    if (taskIds.length === 1) throw error
    return halves()
  }
  // A call that failed without revert data ran out of gas: read those tasks again, fewer at a time.
  if (taskIds.length > 1 && outcomes.some((outcome) => !outcome.success && size(outcome.revertData) === 0)) {
    return halves()
  }
  return taskIds.map((taskId, index) => {
    const mine = outcomes.slice(index * reads, (index + 1) * reads)
    if (mine.length === reads && mine.every((outcome) => outcome.success)) {
      return { results: mine.map((outcome) => (outcome as { result: unknown }).result) }
    }
    for (const outcome of mine) {
      if (outcome === undefined || outcome.success || isUnknownTask(outcome.revertData)) continue
      throw new ContractRevertedError({
        action: 'getTasks',
        errorName: undefined,
        args: [],
        hint: undefined,
        cause: new Error(
          `reading task ${taskId} reverted with ${outcome.revertData === '0x' ? 'no data' : outcome.revertData}`,
        ),
      })
    }
    return undefined
  })
}

function isUnknownTask(data: Hex): boolean {
  try {
    return decodeErrorResult({ abi: [TaskMarketUnknownTask], data }).errorName === 'TaskMarketUnknownTask'
  } catch {
    return false
  }
}

interface ReadParameters {
  market: Address
  taskIds: readonly bigint[]
  blockNumber: bigint | undefined
  /** What to read of each task, in this order. */
  functionNames: readonly TaskRead[]
}

/** Calldata bytes of `getTask(id)`, `getSlots(id)` and `getAudit(id)`: a selector and one word. */
const callDataSize = 36

/** Through the chain's Multicall3, with viem's `multicall`. */
async function viaMulticall3(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  { multicall3, market, taskIds, blockNumber, functionNames }: ReadParameters & { multicall3: Address },
): Promise<CallOutcome[]> {
  const results = await getAction(
    client,
    multicall,
    'multicall',
  )({
    contracts: taskIds.flatMap((taskId) =>
      functionNames.map(
        (functionName) => ({ address: market, abi: taskReads, functionName, args: [taskId] }) as const,
      ),
    ),
    multicallAddress: multicall3,
    allowFailure: true,
    // The whole chunk in one eth_call (viem's default, 1,024 bytes of calldata, is 14 tasks a call),
    // also when the client batches multicalls: chunks are sized by gas here.
    batchSize: taskIds.length * functionNames.length * callDataSize,
    blockNumber,
  })
  return results.map((result): CallOutcome => {
    if (result.status === 'success') return { success: true, result: result.result }
    // A call that failed inside aggregate3 carries its revert data; any other error failed the whole eth_call.
    const reverted =
      result.error instanceof BaseError
        ? result.error.walk((error) => error instanceof RawContractError)
        : undefined
    if (!(reverted instanceof RawContractError)) throw result.error
    const data = typeof reverted.data === 'object' ? reverted.data.data : reverted.data
    return { success: false, revertData: data ?? '0x' }
  })
}

/** Through the aggregator, placed for the call with a state override. */
async function viaAggregator(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  { market, taskIds, blockNumber, functionNames }: ReadParameters,
): Promise<CallOutcome[]> {
  const calls = taskIds.flatMap((taskId) =>
    functionNames.map((functionName) => encodeFunctionData({ abi: taskReads, functionName, args: [taskId] })),
  )
  const results = await aggregate(client, { target: market, calls, blockNumber })
  return results.map(
    ({ success, data }, index): CallOutcome =>
      success
        ? {
            success: true,
            result: decodeFunctionResult({
              abi: taskReads,
              functionName: functionNames[index % functionNames.length] as TaskRead,
              data,
            }),
          }
        : { success: false, revertData: data },
  )
}
