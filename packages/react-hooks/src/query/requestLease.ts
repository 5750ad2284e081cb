import {
  type RequestLeaseErrorType,
  type RequestLeaseParameters,
  type RequestLeaseReturnType,
  requestLease,
} from '@gridforge/sdk'
import type { Config } from '@wagmi/core'
import type { MutationOptionsOf, MutationParameter, WriteVariables } from './types.js'
import type { ChainParameters } from './utils.js'
import { invalidateAfterWrite, type WalletErrorType, writeWith } from './write.js'

export type RequestLeaseData = RequestLeaseReturnType

export type RequestLeaseVariables = WriteVariables<RequestLeaseParameters>

export type RequestLeaseMutationErrorType = RequestLeaseErrorType | WalletErrorType

export type RequestLeaseOptions = ChainParameters &
  MutationParameter<RequestLeaseData, RequestLeaseMutationErrorType, RequestLeaseVariables>

/** The queries a successful `requestLease` refetches: `leases`, `walletBalance`. */
export const requestLeaseInvalidates = ['leases', 'walletBalance'] as const

/**
 * Mutation options to request a lease (`requestLease`; the deposit is pulled from an allowance of the lease market: `requestLeaseWithPermit` signs a permit instead). Sent from the connected wallet; on success the
 * `leases`, `walletBalance` queries are invalidated.
 *
 * @example
 * import { requestLeaseMutationOptions } from '@gridforge/react-hooks/query'
 * import { MutationObserver } from '@tanstack/query-core'
 *
 * const observer = new MutationObserver(queryClient, requestLeaseMutationOptions(config))
 * const result = await observer.mutate({ sourceId: 3, maxPricePerHour: '3.6', duration: '2h', deposit: '8', ackSigner })
 */
export function requestLeaseMutationOptions(
  config: Config,
  options: RequestLeaseOptions = {},
): MutationOptionsOf<RequestLeaseData, RequestLeaseMutationErrorType, RequestLeaseVariables> {
  return {
    ...options.mutation,
    mutationKey: ['gridforge', 'requestLease'],
    mutationFn: (variables) => writeWith(config, options, variables, requestLease),
    onSuccess: invalidateAfterWrite(requestLeaseInvalidates, options.mutation?.onSuccess),
  }
}
