import { type Account, type Chain, type Client, type Hex, type Transport, zeroHash } from 'viem'
import { getBlock } from 'viem/actions'
import { getAction } from 'viem/utils'
import { submitTask as submitTaskFunction, TaskSubmitted } from '../abis/taskMarket.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import { taskSubmissionHints } from '../errors/hints/taskSubmission.js'
import type { TransactionRevertedErrorType } from '../errors/transaction.js'
import { InvalidParametersError, type InvalidParametersErrorType } from '../errors/validation.js'
import * as s from '../internal/schemas.js'
import { type FieldsOutput, optional, validateFields } from '../internal/validate.js'
import {
  findEvent,
  type WriteOptions,
  type WriteResult,
  writeAndWait,
  writeOptions,
} from '../internal/write.js'
import type { DeploymentParameter } from '../types/deployment.js'
import type { Requirements } from '../types/requirements.js'
import { type Amount, gridToken } from '../utils/amount.js'
import type { Duration } from '../utils/duration.js'
import { submissionErrors } from './submissionErrors.js'

/** Longest a task may stay open (the contract's MAX_TASK_DURATION). */
export const maxTaskDurationSec = 30 * 86_400

export type SubmitTaskParameters = DeploymentParameter &
  WriteOptions & {
    /** The source to run. */
    sourceId: number | bigint
    /** CID of the input: a file or a UnixFS directory (see `@gridforge/sdk/storage`). */
    input: string
    /** Most paid to each replica, e.g. `'5'` (token units) or `5n * 10n ** 18n` (base units). */
    maxPayment: Amount
    /** Price per second of runtime; omitted or `'0'` for a fixed price of `maxPayment`. */
    pricePerSecond?: Amount | undefined
    /** Providers that run the task, 1 to 7 (default 1). More than 1 needs a deterministic source. */
    replicas?: number | undefined
    /** How long the task may wait for results (default `'1d'`, at most `'30d'`), or when it ends. */
    deadline?: Duration | Date | undefined
    /**
     * Only what should be stricter than the source's requirements; the rest is the source's
     * (the market merges them: minimums take the larger value, `maxRuntimeSec` the smaller).
     */
    requirements?: Partial<Omit<Requirements, 'deterministic'>> | undefined
    /** Least success rate of a claimant in basis points (default 0). */
    minSuccessBps?: number | undefined
    /** Least number of tasks a claimant has completed (default 0). */
    minCompleted?: number | undefined
    /**
     * Probability, in basis points, that the result is audited: 0 or omitted for
     * the market's default (`getProtocolParams().auditBps`, 10 % at launch), else
     * at least that default and at most 10000. Only a single-replica task of a
     * deterministic source is auditable; for any other task it is ignored.
     */
    auditBps?: number | undefined
    /**
     * The client's X25519 public key, to which providers encrypt the output
     * (`deriveResultKey` in `@gridforge/sdk/results` derives it from the
     * client's account; `openOutput` decrypts). With it only the client can
     * read the output, and an auditor cannot answer an audit without
     * computing. Omitted (the zero hash): the output is published in the
     * clear. Failed runs' logs and outputs of sources with a validator are
     * always in the clear.
     */
    resultKey?: Hex | undefined
  }

export type SubmitTaskReturnType = WriteResult & {
  taskId: bigint
  /** Escrowed for the task: replicas × maxPayment, in base units. */
  escrow: bigint
  /** The deadline, in Unix seconds. */
  deadline: number
  /** The result key the task names (the zero hash: none, the output is published in the clear). */
  resultKey: Hex
}

export type SubmitTaskErrorType =
  | InvalidParametersErrorType
  | ContractRevertedErrorType
  | TransactionRevertedErrorType
  | Error

/** One task's fields (amounts parse to base units, durations to seconds). */
export const taskFields = (decimals: number) => ({
  sourceId: s.uint(32),
  input: s.cid,
  maxPayment: s.positiveAmount(decimals),
  pricePerSecond: optional(s.amount(decimals)),
  replicas: optional(s.uint(8, 7, 1)),
  deadline: optional(s.deadline),
  requirements: optional({
    minGpus: optional(s.uint(8)),
    minVramMiB: optional(s.uint(32)),
    minComputeCapability: optional(s.uint(8)),
    maxRuntimeSec: optional(s.duration),
  }),
  minSuccessBps: optional(s.uint(16, 10_000)),
  minCompleted: optional(s.uint(32)),
  auditBps: optional(s.uint(16, 10_000)),
  resultKey: optional(s.bytes32),
})

