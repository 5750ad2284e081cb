import type { Account, Chain, Client, Transport } from 'viem'
import { parseEventLogs } from 'viem'
import { closeLease as closeLeaseFunction, LeaseEnded } from '../abis/leaseMarket.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import type { TransactionRevertedErrorType } from '../errors/transaction.js'
import { EventNotFoundError } from '../errors/transaction.js'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import { validateFields } from '../internal/validate.js'
import type { WriteOptions, WriteResult } from '../internal/write.js'
import type { DeploymentParameter } from '../types/deployment.js'
import type { LeaseEndReason } from '../types/lease.js'
import { allLeaseErrors } from './allLeaseErrors.js'
import { leaseIdFields } from './leaseIdFields.js'
import { endReasonName, type LeaseSettlement, settlementIn, writeLease } from './write.js'

export type CloseLeaseParameters = DeploymentParameter &
  WriteOptions & {
    /** A lease of the sender, requested or active. */
    leaseId: number | bigint
  }

export type CloseLeaseReturnType = WriteResult & {
  leaseId: bigint
  /** `'Cancelled'` for a request nobody accepted; else why the lease ended (`'ClosedByRenter'`, or an earlier end). */
  reason: LeaseEndReason
  /** When the lease ended, in Unix seconds. */
  endedAt: number
  /**
   * Sent back to the renter's wallet now, in base units: the whole deposit of
   * a request; of an active lease, all but what the provider may still claim
   * (the seconds since its last redeemed acknowledgement).
   */
  refunded: bigint
  /** Set when the close also settled the lease (a request, or nothing left to claim). */
  settlement: LeaseSettlement | undefined
}

export type CloseLeaseErrorType =
  | InvalidParametersErrorType
  | ContractRevertedErrorType
  | TransactionRevertedErrorType
  | Error

/**
 * Closes a lease now (renter only). A request nobody accepted is cancelled and
 * refunded in full. An active lease ends now: the deposit beyond what the
 * seconds not yet redeemed could cost comes back at once; the rest waits for
 * the provider's last acknowledgement (the claim window), then `settleLease`.
 *
 * @example
 * import { closeLease, formatAmount } from '@gridforge/sdk'
 *
 * const { refunded, reason } = await closeLease(client, { deployment, leaseId: 7n })
 * console.log(reason, formatAmount(refunded))
 */
export async function closeLease(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: CloseLeaseParameters,
): Promise<CloseLeaseReturnType> {
  const { deployment } = parameters
  const action = 'closeLease'
  const { leaseId } = validateFields(action, leaseIdFields, parameters)
  const receipt = await writeLease(client, parameters, {
    ...allLeaseErrors,
    action,
    abi: [closeLeaseFunction],
    functionName: 'closeLease',
    args: [leaseId],
  })
  const settlement = settlementIn(deployment, receipt)
  const [ended] = parseEventLogs({
    abi: [LeaseEnded],
    logs: receipt.logs.filter(
      (log) => log.address.toLowerCase() === deployment.contracts.leases.toLowerCase(),
    ),
  })
  const result = { leaseId, settlement, hash: receipt.transactionHash, blockNumber: receipt.blockNumber }
  // A request is cancelled with LeaseSettled alone; an active lease ends with LeaseEnded (and may settle too).
  if (ended !== undefined)
    return {
      ...result,
      reason: endReasonName(ended.args.reason),
      endedAt: ended.args.endedAt,
      refunded: ended.args.refunded,
    }
  if (settlement !== undefined)
    return {
      ...result,
      reason: settlement.reason,
      endedAt: settlement.endedAt,
      refunded: settlement.refunded,
    }
  throw new EventNotFoundError({ action, event: 'LeaseEnded', hash: receipt.transactionHash })
}
