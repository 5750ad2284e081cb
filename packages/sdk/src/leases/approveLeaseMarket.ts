import type { Account, Address, Chain, Client, Transport } from 'viem'
import { Approval, approve, ERC20InvalidSpender } from '../abis/gridToken.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import { tokenHints } from '../errors/hints/staking.js'
import type { EventNotFoundErrorType, TransactionRevertedErrorType } from '../errors/transaction.js'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import * as s from '../internal/schemas.js'
import { validateFields } from '../internal/validate.js'
import {
  findEvent,
  type WriteOptions,
  type WriteResult,
  writeAndWait,
  writeOptions,
} from '../internal/write.js'
import type { DeploymentParameter } from '../types/deployment.js'
import { type Amount, gridToken } from '../utils/amount.js'

export type ApproveLeaseMarketParameters = DeploymentParameter &
  WriteOptions & {
    /** The allowance, e.g. `'100'` (token units) or a bigint (base units); `0n` revokes it. */
    amount: Amount
  }

export type ApproveLeaseMarketReturnType = WriteResult & {
  /** The lease market's address. */
  spender: Address
  /** The new allowance, in base units. */
  amount: bigint
}

export type ApproveLeaseMarketErrorType =
  | InvalidParametersErrorType
  | ContractRevertedErrorType
  | TransactionRevertedErrorType
  | EventNotFoundErrorType
  | Error

const fields = (decimals: number) => ({ amount: s.amount(decimals) })

/**
 * Lets the lease market pull up to `amount` of the sender's tokens, for the
 * deposits and top-ups of {@link requestLease} and {@link topUpLease} (the
 * permit variants need no approval). The lease market keeps no balance to
 * spend from: each deposit is pulled from the wallet.
 *
 * @example
 * import { approveLeaseMarket, requestLease } from '@gridforge/sdk'
 *
 * await approveLeaseMarket(client, { deployment, amount: '10' })
 * await requestLease(client, { deployment, sourceId: 3, maxPricePerHour: '3.6', duration: '2h', deposit: '10' })
 */
export async function approveLeaseMarket(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: ApproveLeaseMarketParameters,
): Promise<ApproveLeaseMarketReturnType> {
  const { deployment } = parameters
  const token = deployment.token ?? gridToken
  const action = 'approveLeaseMarket'
  const params = validateFields(action, fields(token.decimals), parameters)
  const receipt = await writeAndWait(client, {
    action,
    hints: tokenHints,
    token,
    address: deployment.contracts.token,
    abi: [approve, ERC20InvalidSpender],
    functionName: 'approve',
    args: [deployment.contracts.leases, params.amount],
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
