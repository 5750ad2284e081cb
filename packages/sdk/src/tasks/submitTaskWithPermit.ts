import {
  type Account,
  type Address,
  type Chain,
  type Client,
  type Hex,
  parseSignature,
  type TransactionReceipt,
  type Transport,
} from 'viem'
import { signTypedData } from 'viem/actions'
import { getAction } from 'viem/utils'
import { ERC20InsufficientBalance, eip712Domain, nonces } from '../abis/gridToken.js'
import {
  balanceOf,
  submitTask as submitTaskFunction,
  submitTaskWithPermit as submitTaskWithPermitFunction,
  TaskSubmitted,
} from '../abis/taskMarket.js'
import { BaseError } from '../errors/base.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import { taskSubmissionHints } from '../errors/hints/taskSubmission.js'
import type { TransactionRevertedErrorType } from '../errors/transaction.js'
import { InvalidParametersError, type InvalidParametersErrorType } from '../errors/validation.js'
import { validate } from '../internal/validate.js'
import { findEvent, read, writeAndWait } from '../internal/write.js'
import { gridToken } from '../utils/amount.js'
import { submissionErrors } from './submissionErrors.js'
import {
  deadlineAt,
  deadlineField,
  latestTimestamp,
  type SubmitTaskParameters,
  type SubmitTaskReturnType,
  taskSchema,
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
  | PermitUnsupportedErrorType
  | ContractRevertedErrorType
  | TransactionRevertedErrorType
  | Error

export type PermitUnsupportedErrorType = PermitUnsupportedError & { name: 'PermitUnsupportedError' }

/** The token does not publish its EIP-712 domain (ERC-5267), so no permit can be signed for it. */
export class PermitUnsupportedError extends BaseError {
  override name = 'PermitUnsupportedError' as const

  constructor({ token, cause }: { token: Address; cause: unknown }) {
    super(`the token ${token} does not support permits (no ERC-5267 eip712Domain)`, {
      cause,
      metaMessages: ['Approve the market for the amount instead (or deposit), then use submitTask.'],
    })
  }
}

/**
 * Like {@link submitTask}, but with no approval transaction: when the market
 * balance does not cover `replicas × maxPayment`, the sender signs an EIP-2612
 * permit for the shortfall and the market pulls it in the same transaction.
 * The token must support permits with an ERC-5267 domain (GridToken does).
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
  const { deployment, account, confirmations } = parameters
  const token = deployment.token ?? gridToken
  const action = 'submitTaskWithPermit'
  const params = validate(action, taskSchema(token.decimals), parameters)
  const sender = account ?? client.account
  if (sender === undefined) {
    throw new InvalidParametersError({
      action,
      fields: [
        { path: 'account', message: 'pass the account that signs the permit, or use a client with one' },
      ],
    })
  }
  const owner = typeof sender === 'string' ? sender : sender.address
  const market = deployment.contracts.market
  const [now, balance] = await Promise.all([
    latestTimestamp(client),
    read<bigint>(client, {
      action,
      hints: {},
      address: market,
      abi: [balanceOf],
      functionName: 'balanceOf',
      args: [owner],
    }),
  ])
  const deadline = deadlineAt(now, params.deadline ?? 86_400)
  if (deadline === undefined)
    throw new InvalidParametersError({ action, fields: [deadlineField('deadline')] })
  const taskParams = toTaskParams(params, deadline)
  const escrow = params.maxPayment * BigInt(taskParams.replicas)
  const pulled = escrow > balance ? escrow - balance : 0n
  const write = { action, hints: taskSubmissionHints, token, address: market, account, confirmations }
  let receipt: TransactionReceipt
  if (pulled === 0n) {
    receipt = await writeAndWait(client, {
      ...write,
      abi: [submitTaskFunction, ...submissionErrors],
      functionName: 'submitTask',
      args: [taskParams],
    })
  } else {
    const permit = await signPermit(client, {
      account: sender,
      token: deployment.contracts.token,
      spender: market,
      value: pulled,
      deadline: BigInt(now + permitLifetimeSec),
    })
    receipt = await writeAndWait(client, {
      ...write,
      abi: [submitTaskWithPermitFunction, ...submissionErrors, ERC20InsufficientBalance],
      functionName: 'submitTaskWithPermit',
      args: [taskParams, permit],
    })
  }
  const { args } = findEvent(action, receipt, market, TaskSubmitted)
  return {
    taskId: args.taskId,
    escrow: args.escrow,
    deadline,
    pulled,
    hash: receipt.transactionHash,
    blockNumber: receipt.blockNumber,
  }
}

/**
 * Signs an EIP-2612 permit letting `spender` pull `value` of `token` from the
 * account, with the token's ERC-5267 domain and current nonce. Returns the
 * fields the market's `Permit` struct takes.
 */
export async function signPermit(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  {
    account,
    token,
    spender,
    value,
    deadline,
  }: { account: Account | Address; token: Address; spender: Address; value: bigint; deadline: bigint },
) {
  const owner = typeof account === 'string' ? account : account.address
  const action = 'signPermit'
  const [domain, nonce] = await Promise.all([
    read<readonly [Hex, string, string, bigint, Address]>(client, {
      action,
      hints: {},
      address: token,
      abi: [eip712Domain],
      functionName: 'eip712Domain',
    }).catch((cause: unknown) => {
      throw new PermitUnsupportedError({ token, cause })
    }),
    read<bigint>(client, {
      action,
      hints: {},
      address: token,
      abi: [nonces],
      functionName: 'nonces',
      args: [owner],
    }),
  ])
  const [, name, version, chainId, verifyingContract] = domain
  const signature = await getAction(
    client,
    signTypedData,
    'signTypedData',
  )({
    account,
    domain: { name, version, chainId, verifyingContract },
    types: {
      Permit: [
        { name: 'owner', type: 'address' },
        { name: 'spender', type: 'address' },
        { name: 'value', type: 'uint256' },
        { name: 'nonce', type: 'uint256' },
        { name: 'deadline', type: 'uint256' },
      ],
    },
    primaryType: 'Permit',
    message: { owner, spender, value, nonce, deadline },
  })
  const { r, s, v, yParity } = parseSignature(signature)
  return { value, deadline, v: Number(v ?? BigInt(yParity + 27)), r, s }
}
