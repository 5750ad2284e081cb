import {
  type RequestUnbondErrorType,
  type RequestUnbondParameters,
  type RequestUnbondReturnType,
  requestUnbond,
} from '@gridforge/sdk'
import type { Config } from '@wagmi/core'
import type { MutationOptionsOf, MutationParameter, WriteVariables } from './types.js'
import type { ChainParameters } from './utils.js'
import { invalidateAfterWrite, type WalletErrorType, writeWith } from './write.js'

export type RequestUnbondData = RequestUnbondReturnType

export type RequestUnbondVariables = WriteVariables<RequestUnbondParameters>

export type RequestUnbondMutationErrorType = RequestUnbondErrorType | WalletErrorType

export type RequestUnbondOptions = ChainParameters &
  MutationParameter<RequestUnbondData, RequestUnbondMutationErrorType, RequestUnbondVariables>

/** The queries a successful `requestUnbond` refetches: `stake`, `rewards`. */
export const requestUnbondInvalidates = ['stake', 'rewards'] as const

/**
 * Mutation options to start unbonding available stake (`requestUnbond`); withdraw it with `withdrawUnbonded` once the period ends. Sent from the connected wallet; on success the
 * `stake`, `rewards` queries are invalidated.
 *
 * @example
 * import { requestUnbondMutationOptions } from '@gridforge/react-hooks/query'
 * import { MutationObserver } from '@tanstack/query-core'
 *
 * const observer = new MutationObserver(queryClient, requestUnbondMutationOptions(config))
 * const result = await observer.mutate({ amount: '50' })
 */
export function requestUnbondMutationOptions(
  config: Config,
  options: RequestUnbondOptions = {},
): MutationOptionsOf<RequestUnbondData, RequestUnbondMutationErrorType, RequestUnbondVariables> {
  return {
    ...options.mutation,
    mutationKey: ['gridforge', 'requestUnbond'],
    mutationFn: (variables) => writeWith(config, options, variables, requestUnbond),
    onSuccess: invalidateAfterWrite(requestUnbondInvalidates, options.mutation?.onSuccess),
  }
}
