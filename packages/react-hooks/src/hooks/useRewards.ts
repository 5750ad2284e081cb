'use client'
import type { GetRewardsErrorType } from '@gridforge/sdk'
import { useChainId, useConfig, useConnection } from 'wagmi'
import {
  type GetRewardsData,
  type GetRewardsOptions,
  type GetRewardsQueryKey,
  getRewardsQueryOptions,
} from '../query/getRewards.js'
import { type ConfigParameter, type UseQueryReturnType, useQuery } from './query.js'

export type UseRewardsParameters<selectData = GetRewardsData> = GetRewardsOptions<selectData> &
  ConfigParameter

export type UseRewardsReturnType<selectData = GetRewardsData> = UseQueryReturnType<
  selectData,
  GetRewardsErrorType,
  GetRewardsQueryKey
>

/**
 * Reads the staking rewards an account can claim (`getRewards`); default: the connected account.
 *
 * @example
 * import { useRewards } from '@gridforge/react-hooks'
 *
 * const { data: rewards } = useRewards()
 */
export function useRewards<selectData = GetRewardsData>(
  parameters: UseRewardsParameters<selectData> = {},
): UseRewardsReturnType<selectData> {
  const config = useConfig(parameters)
  const chainId = useChainId({ config })
  const { address } = useConnection({ config })
  const options = getRewardsQueryOptions(config, {
    ...parameters,
    chainId: parameters.chainId ?? chainId,
    account: parameters.account ?? address,
  })
  return useQuery(options)
}
