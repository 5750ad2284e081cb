import {
  type WithdrawUnbondedErrorType,
  type WithdrawUnbondedParameters,
  type WithdrawUnbondedReturnType,
  withdrawUnbonded,
} from '@gridforge/sdk'
import type { Config } from '@wagmi/core'
import type { MutationOptionsOf, MutationParameter, WriteVariables } from './types.js'
import type { ChainParameters } from './utils.js'
import { invalidateAfterWrite, type WalletErrorType, writeWith } from './write.js'

export type WithdrawUnbondedData = WithdrawUnbondedReturnType

export type WithdrawUnbondedVariables = WriteVariables<WithdrawUnbondedParameters>

export type WithdrawUnbondedMutationErrorType = WithdrawUnbondedErrorType | WalletErrorType

export type WithdrawUnbondedOptions = ChainParameters &
  MutationParameter<WithdrawUnbondedData, WithdrawUnbondedMutationErrorType, WithdrawUnbondedVariables>

/** The queries a successful `withdrawUnbonded` refetches: `stake`, `walletBalance`. */
export const withdrawUnbondedInvalidates = ['stake', 'walletBalance'] as const

/**
 * Mutation options to withdraw stake whose unbonding period ended (`withdrawUnbonded`). Sent from the connected wallet; on success the
 * `stake`, `walletBalance` queries are invalidated.
 *
 * @example
 * import { withdrawUnbondedMutationOptions } from '@gridforge/react-hooks/query'
 * import { MutationObserver } from '@tanstack/query-core'
 *
 * const observer = new MutationObserver(queryClient, withdrawUnbondedMutationOptions(config))
 * const result = await observer.mutate({})
 */
export function withdrawUnbondedMutationOptions(
  config: Config,
  options: WithdrawUnbondedOptions = {},
): MutationOptionsOf<WithdrawUnbondedData, WithdrawUnbondedMutationErrorType, WithdrawUnbondedVariables> {
  return {
    ...options.mutation,
    mutationKey: ['gridforge', 'withdrawUnbonded'],
    mutationFn: (variables) => writeWith(config, options, variables, withdrawUnbonded),
    onSuccess: invalidateAfterWrite(withdrawUnbondedInvalidates, options.mutation?.onSuccess),
  }
}
