import type { Account, Chain, Client, TransactionReceipt, Transport } from 'viem'
import {
  balanceOf,
  submitTask as submitTaskFunction,
  submitTaskWithPermit as submitTaskWithPermitFunction,
  TaskSubmitted,
} from '../abis/taskMarket.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import { taskSubmissionHints } from '../errors/hints/taskSubmission.js'
import type { TransactionRevertedErrorType } from '../errors/transaction.js'
import { InvalidParametersError, type InvalidParametersErrorType } from '../errors/validation.js'
import { validateFields } from '../internal/validate.js'
import { findEvent, read, writeAndWait, writeOptions } from '../internal/write.js'
import { gridToken } from '../utils/amount.js'
import { accountAddress } from '../wallet/account.js'
import { type PermitNotSupportedErrorType, signPermit } from '../wallet/signPermit.js'
import { escrowOf, isAuditable, isCheckableSource } from './escrow.js'
import { submissionErrors } from './submissionErrors.js'
import {
  deadlineAt,
  deadlineField,
  latestTimestamp,
  type SubmitTaskParameters,
  type SubmitTaskReturnType,
  taskFields,
  toTaskParams,
} from './submitTask.js'

/** How long a permit signed for a submission stays valid. */
const permitLifetimeSec = 3_600

export type SubmitTaskWithPermitParameters = SubmitTaskParameters

export type SubmitTaskWithPermitReturnType = SubmitTaskReturnType & {
  /** Tokens the permit let the market pull from the wallet (0 when the market balance covered the escrow). */
  pulled: bigint
}

export type SubmitTaskWithPermitErrorType =
  | InvalidParametersErrorType
  | PermitNotSupportedErrorType
  | ContractRevertedErrorType
  | TransactionRevertedErrorType
  | Error

/**
 * Like {@link submitTask}, but with no approval transaction: when the market
 * balance does not cover the escrow (`replicas × maxPayment`, or
 * `2 × maxPayment` for an auditable task), the sender signs an EIP-2612
 * permit for the shortfall and the market pulls it in the same transaction.
 * The token must support EIP-2612 permits (GridToken does); the permit is
 * valid for an hour.
 *
 * @example
 * import { submitTaskWithPermit } from '@gridforge/sdk'
 *
 * const { taskId, pulled } = await submitTaskWithPermit(client, {
 *   deployment,
 *   sourceId: 1,
 *   input: 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku',
 *   maxPayment: '5',
 *   deadline: '2h',
 * })
 */
export async function submitTaskWithPermit(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: SubmitTaskWithPermitParameters,
): Promise<SubmitTaskWithPermitReturnType> {
  const { deployment, account } = parameters
  const token = deployment.token ?? gridToken
  const action = 'submitTaskWithPermit'
  const params = validateFields(action, taskFields(token.decimals), parameters)
  const owner = accountAddress(client, action, account)
  const market = deployment.contracts.market
  const replicas = params.replicas ?? 1
  const [now, balance, checkable] = await Promise.all([
    latestTimestamp(client),
    read<bigint>(client, {
      action,
      hints: {},
      address: market,
      abi: [balanceOf],
      functionName: 'balanceOf',
      args: [owner],
    }),
    // Only a single replica can be audited, and only on a source whose results can be checked.
    replicas === 1 ? isCheckableSource(client, { deployment, action, sourceId: params.sourceId }) : false,
  ])
  const deadline = deadlineAt(now, params.deadline ?? 86_400)
  if (deadline === undefined)
    throw new InvalidParametersError({ action, fields: [deadlineField('deadline')] })
  const taskParams = toTaskParams(params, deadline)
  const escrow = escrowOf({
    maxPayment: params.maxPayment,
    replicas,
    auditable: isAuditable({ replicas, checkable }),
  })
  const pulled = escrow > balance ? escrow - balance : 0n
  const write = { action, hints: taskSubmissionHints, token, address: market, ...writeOptions(parameters) }
  let receipt: TransactionReceipt
  if (pulled === 0n) {
    receipt = await writeAndWait(client, {
      ...write,
      abi: [submitTaskFunction, ...submissionErrors],
      functionName: 'submitTask',
      args: [taskParams],
    })
  } else {
    const {
      value,
      deadline: permitDeadline,
      v,
      r,
      s,
    } = await signPermit(client, {
      deployment,
      account,
      spender: market,
      amount: pulled,
      deadline: permitLifetimeSec,
    })
    receipt = await writeAndWait(client, {
      ...write,
      abi: [submitTaskWithPermitFunction, ...submissionErrors],
      functionName: 'submitTaskWithPermit',
      args: [taskParams, { value, deadline: permitDeadline, v, r, s }],
    })
  }
  const { args } = findEvent(action, receipt, market, TaskSubmitted)
  return {
    taskId: args.taskId,
    escrow: args.escrow,
    deadline,
    resultKey: args.resultKey,
    pulled,
    hash: receipt.transactionHash,
    blockNumber: receipt.blockNumber,
  }
}
