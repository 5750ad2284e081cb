import type { Account, Chain, Client, ReadContractReturnType, Transport } from 'viem'
import { slice, zeroAddress, zeroHash } from 'viem'
import * as z from 'zod/mini'
import {
  getAudit as getAuditFunction,
  getSlots as getSlotsFunction,
  getTask as getTaskFunction,
  TaskMarketUnknownTask,
  TaskSubmitted,
} from '../abis/taskMarket.js'
import { ContractRevertedError, type ContractRevertedErrorType } from '../errors/contract.js'
import { taskMarketHints } from '../errors/hints/taskMarket.js'
import { TaskNotFoundError, type TaskNotFoundErrorType } from '../errors/task.js'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import { getLogsPaginated } from '../internal/logs.js'
import * as s from '../internal/schemas.js'
import { validate } from '../internal/validate.js'
import { read } from '../internal/write.js'
import type { DeploymentParameter } from '../types/deployment.js'
import { type Slot, slotStatuses, type Task, type TaskStatus, taskStatuses } from '../types/task.js'
import { type RawAudit, toAudit } from './getAudit.js'

export type GetTaskParameters = DeploymentParameter & {
  taskId: number | bigint
  /**
   * Also read the input CID from the task's TaskSubmitted event (one
   * `eth_getLogs` from the deployment block; default false).
   */
  includeInput?: boolean | undefined
  /** Read the task as of this block (default: the latest). */
  blockNumber?: bigint | undefined
}

export type GetTaskReturnType = Task

export type GetTaskErrorType =
  | InvalidParametersErrorType
  | TaskNotFoundErrorType
  | ContractRevertedErrorType
  | Error

const schema = z.object({
  taskId: s.taskId,
  includeInput: z.optional(z.boolean()),
  blockNumber: z.optional(z.bigint()),
})

/**
 * Reads a task and its slots (two parallel calls), with statuses as names and
 * times as Dates; for an auditable task (`auditBps > 0`) also its audit (a
 * third call, made once the task is read).
 *
 * @example
 * import { createPublicClient, http } from 'viem'
 * import { hardhat } from 'viem/chains'
 * import { getDeployment } from '@gridforge/contracts'
 * import { getTask } from '@gridforge/sdk'
 *
 * const client = createPublicClient({ chain: hardhat, transport: http() })
 * const task = await getTask(client, { deployment: getDeployment(31337), taskId: 7n, includeInput: true })
 * console.log(task.status, task.slots.map((slot) => slot.provider), task.inputCID)
 */
export async function getTask(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: GetTaskParameters,
): Promise<GetTaskReturnType> {
  const { deployment } = parameters
  const action = 'getTask'
  const { taskId, includeInput, blockNumber } = validate(action, schema, parameters)
  const request = {
    action,
    hints: taskMarketHints,
    token: deployment.token,
    address: deployment.contracts.market,
    args: [taskId],
    blockNumber,
  }
  try {
    const [task, slots, inputCID] = await Promise.all([
      read<RawTask>(client, {
        ...request,
        abi: [getTaskFunction, TaskMarketUnknownTask],
        functionName: 'getTask',
      }),
      read<RawSlots>(client, {
        ...request,
        abi: [getSlotsFunction, TaskMarketUnknownTask],
        functionName: 'getSlots',
      }),
      includeInput === true ? readInputCID(client, { deployment, taskId, toBlock: blockNumber }) : undefined,
    ])
    // Only an auditable task has an audit: one more call for those alone.
    const audit =
      task.auditBps === 0
        ? undefined
        : await read<RawAudit>(client, {
            ...request,
            abi: [getAuditFunction, TaskMarketUnknownTask],
            functionName: 'getAudit',
          })
    return { ...toTask(taskId, task, slots, audit), ...(inputCID === undefined ? {} : { inputCID }) }
  } catch (error) {
    if (error instanceof ContractRevertedError && error.errorName === 'TaskMarketUnknownTask') {
      throw new TaskNotFoundError({ taskIds: [taskId], cause: error })
    }
    throw error
  }
}

/** The task as `getTask` on the market returns it. */
export type RawTask = ReadContractReturnType<[typeof getTaskFunction], 'getTask'>
/** The slots as `getSlots` on the market returns them. */
export type RawSlots = ReadContractReturnType<[typeof getSlotsFunction], 'getSlots'>

const date = (seconds: number) => new Date(seconds * 1000)

/** Turns the market's task, slots and (auditable tasks) audit into a {@link Task}. */
export function toTask(taskId: bigint, task: RawTask, slots: RawSlots, audit?: RawAudit | undefined): Task {
  const status = taskStatuses[task.status]
  if (status === undefined || status === 'None') throw new TaskNotFoundError({ taskIds: [taskId] })
  const replicated = task.replicas > 1
  const auditable = task.auditBps > 0
  return {
    taskId,
    client: task.client,
    sourceId: task.sourceId,
    replicas: task.replicas,
    status: status as TaskStatus,
    deadline: date(task.deadline),
    maxPayment: task.maxPayment,
    pricePerSecond: task.pricePerSecond,
    feeBps: task.feeBps,
    creatorFeeBps: task.creatorFeeBps,
    discountBps: task.discountBps,
    collateral: task.collateral,
    requirements: { ...task.requirements },
    gates: { minSuccessBps: task.minSuccessBps, minCompleted: task.minCompleted },
    revealDeadline: task.revealDeadline === 0 ? undefined : date(task.revealDeadline),
    committed: task.committed,
    revealed: task.revealed,
    auditBps: task.auditBps,
    audit: auditable && audit !== undefined ? toAudit(audit) : undefined,
    slots: slots.map((slot, index): Slot => {
      const slotStatus = slotStatuses[slot.status] ?? 'Free'
      const claimed = slotStatus !== 'Free' && slot.provider !== zeroAddress
      // Replicas and auditors (the slots after an audited result's) commit, then reveal.
      const commits = replicated || index > 0
      // An auditable result, once in, keeps only a tag of its digest and its block (no claim time).
      const held = auditable && index === 0 && (slotStatus === 'Submitted' || slotStatus === 'Forfeited')
      const committed = commits && (slotStatus === 'Committed' || slotStatus === 'Submitted')
      const revealed = commits && slotStatus === 'Submitted'
      return {
        index,
        status: slotStatus,
        provider: claimed ? slot.provider : undefined,
        claimedAt: claimed && slot.claimedAt !== 0 ? date(slot.claimedAt) : undefined,
        dueAt: slotStatus === 'Claimed' ? date(slot.dueAt) : undefined,
        committedAt: committed ? date(slot.dueAt) : undefined,
        commitment: commits && slotStatus === 'Committed' ? slot.commitment : undefined,
        resultDigest: revealed && slot.commitment !== zeroHash ? slot.commitment : undefined,
        resultTag: held ? slice(slot.commitment, 0, 5) : undefined,
        submittedBlock: held ? BigInt(slot.dueAt) : undefined,
        runtimeSec: revealed ? slot.runtimeSec : undefined,
      }
    }),
  }
}

/** The input CID from a task's TaskSubmitted event, or `undefined` if it is not in the range. */
async function readInputCID(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  { deployment, taskId, toBlock }: DeploymentParameter & { taskId: bigint; toBlock?: bigint | undefined },
): Promise<string | undefined> {
  const [log] = await getLogsPaginated(client, {
    address: deployment.contracts.market,
    event: TaskSubmitted,
    args: { taskId },
    fromBlock: BigInt(deployment.blockNumber),
    toBlock,
  })
  return log?.args.inputCID
}
