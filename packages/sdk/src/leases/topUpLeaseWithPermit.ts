import type { Account, Chain, Client, Transport } from 'viem'
import { LeaseToppedUp, topUpWithPermit } from '../abis/leaseMarket.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import type { TransactionRevertedErrorType } from '../errors/transaction.js'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import { validateFields } from '../internal/validate.js'
import { findEvent } from '../internal/write.js'
import { gridToken } from '../utils/amount.js'
import { type PermitNotSupportedErrorType, signPermit } from '../wallet/signPermit.js'
import { allLeaseErrors } from './allLeaseErrors.js'
import { leasePermitLifetimeSec } from './requestLeaseWithPermit.js'
import { type TopUpLeaseParameters, type TopUpLeaseReturnType, topUpFields } from './topUpLease.js'
import { writeLease } from './write.js'

export type TopUpLeaseWithPermitParameters = TopUpLeaseParameters

export type TopUpLeaseWithPermitReturnType = TopUpLeaseReturnType

export type TopUpLeaseWithPermitErrorType =
  | InvalidParametersErrorType
  | PermitNotSupportedErrorType
  | ContractRevertedErrorType
  | TransactionRevertedErrorType
  | Error

/**
 * Like {@link topUpLease}, but with no approval transaction: the payer signs
 * an EIP-2612 permit for the amount (valid for an hour), used in the same
 * transaction.
 *
 * @example
 * import { topUpLeaseWithPermit } from '@gridforge/sdk'
 *
 * await topUpLeaseWithPermit(client, { deployment, leaseId: 7n, amount: '5' })
 */
export async function topUpLeaseWithPermit(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: TopUpLeaseWithPermitParameters,
): Promise<TopUpLeaseWithPermitReturnType> {
  const { deployment, account } = parameters
  const action = 'topUpLeaseWithPermit'
  const params = validateFields(action, topUpFields((deployment.token ?? gridToken).decimals), parameters)
  const { value, deadline, v, r, s } = await signPermit(client, {
    deployment,
    account,
    spender: deployment.contracts.leases,
    amount: params.amount,
    deadline: leasePermitLifetimeSec,
  })
  const receipt = await writeLease(client, parameters, {
    ...allLeaseErrors,
    action,
    abi: [topUpWithPermit],
    functionName: 'topUpWithPermit',
    args: [params.leaseId, params.amount, { value, deadline, v, r, s }],
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
