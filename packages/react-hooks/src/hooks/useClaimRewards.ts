'use client'
import { type UseMutationResult, useMutation } from '@tanstack/react-query'
import { useConfig } from 'wagmi'
import {
  type ClaimRewardsData,
  type ClaimRewardsMutationErrorType,
  type ClaimRewardsOptions,
  type ClaimRewardsVariables,
  claimRewardsMutationOptions,
} from '../query/claimRewards.js'
import type { ConfigParameter } from './query.js'

export type UseClaimRewardsParameters = ClaimRewardsOptions & ConfigParameter

export type UseClaimRewardsReturnType = UseMutationResult<
  ClaimRewardsData,
  ClaimRewardsMutationErrorType,
  ClaimRewardsVariables
>

/**
 * Claims the connected account's staking rewards (`claimRewards`).
 *
 * @example
 * import { useClaimRewards } from '@gridforge/react-hooks'
 *
 * const { mutate: claimRewards } = useClaimRewards()
 * claimRewards({})
 */
export function useClaimRewards(parameters: UseClaimRewardsParameters = {}): UseClaimRewardsReturnType {
  const config = useConfig(parameters)
  return useMutation(claimRewardsMutationOptions(config, parameters))
}
