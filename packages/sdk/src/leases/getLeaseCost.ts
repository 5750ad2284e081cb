import type { Account, Chain, Client, Transport } from 'viem'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import type { LeaseNotFoundErrorType } from '../errors/lease.js'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import { latestTimestamp } from '../tasks/submitTask.js'
import type { DeploymentParameter } from '../types/deployment.js'
import type { Lease } from '../types/lease.js'
import { getLease } from './getLease.js'
import { getLeaseParams } from './getLeaseParams.js'
import { type LeaseCost, leaseCost } from './leaseCost.js'

export type GetLeaseCostParameters = DeploymentParameter & { leaseId: number | bigint }

export type GetLeaseCostReturnType = LeaseCost & { lease: Lease; ackGrace: number }

export type GetLeaseCostErrorType =
  | InvalidParametersErrorType
  | LeaseNotFoundErrorType
  | ContractRevertedErrorType
  | Error

/**
 * A live cost meter of a lease: reads the lease, the latest block's time and
 * the lease's `ackGrace` (three calls), then computes what it has cost so far,
 * what the provider may still claim, the deposit left, when the deposit runs
 * out, and whether it runs out within `ackGrace` (top up). Call it again to
 * refresh: nothing is cached.
 *
 * @example
 * import { formatAmount, getLeaseCost } from '@gridforge/sdk'
 *
 * const cost = await getLeaseCost(client, { deployment, leaseId: 7n })
 * console.log(formatAmount(cost.accrued), formatAmount(cost.depositLeft), new Date(cost.fundedUntil * 1000))
 * if (cost.lowDeposit) console.log('top up soon')
 */
export async function getLeaseCost(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: GetLeaseCostParameters,
): Promise<GetLeaseCostReturnType> {
  const { deployment, leaseId } = parameters
  const [lease, now] = await Promise.all([getLease(client, { deployment, leaseId }), latestTimestamp(client)])
  const { ackGrace } = await getLeaseParams(client, { deployment, version: lease.paramsVersion })
  return { ...leaseCost(lease, { now, ackGrace }), lease, ackGrace }
}
