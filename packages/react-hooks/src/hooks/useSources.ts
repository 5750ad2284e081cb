'use client'
import type { ListSourcesErrorType } from '@gridforge/sdk'
import { useChainId, useConfig } from 'wagmi'
import {
  type ListSourcesData,
  type ListSourcesOptions,
  type ListSourcesQueryKey,
  listSourcesQueryOptions,
} from '../query/listSources.js'
import { type ConfigParameter, type UseQueryReturnType, useQuery } from './query.js'

export type UseSourcesParameters<selectData = ListSourcesData> = ListSourcesOptions<selectData> &
  ConfigParameter

export type UseSourcesReturnType<selectData = ListSourcesData> = UseQueryReturnType<
  selectData,
  ListSourcesErrorType,
  ListSourcesQueryKey
>

/**
 * Lists published sources (`listSources`), e.g. only active ones.
 *
 * @example
 * import { useSources } from '@gridforge/react-hooks'
 *
 * const { data: sources } = useSources({ active: true })
 */
export function useSources<selectData = ListSourcesData>(
  parameters: UseSourcesParameters<selectData> = {},
): UseSourcesReturnType<selectData> {
  const config = useConfig(parameters)
  const chainId = useChainId({ config })
  const options = listSourcesQueryOptions(config, {
    ...parameters,
    chainId: parameters.chainId ?? chainId,
  })
  return useQuery(options)
}
