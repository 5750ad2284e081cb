import type { Account, Chain, Client, Transport } from 'viem'
import { requestLeaseWithPermit as requestLeaseWithPermitFunction } from '../abis/leaseMarket.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import { leaseRequestHints } from '../errors/hints/leaseRequest.js'
import type { TransactionRevertedErrorType } from '../errors/transaction.js'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import { type PermitNotSupportedErrorType, signPermit } from '../wallet/signPermit.js'
import { leaseRequestErrors } from './requestErrors.js'
import {
  prepareLeaseRequest,
  type RequestLeaseParameters,
  type RequestLeaseReturnType,
  requestedLeaseId,
} from './requestLease.js'
import { writeLease } from './write.js'

/** How long a permit signed for a lease stays valid. */
export const leasePermitLifetimeSec = 3_600

export type RequestLeaseWithPermitParameters = RequestLeaseParameters

export type RequestLeaseWithPermitReturnType = RequestLeaseReturnType

export type RequestLeaseWithPermitErrorType =
  | InvalidParametersErrorType
  | PermitNotSupportedErrorType
  | ContractRevertedErrorType
  | TransactionRevertedErrorType
  | Error

/**
 * Like {@link requestLease}, but with no approval transaction: the renter
 * signs an EIP-2612 permit for the deposit (valid for an hour) and the lease
 * market uses it in the same transaction. The token must support permits
 * (GridToken does).
 *
 * @example
 * import { requestLeaseWithPermit } from '@gridforge/sdk'
 *
 * const { leaseId } = await requestLeaseWithPermit(client, {
 *   deployment, sourceId: 3, maxPricePerHour: '3.6', duration: '2h', deposit: '8',
 * })
 */
export async function requestLeaseWithPermit(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: RequestLeaseWithPermitParameters,
): Promise<RequestLeaseWithPermitReturnType> {
  const action = 'requestLeaseWithPermit'
  const { deployment, account } = parameters
  const request = await prepareLeaseRequest(client, action, parameters)
  const { value, deadline, v, r, s } = await signPermit(client, {
    deployment,
    account,
    spender: deployment.contracts.leases,
    amount: request.deposit,
    deadline: leasePermitLifetimeSec,
  })
  const receipt = await writeLease(client, parameters, {
    action,
    abi: [requestLeaseWithPermitFunction],
    functionName: 'requestLeaseWithPermit',
    errors: leaseRequestErrors,
    hints: leaseRequestHints,
    args: [request, { value, deadline, v, r, s }],
  })
  return {
    leaseId: requestedLeaseId(action, deployment, receipt),
    request,
    hash: receipt.transactionHash,
    blockNumber: receipt.blockNumber,
  }
}
