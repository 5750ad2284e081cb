import { type StakeErrorType, type StakeParameters, type StakeReturnType, stake } from '@gridforge/sdk'
import type { Config } from '@wagmi/core'
import type { MutationOptionsOf, MutationParameter, WriteVariables } from './types.js'
import type { ChainParameters } from './utils.js'
import { invalidateAfterWrite, type WalletErrorType, writeWith } from './write.js'

export type StakeData = StakeReturnType

export type StakeVariables = WriteVariables<StakeParameters>

export type StakeMutationErrorType = StakeErrorType | WalletErrorType

export type StakeOptions = ChainParameters &
  MutationParameter<StakeData, StakeMutationErrorType, StakeVariables>

/** The queries a successful `stake` refetches: `stake`, `walletBalance`, `rewards`. */
export const stakeInvalidates = ['stake', 'walletBalance', 'rewards'] as const

/**
 * Mutation options to stake tokens (`stake`): collateral for claims and a share of protocol fees; `approve: true` sends an approval first when the allowance is short. Sent from the connected wallet; on success the
 * `stake`, `walletBalance`, `rewards` queries are invalidated.
 *
 * @example
 * import { stakeMutationOptions } from '@gridforge/react-hooks/query'
 * import { MutationObserver } from '@tanstack/query-core'
 *
 * const observer = new MutationObserver(queryClient, stakeMutationOptions(config))
 * const result = await observer.mutate({ amount: '100', approve: true })
 */
export function stakeMutationOptions(
  config: Config,
  options: StakeOptions = {},
): MutationOptionsOf<StakeData, StakeMutationErrorType, StakeVariables> {
  return {
    ...options.mutation,
    mutationKey: ['gridforge', 'stake'],
    mutationFn: (variables) => writeWith(config, options, variables, stake),
    onSuccess: invalidateAfterWrite(stakeInvalidates, options.mutation?.onSuccess),
  }
}
