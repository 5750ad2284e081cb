import type { Account, Chain, Client, Transport } from 'viem'
import { paramsAt as paramsAtFunction, params as paramsFunction } from '../abis/leaseMarket.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import * as s from '../internal/schemas.js'
import { optional, validateFields } from '../internal/validate.js'
import { read } from '../internal/write.js'
import type { DeploymentParameter } from '../types/deployment.js'

export type GetLeaseParamsParameters = DeploymentParameter & {
  /** A lease's `paramsVersion` (a lease keeps the parameters in force when it was requested); default: those new leases take. */
  version?: number | undefined
}

/** The owner-set lease parameters, times in seconds. */
export interface GetLeaseParamsReturnType {
  protocolFeeBps: number
  /** How long acknowledgements may lapse before the provider may end a lease for silence. */
  ackGrace: number
  /** How long without a proof of service before the renter may report the provider offline. */
  offlineAfter: number
  /** Time the provider has to answer an offline report. */
  responseWindow: number
  /** Time after a lease's end in which the provider may still redeem its last acknowledgement. */
  claimWindow: number
  /** Notice the provider must give to end a lease. */
  noticePeriod: number
}

export type GetLeaseParamsErrorType = InvalidParametersErrorType | ContractRevertedErrorType | Error

const fields = { version: optional(s.uint(16)) }

/**
 * Reads the lease market's parameters: those new leases take, or those of a
 * lease's `paramsVersion`.
 *
 * @example
 * import { getLeaseParams } from '@gridforge/sdk'
 *
 * const { ackGrace } = await getLeaseParams(client, { deployment })
 * console.log(`acknowledge at least every ${ackGrace} s`)
 */
export async function getLeaseParams(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: GetLeaseParamsParameters,
): Promise<GetLeaseParamsReturnType> {
  const action = 'getLeaseParams'
  const { version } = validateFields(action, fields, parameters)
  // Neither view reverts: no hints to bundle.
  const request = { action, hints: {}, address: parameters.deployment.contracts.leases }
  return version === undefined
    ? read(client, { ...request, abi: [paramsFunction], functionName: 'params' })
    : read(client, { ...request, abi: [paramsAtFunction], functionName: 'paramsAt', args: [version] })
}
