import type { Account, Address, Chain, Client, Transport } from 'viem'
import * as z from 'zod/mini'
import { Approval, approve, ERC20InvalidSpender } from '../abis/gridToken.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import { tokenHints } from '../errors/hints/staking.js'
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

export type ApproveMarketParameters = DeploymentParameter &
  WriteOptions & {
    /** The allowance, e.g. `'100'` (token units) or a bigint (base units); `0n` revokes it. */
    amount: Amount
  }

export type ApproveMarketReturnType = WriteResult & {
  /** The market's address. */
  spender: Address
  /** The new allowance, in base units. */
  amount: bigint
}

export type ApproveMarketErrorType =
  | InvalidParametersErrorType
  | ContractRevertedErrorType
  | TransactionRevertedErrorType
  | EventNotFoundErrorType
  | Error

const schema = (decimals: number) => z.object({ amount: s.amount(decimals) })

/**
 * Sets the market's allowance on the account's tokens, so `deposit` and
 * `submitTask` can pull them. It replaces the previous allowance.
 *
 * @example
 * import { approveMarket, submitTask } from '@gridforge/sdk'
 *
 * await approveMarket(client, { deployment, amount: '100' })
 * await submitTask(client, { deployment, sourceId: 1, input: cid, maxPayment: '5' })
 */
export async function approveMarket(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: ApproveMarketParameters,
): Promise<ApproveMarketReturnType> {
  const { deployment } = parameters
  const token = deployment.token ?? gridToken
  const action = 'approveMarket'
  const params = validate(action, schema(token.decimals), parameters)
  const receipt = await writeAndWait(client, {
    action,
    hints: tokenHints,
    token,
    address: deployment.contracts.token,
    abi: [approve, ERC20InvalidSpender],
    functionName: 'approve',
    args: [deployment.contracts.market, params.amount],
    ...writeOptions(parameters),
  })
  const { args } = findEvent(action, receipt, deployment.contracts.token, Approval)
  return {
    spender: args.spender,
    amount: args.value,
    hash: receipt.transactionHash,
    blockNumber: receipt.blockNumber,
  }
}
