import type { Account, Address, Chain, Client, Transport } from 'viem'
import { balanceOf, Withdrawn, withdrawTo } from '../abis/leaseMarket.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import type { TransactionRevertedErrorType } from '../errors/transaction.js'
import { InvalidParametersError, type InvalidParametersErrorType } from '../errors/validation.js'
import * as s from '../internal/schemas.js'
import { optional, validateFields } from '../internal/validate.js'
import { findEvent, read, type WriteOptions, type WriteResult } from '../internal/write.js'
import type { DeploymentParameter } from '../types/deployment.js'
import { type Amount, gridToken } from '../utils/amount.js'
import { accountAddress } from '../wallet/account.js'
import { allLeaseErrors, leaseHints } from './allLeaseErrors.js'
import { writeLease } from './write.js'

export type WithdrawLeaseBalanceParameters = DeploymentParameter &
  WriteOptions & {
    /** How much (default: the whole balance). */
    amount?: Amount | undefined
    /** Where to send it (default: the sender). */
    to?: Address | undefined
  }

export type WithdrawLeaseBalanceReturnType = WriteResult & {
  to: Address
  /** Sent, in base units. */
  amount: bigint
}

export type WithdrawLeaseBalanceErrorType =
  | InvalidParametersErrorType
  | ContractRevertedErrorType
  | TransactionRevertedErrorType
  | Error

const fields = (decimals: number) => ({
  amount: optional(s.positiveAmount(decimals)),
  to: optional(s.address),
})

/**
 * Pays out the sender's lease market balance: a provider's payments, a
 * renter's refunds and penalties from settlements (a close refunds the
 * renter's wallet directly; a settlement credits this balance).
 *
 * @example
 * import { withdrawLeaseBalance } from '@gridforge/sdk'
 *
 * const { amount } = await withdrawLeaseBalance(client, { deployment })
 */
export async function withdrawLeaseBalance(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: WithdrawLeaseBalanceParameters,
): Promise<WithdrawLeaseBalanceReturnType> {
  const { deployment } = parameters
  const action = 'withdrawLeaseBalance'
  const token = deployment.token ?? gridToken
  const params = validateFields(action, fields(token.decimals), parameters)
  const sender = accountAddress(client, action, parameters.account)
  const amount =
    params.amount ??
    (await read<bigint>(client, {
      action,
      hints: leaseHints,
      token,
      address: deployment.contracts.leases,
      abi: [balanceOf],
      functionName: 'balanceOf',
      args: [sender],
    }))
  if (amount === 0n)
    throw new InvalidParametersError({
      action,
      fields: [{ path: 'amount', message: `${sender} has no lease market balance to withdraw` }],
    })
  const receipt = await writeLease(client, parameters, {
    ...allLeaseErrors,
    action,
    abi: [withdrawTo],
    functionName: 'withdrawTo',
    args: [params.to ?? sender, amount],
  })
  const { args } = findEvent(action, receipt, deployment.contracts.leases, Withdrawn)
  return { to: args.to, amount: args.amount, hash: receipt.transactionHash, blockNumber: receipt.blockNumber }
}
