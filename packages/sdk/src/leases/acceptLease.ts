import type { Account, Chain, Client, Transport } from 'viem'
import { acceptLease as acceptLeaseFunction, LeaseAccepted } from '../abis/leaseMarket.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import type { TransactionRevertedErrorType } from '../errors/transaction.js'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import { InvalidParametersError } from '../errors/validation.js'
import * as s from '../internal/schemas.js'
import { optional, validateFields } from '../internal/validate.js'
import { findEvent, type WriteOptions, type WriteResult } from '../internal/write.js'
import type { DeploymentParameter } from '../types/deployment.js'
import { type Amount, gridToken } from '../utils/amount.js'
import { allLeaseErrors } from './allLeaseErrors.js'
import { getLease } from './getLease.js'
import { writeLease } from './write.js'

export type AcceptLeaseParameters = DeploymentParameter &
  WriteOptions & {
    /** A requested lease. */
    leaseId: number | bigint
    /** The price per second to serve it at (at most the request's maximum); default the maximum. */
    pricePerSec?: Amount | undefined
  }

export type AcceptLeaseReturnType = WriteResult & {
  leaseId: bigint
  /** The accepted price per second, in base units. */
  pricePerSec: bigint
  /** When the lease ends at the latest (start + duration), in Unix seconds. */
  endsAt: number
  /** The provider's stake locked as collateral (price × penaltySec), in base units. */
  collateral: bigint
}

export type AcceptLeaseErrorType =
  | InvalidParametersErrorType
  | ContractRevertedErrorType
  | TransactionRevertedErrorType
  | Error

const fields = (decimals: number) => ({
  leaseId: s.leaseId,
  pricePerSec: optional(s.positiveAmount(decimals)),
})

/**
 * Accepts a requested lease as a provider: the lease starts now at
 * `pricePerSec`, and `price × penaltySec` of the provider's stake is locked
 * until it settles. The provider must be registered, not paused, subscribed to
 * the lease's source, meet its requirements and hold the minimum stake.
 *
 * @example
 * import { acceptLease } from '@gridforge/sdk'
 *
 * const { endsAt, collateral } = await acceptLease(providerClient, { deployment, leaseId: 7n })
 */
export async function acceptLease(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: AcceptLeaseParameters,
): Promise<AcceptLeaseReturnType> {
  const { deployment } = parameters
  const action = 'acceptLease'
  const params = validateFields(action, fields((deployment.token ?? gridToken).decimals), parameters)
  const price =
    params.pricePerSec ?? (await getLease(client, { deployment, leaseId: params.leaseId })).pricePerSec
  if (price >= 2n ** 80n)
    throw new InvalidParametersError({ action, fields: [{ path: 'pricePerSec', message: 'is too large' }] })
  const receipt = await writeLease(client, parameters, {
    ...allLeaseErrors,
    action,
    abi: [acceptLeaseFunction],
    functionName: 'acceptLease',
    args: [params.leaseId, price],
  })
  const { args } = findEvent(action, receipt, deployment.contracts.leases, LeaseAccepted)
  return {
    leaseId: args.leaseId,
    pricePerSec: args.pricePerSec,
    endsAt: args.endsAt,
    collateral: args.collateral,
    hash: receipt.transactionHash,
    blockNumber: receipt.blockNumber,
  }
}
