import type { Account, Chain, Client, Hex, ReadContractReturnType, Transport } from 'viem'
import { slice, zeroAddress, zeroHash } from 'viem'
import * as z from 'zod/mini'
import {
  getAudit as getAuditFunction,
  getSlots as getSlotsFunction,
  getTask as getTaskFunction,
  ResultSubmitted,
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
import { type Failure, failureOfTag, parseFailure } from './failures.js'
import { type RawAudit, toAudit } from './getAudit.js'

export type GetTaskParameters = DeploymentParameter & {
  taskId: number | bigint
  /**
   * Also read the input CID and the result key from the task's TaskSubmitted
   * event (one `eth_getLogs` from the deployment block; default false).
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
 * times as Dates; for an auditable task (`auditBps > 0`), or a task with
 * replicas > 1 whose results were disputed (auditors' slots follow the
 * replicas'), also its audit (a third call, made once the task is read). A
 * seat won in the race for the seats of replicas has a `claimedAt` still to
 * come until it is final. A failed run of a single-replica
 * task that is not audited has its `failure` read from its ResultSubmitted
 * event (one `eth_getLogs`, for those tasks alone).
 *
 * @example
 * import { createPublicClient, http } from 'viem'
 * import { hardhat } from 'viem/chains'
 * import { getDeployment } from '@gridforge/contracts'
 * import { getTask } from '@gridforge/sdk'
 *
 * const client = createPublicClient({ chain: hardhat, transport: http() })
 * const task = await getTask(client, { deployment: getDeployment(31337), taskId: 7n, includeInput: true })
 * console.log(task.status, task.slots.map((slot) => slot.provider), task.inputCID, task.resultKey)
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
    const [task, slots, submission] = await Promise.all([
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
      includeInput === true
        ? readSubmission(client, { deployment, taskId, toBlock: blockNumber })
        : undefined,
    ])
    // Only an auditable or a disputed task has an audit, and only an unaudited failed run keeps its digest
    // in its event alone: one more call for those.
    const [audit, submitted] = await Promise.all([
      !hasAudit(task, slots)
        ? undefined
        : read<RawAudit>(client, {
            ...request,
            abi: [getAuditFunction, TaskMarketUnknownTask],
            functionName: 'getAudit',
          }),
      needsSubmittedDigest(task)
        ? readSubmittedDigests(client, { deployment, taskIds: [taskId], toBlock: blockNumber })
        : undefined,
    ])
    return {
      ...toTask(taskId, task, slots, audit, submitted?.get(taskId)),
      ...(submission === undefined ? {} : submission),
    }
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

/**
 * Whether a task has an audit to read: an auditable single result
 * (`auditBps > 0`), or replicas whose results were disputed (the market then
 * lists the dispute's auditors after the replicas).
 */
export function hasAudit(task: RawTask, slots: RawSlots): boolean {
  return task.auditBps > 0 || slots.length > task.replicas
}

/**
 * Turns the market's task, slots and (auditable or disputed tasks) audit into a {@link Task};
 * `submittedDigest` is the digest of a failed unaudited single result (see
 * {@link readSubmittedDigests}).
 */
export function toTask(
  taskId: bigint,
  task: RawTask,
  slots: RawSlots,
  audit?: RawAudit | undefined,
  submittedDigest?: Hex | undefined,
): Task {
  const status = taskStatuses[task.status]
  if (status === undefined || status === 'None') throw new TaskNotFoundError({ taskIds: [taskId] })
  const replicated = task.replicas > 1
  const auditable = task.auditBps > 0
  const converted = toSlots(slots, replicated, auditable)
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
    audit: audit !== undefined && hasAudit(task, slots) ? toAudit(audit) : undefined,
    failed: task.failed,
    failure: task.failed ? failureOf(task, converted, submittedDigest) : undefined,
    slots: converted,
  }
}

function toSlots(slots: RawSlots, replicated: boolean, auditable: boolean): Slot[] {
  return slots.map((slot, index): Slot => {
    const slotStatus = slotStatuses[slot.status] ?? 'Free'
    const claimed = slotStatus !== 'Free' && slot.provider !== zeroAddress
    // Replicas and auditors (the slots after an audited result's) commit, then reveal.
    const commits = replicated || index > 0
    // An auditable result, once in, keeps only a tag of its seal and its block (no claim time).
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
      resultTag: held ? slice(slot.commitment, 0, 8) : undefined,
      submittedBlock: held ? BigInt(slot.dueAt) : undefined,
      runtimeSec: revealed ? slot.runtimeSec : undefined,
    }
  })
}

/**
 * The failure a failed task's result reports: the failure most revealed slots
 * agree on (replicas > 1: the winning digest), the held result's tag (an
 * auditable single result), or the digest of its ResultSubmitted event.
 */
function failureOf(
  task: RawTask,
  slots: readonly Slot[],
  submittedDigest: Hex | undefined,
): Failure | undefined {
  if (task.replicas > 1) {
    const votes = new Map<Hex, number>()
    for (const { resultDigest } of slots) {
      if (resultDigest !== undefined && parseFailure(resultDigest) !== undefined)
        votes.set(resultDigest, (votes.get(resultDigest) ?? 0) + 1)
    }
    const [agreed] = [...votes].sort((a, b) => b[1] - a[1])
    return agreed === undefined ? undefined : parseFailure(agreed[0])
  }
  const tag = slots[0]?.resultTag
  if (tag !== undefined) return failureOfTag(tag)
  return submittedDigest === undefined ? undefined : parseFailure(submittedDigest)
}

/** Whether a task's failure is only in its ResultSubmitted event: a failed single result that was not held. */
export function needsSubmittedDigest(task: RawTask): boolean {
  return task.failed && task.replicas === 1 && task.auditBps === 0
}

/** Most task ids matched by one `eth_getLogs` (each is a topic in the filter). */
const taskIdsPerLogRequest = 100

/**
 * The result digests single-replica tasks' providers handed in, from their
 * ResultSubmitted events, by task id (those not in the range are missing).
 */
export async function readSubmittedDigests(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  {
    deployment,
    taskIds,
    toBlock,
  }: DeploymentParameter & { taskIds: readonly bigint[]; toBlock?: bigint | undefined },
): Promise<Map<bigint, Hex>> {
  const chunks: bigint[][] = []
  for (let start = 0; start < taskIds.length; start += taskIdsPerLogRequest)
    chunks.push(taskIds.slice(start, start + taskIdsPerLogRequest))
  const logs = await Promise.all(
    chunks.map((chunk) =>
      getLogsPaginated(client, {
        address: deployment.contracts.market,
        event: ResultSubmitted,
        args: { taskId: chunk },
        fromBlock: BigInt(deployment.blockNumber),
        toBlock,
      }),
    ),
  )
  return new Map(logs.flat().map((log) => [log.args.taskId, log.args.resultDigest]))
}

/**
 * The input CID and result key from a task's TaskSubmitted event, or
 * `undefined` if it is not in the range.
 */
async function readSubmission(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  { deployment, taskId, toBlock }: DeploymentParameter & { taskId: bigint; toBlock?: bigint | undefined },
): Promise<{ inputCID: string; resultKey: Hex } | undefined> {
  const [log] = await getLogsPaginated(client, {
    address: deployment.contracts.market,
    event: TaskSubmitted,
    args: { taskId },
    fromBlock: BigInt(deployment.blockNumber),
    toBlock,
  })
  return log === undefined ? undefined : { inputCID: log.args.inputCID, resultKey: log.args.resultKey }
}
