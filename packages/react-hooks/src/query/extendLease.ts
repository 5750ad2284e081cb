import {
  type ExtendLeaseErrorType,
  type ExtendLeaseParameters,
  type ExtendLeaseReturnType,
  extendLease,
} from '@gridforge/sdk'
import type { Config } from '@wagmi/core'
import type { MutationOptionsOf, MutationParameter, WriteVariables } from './types.js'
import type { ChainParameters } from './utils.js'
import { invalidateAfterWrite, type WalletErrorType, writeWith } from './write.js'

export type ExtendLeaseData = ExtendLeaseReturnType

export type ExtendLeaseVariables = WriteVariables<ExtendLeaseParameters>

export type ExtendLeaseMutationErrorType = ExtendLeaseErrorType | WalletErrorType

export type ExtendLeaseOptions = ChainParameters &
  MutationParameter<ExtendLeaseData, ExtendLeaseMutationErrorType, ExtendLeaseVariables>

/** The queries a successful `extendLease` refetches: `lease`, `leaseCost`, `leases`. */
export const extendLeaseInvalidates = ['lease', 'leaseCost', 'leases'] as const

/**
 * Mutation options to make a lease longer (`extendLease`; top up too: it still ends when its deposit runs out). Sent from the connected wallet; on success the
 * `lease`, `leaseCost`, `leases` queries are invalidated.
 *
 * @example
 * import { extendLeaseMutationOptions } from '@gridforge/react-hooks/query'
 * import { MutationObserver } from '@tanstack/query-core'
 *
 * const observer = new MutationObserver(queryClient, extendLeaseMutationOptions(config))
 * const result = await observer.mutate({ leaseId: 7n, by: '1h' })
 */
export function extendLeaseMutationOptions(
  config: Config,
  options: ExtendLeaseOptions = {},
): MutationOptionsOf<ExtendLeaseData, ExtendLeaseMutationErrorType, ExtendLeaseVariables> {
  return {
    ...options.mutation,
    mutationKey: ['gridforge', 'extendLease'],
    mutationFn: (variables) => writeWith(config, options, variables, extendLease),
    onSuccess: invalidateAfterWrite(extendLeaseInvalidates, options.mutation?.onSuccess),
  }
}
