import type { Account, Address, Chain, Client, Transport } from 'viem'
import * as z from 'zod/mini'
import {
  errors as taskMarketErrors,
  Withdrawn,
  withdraw as withdrawFunction,
  withdrawTo,
} from '../abis/taskMarket.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import { taskMarketHints } from '../errors/hints/taskMarket.js'
import type { EventNotFoundErrorType, TransactionRevertedErrorType } from '../errors/transaction.js'
import { InvalidParametersError, type InvalidParametersErrorType } from '../errors/validation.js'
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

export type WithdrawParameters = DeploymentParameter &
  WriteOptions & {
    /** How much of the market balance to withdraw, e.g. `'10'` (token units) or a bigint (base units). */
    amount: Amount
    /** Who receives the tokens (default: the account itself). */
    to?: Address | undefined
  }

export type WithdrawReturnType = WriteResult & {
  /** Withdrawn, in base units. */
  amount: bigint
  /** Who received the tokens. */
  to: Address
}

export type WithdrawErrorType =
  | InvalidParametersErrorType
  | ContractRevertedErrorType
  | TransactionRevertedErrorType
  | EventNotFoundErrorType
  | Error

const schema = (decimals: number) =>
  z.object({
    amount: s.positiveAmount(decimals),
    to: z.optional(s.address),
  })

/**
 * Withdraws tokens from the account's market balance (deposits, refunds,
 * provider earnings) to the account or to `to`.
 *
 * @example
 * import { withdraw } from '@gridforge/sdk'
 *
 * const { amount, to } = await withdraw(client, { deployment, amount: '10' })
 */
export async function withdraw(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: WithdrawParameters,
): Promise<WithdrawReturnType> {
  const { deployment } = parameters
  const token = deployment.token ?? gridToken
  const action = 'withdraw'
  const params = validate(action, schema(token.decimals), parameters)
  if (params.to !== undefined && BigInt(params.to) === 0n) {
    throw new InvalidParametersError({
      action,
      fields: [{ path: 'to', message: 'must not be the zero address: the tokens would be lost' }],
    })
  }
  const market = deployment.contracts.market
  const receipt = await writeAndWait(client, {
    action,
    hints: taskMarketHints,
    token,
    address: market,
    ...(params.to === undefined
      ? { abi: [withdrawFunction, ...taskMarketErrors], functionName: 'withdraw', args: [params.amount] }
      : {
          abi: [withdrawTo, ...taskMarketErrors],
          functionName: 'withdrawTo',
          args: [params.to, params.amount],
        }),
    ...writeOptions(parameters),
  })
  const { args } = findEvent(action, receipt, market, Withdrawn)
  return { amount: args.amount, to: args.to, hash: receipt.transactionHash, blockNumber: receipt.blockNumber }
}
