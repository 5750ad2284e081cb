import {
  type CloseLeaseErrorType,
  type CloseLeaseParameters,
  type CloseLeaseReturnType,
  closeLease,
} from '@gridforge/sdk'
import type { Config } from '@wagmi/core'
import type { MutationOptionsOf, MutationParameter, WriteVariables } from './types.js'
import type { ChainParameters } from './utils.js'
import { invalidateAfterWrite, type WalletErrorType, writeWith } from './write.js'

export type CloseLeaseData = CloseLeaseReturnType

export type CloseLeaseVariables = WriteVariables<CloseLeaseParameters>

export type CloseLeaseMutationErrorType = CloseLeaseErrorType | WalletErrorType

export type CloseLeaseOptions = ChainParameters &
  MutationParameter<CloseLeaseData, CloseLeaseMutationErrorType, CloseLeaseVariables>

/** The queries a successful `closeLease` refetches: `lease`, `leaseCost`, `leases`, `walletBalance`. */
export const closeLeaseInvalidates = ['lease', 'leaseCost', 'leases', 'walletBalance'] as const

/**
 * Mutation options to close a lease now (`closeLease`): the unspent deposit goes back to the wallet at once. Sent from the connected wallet; on success the
 * `lease`, `leaseCost`, `leases`, `walletBalance` queries are invalidated.
 *
 * @example
 * import { closeLeaseMutationOptions } from '@gridforge/react-hooks/query'
 * import { MutationObserver } from '@tanstack/query-core'
 *
 * const observer = new MutationObserver(queryClient, closeLeaseMutationOptions(config))
 * const result = await observer.mutate({ leaseId: 7n })
 */
export function closeLeaseMutationOptions(
  config: Config,
  options: CloseLeaseOptions = {},
): MutationOptionsOf<CloseLeaseData, CloseLeaseMutationErrorType, CloseLeaseVariables> {
  return {
    ...options.mutation,
    mutationKey: ['gridforge', 'closeLease'],
    mutationFn: (variables) => writeWith(config, options, variables, closeLease),
    onSuccess: invalidateAfterWrite(closeLeaseInvalidates, options.mutation?.onSuccess),
  }
}
