import type { Account, Chain, Client, Transport } from 'viem'
import { extend, LeaseExtended } from '../abis/leaseMarket.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import type { TransactionRevertedErrorType } from '../errors/transaction.js'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import { InvalidParametersError } from '../errors/validation.js'
import * as s from '../internal/schemas.js'
import { validateFields } from '../internal/validate.js'
import { findEvent, type WriteOptions, type WriteResult } from '../internal/write.js'
import type { DeploymentParameter } from '../types/deployment.js'
import type { Duration } from '../utils/duration.js'
import { allLeaseErrors } from './allLeaseErrors.js'
import { maxLeaseDurationSec } from './leaseRequest.js'
import { writeLease } from './write.js'

export type ExtendLeaseParameters = DeploymentParameter &
  WriteOptions & {
    leaseId: number | bigint
    /** How much longer, e.g. `'1h'` (the whole lease at most 365 days). */
    by: Duration
  }

export type ExtendLeaseReturnType = WriteResult & {
  leaseId: bigint
  /** The new latest end, in Unix seconds (the deposit must still cover it: top up). */
  endsAt: number
}

export type ExtendLeaseErrorType =
  | InvalidParametersErrorType
  | ContractRevertedErrorType
  | TransactionRevertedErrorType
  | Error

const fields = { leaseId: s.leaseId, by: s.duration }

/**
 * Makes an active lease longer (renter only, before it ends and before any
 * notice or offline report). Extending does not fund the time: the lease
 * still ends when its deposit runs out, so top up too.
 *
 * @example
 * import { extendLease, topUpLease } from '@gridforge/sdk'
 *
 * await extendLease(client, { deployment, leaseId: 7n, by: '1h' })
 * await topUpLease(client, { deployment, leaseId: 7n, amount: '3.6' })
 */
export async function extendLease(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: ExtendLeaseParameters,
): Promise<ExtendLeaseReturnType> {
  const { deployment } = parameters
  const action = 'extendLease'
  const params = validateFields(action, fields, parameters)
  if (params.by === 0 || params.by > maxLeaseDurationSec)
    throw new InvalidParametersError({
      action,
      fields: [{ path: 'by', message: 'must be from 1s to 365d (the whole lease at most 365d)' }],
    })
  const receipt = await writeLease(client, parameters, {
    ...allLeaseErrors,
    action,
    abi: [extend],
    functionName: 'extend',
    args: [params.leaseId, params.by],
  })
  const { args } = findEvent(action, receipt, deployment.contracts.leases, LeaseExtended)
  return {
    leaseId: args.leaseId,
    endsAt: args.endsAt,
    hash: receipt.transactionHash,
    blockNumber: receipt.blockNumber,
  }
}
