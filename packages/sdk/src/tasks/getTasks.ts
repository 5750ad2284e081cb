import type { Account, Address, Chain, Client, Hex, Transport } from 'viem'
import {
  concat,
  decodeErrorResult,
  decodeFunctionResult,
  encodeFunctionData,
  hexToBigInt,
  multicall3Abi,
  numberToHex,
  size,
  slice,
} from 'viem'
import { call, getBlockNumber, readContract } from 'viem/actions'
import { getAction } from 'viem/utils'
import * as z from 'zod/mini'
import {
  getSlots as getSlotsFunction,
  getTask as getTaskFunction,
  TaskMarketUnknownTask,
} from '../abis/taskMarket.js'
import { ContractRevertedError, type ContractRevertedErrorType } from '../errors/contract.js'
import { TaskNotFoundError, type TaskNotFoundErrorType } from '../errors/task.js'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import * as s from '../internal/schemas.js'
import { validate } from '../internal/validate.js'
import type { DeploymentParameter } from '../types/deployment.js'
import type { Task } from '../types/task.js'
import { type RawSlots, type RawTask, toTask } from './getTask.js'

/**
 * Most tasks read in one `eth_call`. A single-replica task costs about 24,000
 * gas with the aggregator (35,000 through Multicall3), so 500 (300) stay well
 * inside the 2^24 gas cap of a call since Osaka (EIP-7825); a call that runs
 * out (tasks with many replicas cost more) is halved and made again.
 */
export const tasksPerCall = { aggregator: 500, multicall3: 300 } as const

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
  taskIds: z.array(s.taskId).check(z.maxLength(10_000, 'at most 10,000 tasks at once')),
  blockNumber: z.optional(z.bigint()),
})

/**
 * Reads many tasks and their slots in as few `eth_call`s as gas allows (one
 * per 500 tasks, 300 through Multicall3). On chains whose viem chain names a Multicall3 contract it
 * is used; elsewhere (Hardhat, Anvil) a small read-only aggregator is placed
 * for the call with an `eth_call` state override, which every dev node and
 * the common RPC providers support (a deployless Multicall3 would be limited
 * to about 20 tasks per call by the 24 kB code size limit).
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
  const market = deployment.contracts.market
  const multicall3 = client.chain?.contracts?.multicall3?.address
  const perCall = multicall3 === undefined ? tasksPerCall.aggregator : tasksPerCall.multicall3
  // Several calls must see the same block.
  const blockNumber =
    pinned ??
    (taskIds.length > perCall
      ? await getAction(client, getBlockNumber, 'getBlockNumber')({ cacheTime: 0 })
      : undefined)
  const read = (calls: Hex[]) =>
    multicall3 === undefined
      ? aggregate(client, { target: market, calls, blockNumber })
      : viaMulticall3(client, { multicall3, target: market, calls, blockNumber })

  const chunks: bigint[][] = []
  for (let start = 0; start < taskIds.length; start += perCall) {
    chunks.push(taskIds.slice(start, start + perCall))
  }
  const results = (await Promise.all(chunks.map((chunk) => readChunk(read, chunk)))).flat()

  const unknown: bigint[] = []
  const tasks: Task[] = []
  for (const [index, taskId] of taskIds.entries()) {
    const [task, slots] = results[index] ?? []
    if (task?.success === true && slots?.success === true) {
      tasks.push(
        toTask(
          taskId,
          decodeFunctionResult({
            abi: [getTaskFunction],
            functionName: 'getTask',
            data: task.data,
          }) as RawTask,
          decodeFunctionResult({
            abi: [getSlotsFunction],
            functionName: 'getSlots',
            data: slots.data,
          }) as RawSlots,
        ),
      )
    } else unknown.push(taskId)
  }
  if (unknown.length > 0) throw new TaskNotFoundError({ taskIds: unknown })
  return tasks
}

interface CallResult {
  success: boolean
  data: Hex
}

type Read = (calls: Hex[]) => Promise<CallResult[]>

/**
 * Reads task and slots of each task in `taskIds` with one call, or with two
 * halves (and so on) when the call fails for its size. Reverts other than
 * TaskMarketUnknownTask are thrown; unknown tasks come back as failures.
 */
