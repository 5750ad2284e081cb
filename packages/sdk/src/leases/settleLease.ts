import type { Account, Chain, Client, Transport } from 'viem'
import { settleLease as settleLeaseFunction } from '../abis/leaseMarket.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import type { TransactionRevertedErrorType } from '../errors/transaction.js'
import { EventNotFoundError } from '../errors/transaction.js'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import { validateFields } from '../internal/validate.js'
import type { WriteOptions, WriteResult } from '../internal/write.js'
import type { DeploymentParameter } from '../types/deployment.js'
import { allLeaseErrors } from './allLeaseErrors.js'
import { leaseIdFields } from './leaseIdFields.js'
import { type LeaseSettlement, settlementIn, writeLease } from './write.js'

export type SettleLeaseParameters = DeploymentParameter & WriteOptions & { leaseId: number | bigint }

export type SettleLeaseReturnType = WriteResult & LeaseSettlement & { leaseId: bigint }

export type SettleLeaseErrorType =
  | InvalidParametersErrorType
  | ContractRevertedErrorType
  | TransactionRevertedErrorType
  | Error

/**
 * Settles a lease that ended: its provider at any time after the end, anyone
 * once the claim window (or an offline report's answer window) has passed; a
 * request nobody accepted in time, anyone. The renter's refund and any
 * penalty go to its lease market balance ({@link withdrawLeaseBalance}).
 *
 * @example
 * import { settleLease } from '@gridforge/sdk'
 *
 * const { reason, uptimeBps, refunded, penalty } = await settleLease(client, { deployment, leaseId: 7n })
 */
export async function settleLease(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: SettleLeaseParameters,
): Promise<SettleLeaseReturnType> {
  const action = 'settleLease'
  const { leaseId } = validateFields(action, leaseIdFields, parameters)
  const receipt = await writeLease(client, parameters, {
    ...allLeaseErrors,
    action,
    abi: [settleLeaseFunction],
    functionName: 'settleLease',
    args: [leaseId],
  })
  const settlement = settlementIn(parameters.deployment, receipt)
  if (settlement === undefined)
    throw new EventNotFoundError({ action, event: 'LeaseSettled', hash: receipt.transactionHash })
  return { leaseId, ...settlement, hash: receipt.transactionHash, blockNumber: receipt.blockNumber }
}
