import type { Account, Address, Chain, Client, Transport } from 'viem'
import * as z from 'zod/mini'
import { getLease as getLeaseFunction, LeaseMarketUnknownLease } from '../abis/leaseMarket.js'
import { ContractRevertedError, type ContractRevertedErrorType } from '../errors/contract.js'
import { leaseMarketHints } from '../errors/hints/leaseMarket.js'
import { LeaseNotFoundError, type LeaseNotFoundErrorType } from '../errors/lease.js'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import * as s from '../internal/schemas.js'
import { optional, validateFields } from '../internal/validate.js'
import { read } from '../internal/write.js'
import type { DeploymentParameter } from '../types/deployment.js'
import { type Lease, leaseStatuses } from '../types/lease.js'
import { endReasonName } from './write.js'

export type GetLeaseParameters = DeploymentParameter & {
  leaseId: number | bigint
  /** Read the lease as of this block (default: the latest). */
  blockNumber?: bigint | undefined
}

export type GetLeaseReturnType = Lease

export type GetLeaseErrorType =
  | InvalidParametersErrorType
  | LeaseNotFoundErrorType
  | ContractRevertedErrorType
  | Error

/** The contract's `Lease` struct as viem decodes it. */
export interface RawLease {
  renter: Address
  provider: Address
  ackSigner: Address
  sourceId: number
  status: number
  reason: number
  paramsVersion: number
  minUptimeBps: number
  penaltySec: number
  pricePerSec: bigint
  deposit: bigint
  startedAt: number
  endsAt: number
  acceptBy: number
  servedSec: number
  lastProofAt: number
  reportedAt: number
}

const fields = { leaseId: s.leaseId, blockNumber: optional(z.bigint()) }

/** A raw lease with its status and reason as names. */
export function toLease(leaseId: bigint, raw: RawLease): Lease {
  return {
    ...raw,
    leaseId,
    status: leaseStatuses[raw.status] ?? 'None',
    reason: endReasonName(raw.reason),
  }
}

/**
 * Reads a lease: its parties, terms, deposit left and proof of service, with
 * status and end reason as names. A lease whose end has passed stays
 * `'Active'` until it settles: {@link getLeaseEnd} says when and why it ended,
 * {@link getLeaseCost} what it cost so far.
 *
 * @example
 * import { getLease } from '@gridforge/sdk'
 *
 * const lease = await getLease(client, { deployment, leaseId: 7n })
 * console.log(lease.status, lease.provider, lease.servedSec)
 */
export async function getLease(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: GetLeaseParameters,
): Promise<GetLeaseReturnType> {
  const action = 'getLease'
  const { leaseId, blockNumber } = validateFields(action, fields, parameters)
  try {
    const raw = await read<RawLease>(client, {
      action,
      hints: leaseMarketHints,
      address: parameters.deployment.contracts.leases,
      abi: [getLeaseFunction, LeaseMarketUnknownLease],
      functionName: 'getLease',
      args: [leaseId],
      blockNumber,
    })
    return toLease(leaseId, raw)
  } catch (error) {
    if (error instanceof ContractRevertedError && error.errorName === 'LeaseMarketUnknownLease')
      throw new LeaseNotFoundError({ leaseId, cause: error })
    throw error
  }
}
