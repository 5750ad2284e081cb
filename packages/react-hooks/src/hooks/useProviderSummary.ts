'use client'
import type { GetProviderSummaryErrorType } from '@gridforge/sdk'
import { useChainId, useConfig, useConnection } from 'wagmi'
import {
  type GetProviderSummaryData,
  type GetProviderSummaryOptions,
  type GetProviderSummaryQueryKey,
  getProviderSummaryQueryOptions,
} from '../query/getProviderSummary.js'
import { type ConfigParameter, type UseQueryReturnType, useQuery } from './query.js'

export type UseProviderSummaryParameters<selectData = GetProviderSummaryData> =
  GetProviderSummaryOptions<selectData> & ConfigParameter

export type UseProviderSummaryReturnType<selectData = GetProviderSummaryData> = UseQueryReturnType<
  selectData,
  GetProviderSummaryErrorType,
  GetProviderSummaryQueryKey
>

/**
 * Reads one provider at a glance (`getProviderSummary`): GPUs, price floor, record, earnings,
 * stake and current tasks, through the chain's indexer when the config names one; default: the
 * connected account. Pass `query: { refetchInterval }` to keep it fresh.
 *
 * @example
 * import { useProviderSummary } from '@gridforge/react-hooks'
 *
 * const { data: summary } = useProviderSummary({ provider: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' })
 */
export function useProviderSummary<selectData = GetProviderSummaryData>(
  parameters: UseProviderSummaryParameters<selectData> = {},
): UseProviderSummaryReturnType<selectData> {
  const config = useConfig(parameters)
  const chainId = useChainId({ config })
  const { address } = useConnection({ config })
  const options = getProviderSummaryQueryOptions(config, {
    ...parameters,
    chainId: parameters.chainId ?? chainId,
    provider: parameters.provider ?? address,
  })
  return useQuery(options)
}
