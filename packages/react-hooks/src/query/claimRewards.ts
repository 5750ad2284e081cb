import {
  type ClaimRewardsErrorType,
  type ClaimRewardsParameters,
  type ClaimRewardsReturnType,
  claimRewards,
} from '@gridforge/sdk'
import type { Config } from '@wagmi/core'
import type { MutationOptionsOf, MutationParameter, WriteVariables } from './types.js'
import type { ChainParameters } from './utils.js'
import { invalidateAfterWrite, type WalletErrorType, writeWith } from './write.js'

export type ClaimRewardsData = ClaimRewardsReturnType

export type ClaimRewardsVariables = WriteVariables<ClaimRewardsParameters>

export type ClaimRewardsMutationErrorType = ClaimRewardsErrorType | WalletErrorType

export type ClaimRewardsOptions = ChainParameters &
  MutationParameter<ClaimRewardsData, ClaimRewardsMutationErrorType, ClaimRewardsVariables>

/** The queries a successful `claimRewards` refetches: `rewards`, `walletBalance`. */
export const claimRewardsInvalidates = ['rewards', 'walletBalance'] as const

/**
 * Mutation options to claim the account's staking rewards (`claimRewards`). Sent from the connected wallet; on success the
 * `rewards`, `walletBalance` queries are invalidated.
 *
 * @example
 * import { claimRewardsMutationOptions } from '@gridforge/react-hooks/query'
 * import { MutationObserver } from '@tanstack/query-core'
 *
 * const observer = new MutationObserver(queryClient, claimRewardsMutationOptions(config))
 * const result = await observer.mutate({})
 */
export function claimRewardsMutationOptions(
  config: Config,
  options: ClaimRewardsOptions = {},
): MutationOptionsOf<ClaimRewardsData, ClaimRewardsMutationErrorType, ClaimRewardsVariables> {
  return {
    ...options.mutation,
    mutationKey: ['gridforge', 'claimRewards'],
    mutationFn: (variables) => writeWith(config, options, variables, claimRewards),
    onSuccess: invalidateAfterWrite(claimRewardsInvalidates, options.mutation?.onSuccess),
  }
}
