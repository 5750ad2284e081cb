'use client'
import type { GetNetworkStatsErrorType } from '@gridforge/sdk'
import { useChainId, useConfig } from 'wagmi'
import {
  type GetNetworkStatsData,
  type GetNetworkStatsOptions,
  type GetNetworkStatsQueryKey,
  getNetworkStatsQueryOptions,
} from '../query/getNetworkStats.js'
import { type ConfigParameter, type UseQueryReturnType, useQuery } from './query.js'

export type UseNetworkStatsParameters<selectData = GetNetworkStatsData> = GetNetworkStatsOptions<selectData> &
  ConfigParameter

export type UseNetworkStatsReturnType<selectData = GetNetworkStatsData> = UseQueryReturnType<
  selectData,
  GetNetworkStatsErrorType,
  GetNetworkStatsQueryKey
>

/**
 * Reads network-wide figures (`getNetworkStats`): tasks, open tasks, active providers, total paid. Live pages get them refreshed by `useTask`/`useTasks` when tasks settle.
 *
 * @example
 * import { useNetworkStats } from '@gridforge/react-hooks'
 *
 * const { data: stats } = useNetworkStats()
 */
export function useNetworkStats<selectData = GetNetworkStatsData>(
  parameters: UseNetworkStatsParameters<selectData> = {},
): UseNetworkStatsReturnType<selectData> {
  const config = useConfig(parameters)
  const chainId = useChainId({ config })
  const options = getNetworkStatsQueryOptions(config, {
    ...parameters,
    chainId: parameters.chainId ?? chainId,
  })
  return useQuery(options)
}