/** A validated task. */
export type ValidTask = FieldsOutput<ReturnType<typeof taskFields>>

/** The contract's `TaskParams` of a validated task, with its deadline in Unix seconds. */
export function toTaskParams(params: ValidTask, deadline: number) {
  return {
    sourceId: params.sourceId,
    inputCID: params.input,
    maxPayment: params.maxPayment,
    pricePerSecond: params.pricePerSecond ?? 0n,
    replicas: params.replicas ?? 1,
    deadline,
    requirements: {
      minGpus: params.requirements?.minGpus ?? 0,
      minVramMiB: params.requirements?.minVramMiB ?? 0,
      minComputeCapability: params.requirements?.minComputeCapability ?? 0,
      maxRuntimeSec: params.requirements?.maxRuntimeSec ?? 0,
      deterministic: false,
    },
    minSuccessBps: params.minSuccessBps ?? 0,
    minCompleted: params.minCompleted ?? 0,
    auditBps: params.auditBps ?? 0,
    resultKey: params.resultKey ?? zeroHash,
  }
}

/**
 * Submits a task: escrows `replicas × maxPayment` from the client's market
 * balance (pulling any shortfall from an approved token allowance), waits for
 * the transaction and returns the new task id.
 *
 * @example
 * import { createWalletClient, http } from 'viem'
 * import { privateKeyToAccount } from 'viem/accounts'
 * import { hardhat } from 'viem/chains'
 * import { getDeployment } from '@gridforge/contracts'
 * import { submitTask } from '@gridforge/sdk'
 * import { deriveResultKey } from '@gridforge/sdk/results'
 *
 * const client = createWalletClient({ account: privateKeyToAccount(key), chain: hardhat, transport: http() })
 * const { taskId } = await submitTask(client, {
 *   deployment: getDeployment(31337),
 *   sourceId: 1,
 *   input: 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku',
 *   maxPayment: '5',
 *   deadline: '2h',
 * })
 *
 * // Sealed results: only this account can read the output.
 * const { publicKey } = await deriveResultKey(client, { deployment: getDeployment(31337) })
 * await submitTask(client, { deployment: getDeployment(31337), sourceId: 1, input, maxPayment: '5', resultKey: publicKey })
 */
export async function submitTask(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: SubmitTaskParameters,
): Promise<SubmitTaskReturnType> {
  const { deployment } = parameters
  const token = deployment.token ?? gridToken
  const action = 'submitTask'
  const params = validateFields(action, taskFields(token.decimals), parameters)
  const deadline = await resolveDeadline(client, action, params.deadline ?? 86_400)
  const receipt = await writeAndWait(client, {
    action,
    hints: taskSubmissionHints,
    token,
    address: deployment.contracts.market,
    abi: [submitTaskFunction, ...submissionErrors],
    functionName: 'submitTask',
    args: [toTaskParams(params, deadline)],
    ...writeOptions(parameters),
  })
  const { args } = findEvent(action, receipt, deployment.contracts.market, TaskSubmitted)
  return {
    taskId: args.taskId,
    escrow: args.escrow,
    deadline,
    resultKey: args.resultKey,
    hash: receipt.transactionHash,
    blockNumber: receipt.blockNumber,
  }
}

/**
 * A deadline as Unix seconds: a Date as is, a duration counted from the latest
 * block (not the local clock: chains and machines disagree), checked against
 * the market's 30-day limit.
 */
export async function resolveDeadline(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  action: string,
  deadline: Date | number,
): Promise<number> {
  const at = deadlineAt(await latestTimestamp(client), deadline)
  if (at === undefined) throw new InvalidParametersError({ action, fields: [deadlineField('deadline')] })
  return at
}

/** The timestamp of the latest block, in Unix seconds. */
export async function latestTimestamp(
  client: Client<Transport, Chain | undefined, Account | undefined>,
): Promise<number> {
  const { timestamp } = await getAction(client, getBlock, 'getBlock')({ blockTag: 'latest' })
  return Number(timestamp)
}

/** A deadline as Unix seconds from `now`, or `undefined` when it is not in the future and within 30 days. */
export function deadlineAt(now: number, deadline: Date | number): number | undefined {
  const at = deadline instanceof Date ? Math.floor(deadline.getTime() / 1000) : now + deadline
  return at <= now || at > now + maxTaskDurationSec ? undefined : at
}

/** The invalid-field entry of a deadline at `path`. */
export function deadlineField(path: string) {
  return { path, message: 'must be in the future and at most 30 days away (e.g. 2h, 7d)' }
}
