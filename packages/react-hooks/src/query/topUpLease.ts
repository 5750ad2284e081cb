import {
  type TopUpLeaseErrorType,
  type TopUpLeaseParameters,
  type TopUpLeaseReturnType,
  topUpLease,
} from '@gridforge/sdk'
import type { Config } from '@wagmi/core'
import type { MutationOptionsOf, MutationParameter, WriteVariables } from './types.js'
import type { ChainParameters } from './utils.js'
import { invalidateAfterWrite, type WalletErrorType, writeWith } from './write.js'

export type TopUpLeaseData = TopUpLeaseReturnType

export type TopUpLeaseVariables = WriteVariables<TopUpLeaseParameters>

export type TopUpLeaseMutationErrorType = TopUpLeaseErrorType | WalletErrorType

export type TopUpLeaseOptions = ChainParameters &
  MutationParameter<TopUpLeaseData, TopUpLeaseMutationErrorType, TopUpLeaseVariables>

/** The queries a successful `topUpLease` refetches: `lease`, `leaseCost`, `leases`, `walletBalance`. */
export const topUpLeaseInvalidates = ['lease', 'leaseCost', 'leases', 'walletBalance'] as const

/**
 * Mutation options to add to a lease's deposit (`topUpLease`). Sent from the connected wallet; on success the
 * `lease`, `leaseCost`, `leases`, `walletBalance` queries are invalidated.
 *
 * @example
 * import { topUpLeaseMutationOptions } from '@gridforge/react-hooks/query'
 * import { MutationObserver } from '@tanstack/query-core'
 *
 * const observer = new MutationObserver(queryClient, topUpLeaseMutationOptions(config))
 * const result = await observer.mutate({ leaseId: 7n, amount: '5' })
 */
export function topUpLeaseMutationOptions(
  config: Config,
  options: TopUpLeaseOptions = {},
): MutationOptionsOf<TopUpLeaseData, TopUpLeaseMutationErrorType, TopUpLeaseVariables> {
  return {
    ...options.mutation,
    mutationKey: ['gridforge', 'topUpLease'],
    mutationFn: (variables) => writeWith(config, options, variables, topUpLease),
    onSuccess: invalidateAfterWrite(topUpLeaseInvalidates, options.mutation?.onSuccess),
  }
}
