import type { Account, Chain, Client, Transport } from 'viem'
import { OfflineReported, reportOffline as reportOfflineFunction } from '../abis/leaseMarket.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import type { TransactionRevertedErrorType } from '../errors/transaction.js'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import { validateFields } from '../internal/validate.js'
import { findEvent, type WriteOptions, type WriteResult } from '../internal/write.js'
import type { DeploymentParameter } from '../types/deployment.js'
import { allLeaseErrors } from './allLeaseErrors.js'
import { leaseIdFields } from './leaseIdFields.js'
import { writeLease } from './write.js'

export type ReportOfflineParameters = DeploymentParameter & WriteOptions & { leaseId: number | bigint }

export type ReportOfflineReturnType = WriteResult & {
  leaseId: bigint
  /** The report's time, in Unix seconds. */
  reportedAt: number
  /** Until when the provider may answer with a recent acknowledgement; then anyone may settle, penalty paid. */
  answerBy: number
}

export type ReportOfflineErrorType =
  | InvalidParametersErrorType
  | ContractRevertedErrorType
  | TransactionRevertedErrorType
  | Error

/**
 * Reports the provider offline (renter only), `offlineAfter` after the last
 * proof of service on chain. Unless the provider redeems an acknowledgement
 * made after `reportedAt - offlineAfter` by `answerBy`, the lease ends at the
 * last proof of service and the provider pays the lease's penalty.
 *
 * @example
 * import { reportOffline } from '@gridforge/sdk'
 *
 * const { answerBy } = await reportOffline(client, { deployment, leaseId: 7n })
 */
export async function reportOffline(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: ReportOfflineParameters,
): Promise<ReportOfflineReturnType> {
  const action = 'reportOffline'
  const { leaseId } = validateFields(action, leaseIdFields, parameters)
  const receipt = await writeLease(client, parameters, {
    ...allLeaseErrors,
    action,
    abi: [reportOfflineFunction],
    functionName: 'reportOffline',
    args: [leaseId],
  })
  const { args } = findEvent(action, receipt, parameters.deployment.contracts.leases, OfflineReported)
  return {
    leaseId,
    reportedAt: args.reportedAt,
    answerBy: args.answerBy,
    hash: receipt.transactionHash,
    blockNumber: receipt.blockNumber,
  }
}
