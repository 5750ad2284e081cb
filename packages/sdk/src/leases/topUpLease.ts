import type { Account, Chain, Client, Transport } from 'viem'
import { LeaseToppedUp, topUp } from '../abis/leaseMarket.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import type { TransactionRevertedErrorType } from '../errors/transaction.js'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import * as s from '../internal/schemas.js'
import { validateFields } from '../internal/validate.js'
import { findEvent, type WriteOptions, type WriteResult } from '../internal/write.js'
import type { DeploymentParameter } from '../types/deployment.js'
import { type Amount, gridToken } from '../utils/amount.js'
import { allLeaseErrors } from './allLeaseErrors.js'
import { writeLease } from './write.js'

export type TopUpLeaseParameters = DeploymentParameter &
  WriteOptions & {
    leaseId: number | bigint
    /** Added to the deposit, e.g. `'5'` (token units) or base units; pulled from an allowance. */
    amount: Amount
  }

export type TopUpLeaseReturnType = WriteResult & {
  leaseId: bigint
  /** Added, in base units. */
  amount: bigint
  /** The lease's deposit (escrow left) after the top-up, in base units. */
  deposit: bigint
}

export type TopUpLeaseErrorType =
  | InvalidParametersErrorType
  | ContractRevertedErrorType
  | TransactionRevertedErrorType
  | Error

/** A top-up's fields. */
export const topUpFields = (decimals: number) => ({ leaseId: s.leaseId, amount: s.positiveAmount(decimals) })

/**
 * Adds to a lease's deposit before it ends (anyone may pay), so it runs
 * longer: a lease ends when its deposit runs out. The lease market pulls the
 * amount from an allowance ({@link approveLeaseMarket}), or use
 * {@link topUpLeaseWithPermit}.
 *
 * @example
 * import { topUpLease } from '@gridforge/sdk'
 *
 * const { deposit } = await topUpLease(client, { deployment, leaseId: 7n, amount: '5' })
 */
export async function topUpLease(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: TopUpLeaseParameters,
): Promise<TopUpLeaseReturnType> {
  const { deployment } = parameters
  const action = 'topUpLease'
  const params = validateFields(action, topUpFields((deployment.token ?? gridToken).decimals), parameters)
  const receipt = await writeLease(client, parameters, {
    ...allLeaseErrors,
    action,
    abi: [topUp],
    functionName: 'topUp',
    args: [params.leaseId, params.amount],
  })
  const { args } = findEvent(action, receipt, deployment.contracts.leases, LeaseToppedUp)
  return {
    leaseId: args.leaseId,
    amount: args.amount,
    deposit: args.deposit,
    hash: receipt.transactionHash,
    blockNumber: receipt.blockNumber,
  }
}
