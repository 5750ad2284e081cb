import type { Account, Chain, Client, Transport } from 'viem'
import * as z from 'zod/mini'
import { LeaseMarketUnknownLease, leaseEnd } from '../abis/leaseMarket.js'
import { ContractRevertedError, type ContractRevertedErrorType } from '../errors/contract.js'
import { leaseMarketHints } from '../errors/hints/leaseMarket.js'
import { LeaseNotFoundError, type LeaseNotFoundErrorType } from '../errors/lease.js'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import * as s from '../internal/schemas.js'
import { optional, validateFields } from '../internal/validate.js'
import { read } from '../internal/write.js'
import type { DeploymentParameter } from '../types/deployment.js'
import type { LeaseEndReason } from '../types/lease.js'
import { endReasonName } from './write.js'

export type GetLeaseEndParameters = DeploymentParameter & {
  leaseId: number | bigint
  blockNumber?: bigint | undefined
}

export type GetLeaseEndReturnType = {
  /**
   * When the lease ends (or ended), in Unix seconds, as things stand now: the
   * earliest of its end time and the time its deposit runs out (0 while
   * requested).
   */
  endsAt: number
  /** Why; `'None'` while it runs with no fixed end. */
  reason: LeaseEndReason
}

export type GetLeaseEndErrorType =
  | InvalidParametersErrorType
  | LeaseNotFoundErrorType
  | ContractRevertedErrorType
  | Error

const fields = { leaseId: s.leaseId, blockNumber: optional(z.bigint()) }

/**
 * Reads when a lease ends (or ended) and why, as the contract sees it now.
 *
 * @example
 * import { getLeaseEnd } from '@gridforge/sdk'
 *
 * const { endsAt, reason } = await getLeaseEnd(client, { deployment, leaseId: 7n })
 */
export async function getLeaseEnd(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: GetLeaseEndParameters,
): Promise<GetLeaseEndReturnType> {
  const action = 'getLeaseEnd'
  const { leaseId, blockNumber } = validateFields(action, fields, parameters)
  try {
    const [endsAt, reason] = await read<readonly [number, number]>(client, {
      action,
      hints: leaseMarketHints,
      address: parameters.deployment.contracts.leases,
      abi: [leaseEnd, LeaseMarketUnknownLease],
      functionName: 'leaseEnd',
      args: [leaseId],
      blockNumber,
    })
    return { endsAt, reason: endReasonName(reason) }
  } catch (error) {
    if (error instanceof ContractRevertedError && error.errorName === 'LeaseMarketUnknownLease')
      throw new LeaseNotFoundError({ leaseId, cause: error })
    throw error
  }
}
