import type { Account, Chain, Client, Transport } from 'viem'
import * as z from 'zod/mini'
import {
  requestUnbond as requestUnbondFunction,
  errors as stakingErrors,
  UnbondRequested,
} from '../abis/staking.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import { stakingHints } from '../errors/hints/staking.js'
import type { EventNotFoundErrorType, TransactionRevertedErrorType } from '../errors/transaction.js'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import * as s from '../internal/schemas.js'
import { validate } from '../internal/validate.js'
import {
  findEvent,
  type WriteOptions,
  type WriteResult,
  writeAndWait,
  writeOptions,
} from '../internal/write.js'
import type { DeploymentParameter } from '../types/deployment.js'
import { type Amount, gridToken } from '../utils/amount.js'

export type RequestUnbondParameters = DeploymentParameter &
  WriteOptions & {
    /** How much available (unlocked) stake to unbond, e.g. `'50'` or a bigint in base units. */
    amount: Amount
  }

export type RequestUnbondReturnType = WriteResult & {
  /** Moved to unbonding by this request, in base units. */
  amount: bigint
  /** Everything now unbonding (earlier requests included), in base units. */
  totalUnbonding: bigint
  /** When `withdrawUnbonded` can withdraw it (the period restarts with every request). */
  readyAt: Date
}

export type RequestUnbondErrorType =
  | InvalidParametersErrorType
  | ContractRevertedErrorType
  | TransactionRevertedErrorType
  | EventNotFoundErrorType
  | Error

const schema = (decimals: number) => z.object({ amount: s.positiveAmount(decimals) })

/**
 * Starts unbonding stake: it stops earning and backing claims at once, and can
 * be withdrawn with `withdrawUnbonded` after the unbonding period. A second
 * request adds to the first and restarts the period for the whole amount.
 *
 * @example
 * import { requestUnbond } from '@gridforge/sdk'
 *
 * const { readyAt } = await requestUnbond(client, { deployment, amount: '50' })
 * console.log(`withdraw after ${readyAt.toISOString()}`)
 */
export async function requestUnbond(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: RequestUnbondParameters,
): Promise<RequestUnbondReturnType> {
  const { deployment } = parameters
  const token = deployment.token ?? gridToken
  const action = 'requestUnbond'
  const params = validate(action, schema(token.decimals), parameters)
  const staking = deployment.contracts.staking
  const receipt = await writeAndWait(client, {
    action,
    hints: stakingHints,
    token,
    address: staking,
    abi: [requestUnbondFunction, ...stakingErrors],
    functionName: 'requestUnbond',
    args: [params.amount],
    ...writeOptions(parameters),
  })
  const { args } = findEvent(action, receipt, staking, UnbondRequested)
  return {
    amount: args.amount,
    totalUnbonding: args.totalUnbonding,
    readyAt: new Date(args.readyAt * 1000),
    hash: receipt.transactionHash,
    blockNumber: receipt.blockNumber,
  }
}