async function readChunk(read: Read, taskIds: readonly bigint[]): Promise<[CallResult, CallResult][]> {
  const calls = taskIds.flatMap((taskId) => [
    encodeFunctionData({ abi: [getTaskFunction], functionName: 'getTask', args: [taskId] }),
    encodeFunctionData({ abi: [getSlotsFunction], functionName: 'getSlots', args: [taskId] }),
  ])
  let results: CallResult[]
  try {
    results = await read(calls)
  } catch (error) {
    if (taskIds.length === 1) throw error
    const half = Math.ceil(taskIds.length / 2)
    return [
      ...(await readChunk(read, taskIds.slice(0, half))),
      ...(await readChunk(read, taskIds.slice(half))),
    ]
  }
  // A call that failed without revert data ran out of gas: read those tasks again, fewer at a time.
  if (results.some((result) => !result.success && size(result.data) === 0) && taskIds.length > 1) {
    const half = Math.ceil(taskIds.length / 2)
    return [
      ...(await readChunk(read, taskIds.slice(0, half))),
      ...(await readChunk(read, taskIds.slice(half))),
    ]
  }
  return taskIds.map((taskId, index) => {
    const pair = [results[index * 2], results[index * 2 + 1]] as [CallResult, CallResult]
    for (const result of pair) {
      if (result === undefined || result.success || isUnknownTask(result.data)) continue
      throw new ContractRevertedError({
        action: 'getTasks',
        errorName: undefined,
        args: [],
        hint: undefined,
        cause: new Error(
          `reading task ${taskId} reverted with ${result.data === '0x' ? 'no data' : result.data}`,
        ),
      })
    }
    return pair
  })
}

function isUnknownTask(data: Hex): boolean {
  try {
    return decodeErrorResult({ abi: [TaskMarketUnknownTask], data }).errorName === 'TaskMarketUnknownTask'
  } catch {
    return false
  }
}

/**
 * Runtime code of a read-only aggregator (82 bytes, hand-assembled; source in
 * the comment below). Calldata: for each call, `target (20 bytes) ‖ length
 * (2 bytes) ‖ data`; it STATICCALLs each target in turn and returns, for each,
 * a 32-byte word `success << 255 | returnLength` followed by the return data.
 *
 *     push 0, push 0                 ; output offset o, input offset i
 *   loop:
 *     if i >= calldatasize: return(0, o)
 *     target = calldataload(i) >> 96; len = calldataload(i + 20) >> 240
 *     calldatacopy(o + 32, i + 22, len)
 *     success = staticcall(gas, target, o + 32, len, 0, 0)
 *     mstore(o, success << 255 | returndatasize)
 *     returndatacopy(o + 32, 0, returndatasize)
 *     i += 22 + len; o += 32 + returndatasize; jump loop
 */
export const aggregatorCode: Hex =
  '0x600060005b368110600f57506000f35b803560601c816014013560f01c80836016018560200137600060008286602001855afa60ff1b3d1784523d6000856020013e905060160101903d0160200190600456'

/** Where the aggregator is placed for the call (any address without code of its own would do). */
export const aggregatorAddress: Address = '0x00000000000000000000000000000000006c656e'

async function aggregate(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  { target, calls, blockNumber }: { target: Address; calls: Hex[]; blockNumber?: bigint | undefined },
): Promise<CallResult[]> {
  const { data } = await getAction(
    client,
    call,
    'call',
  )({
    to: aggregatorAddress,
    data: concat(calls.flatMap((callData) => [target, numberToHex(size(callData), { size: 2 }), callData])),
    blockNumber,
    stateOverride: [{ address: aggregatorAddress, code: aggregatorCode }],
  })
  const output = data ?? '0x'
  const results: CallResult[] = []
  for (let offset = 0; offset < size(output); ) {
    const header = hexToBigInt(slice(output, offset, offset + 32))
    const length = Number(header & ((1n << 255n) - 1n))
    const start = offset + 32
    results.push({
      success: header >> 255n === 1n,
      data: length === 0 ? '0x' : slice(output, start, start + length),
    })
    offset = start + length
  }
  if (results.length !== calls.length) {
    throw new Error(`getTasks: the aggregator returned ${results.length} results for ${calls.length} calls`)
  }
  return results
}

async function viaMulticall3(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  {
    multicall3,
    target,
    calls,
    blockNumber,
  }: { multicall3: Address; target: Address; calls: Hex[]; blockNumber?: bigint | undefined },
): Promise<CallResult[]> {
  const results = await getAction(
    client,
    readContract,
    'readContract',
  )({
    address: multicall3,
    abi: multicall3Abi,
    functionName: 'aggregate3',
    args: [calls.map((callData) => ({ target, allowFailure: true, callData }))],
    blockNumber,
  })
  return results.map(({ success, returnData }) => ({ success, data: returnData }))
}
