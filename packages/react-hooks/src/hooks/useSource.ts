'use client'
import type { GetSourceErrorType } from '@gridforge/sdk'
import { useChainId, useConfig } from 'wagmi'
import {
  type GetSourceData,
  type GetSourceOptions,
  type GetSourceQueryKey,
  getSourceQueryOptions,
} from '../query/getSource.js'
import { type ConfigParameter, type UseQueryReturnType, useQuery } from './query.js'

export type UseSourceParameters<selectData = GetSourceData> = GetSourceOptions<selectData> & ConfigParameter

export type UseSourceReturnType<selectData = GetSourceData> = UseQueryReturnType<
  selectData,
  GetSourceErrorType,
  GetSourceQueryKey
>

/**
 * Reads a source (`getSource`).
 *
 * @example
 * import { useSource } from '@gridforge/react-hooks'
 *
 * const { data: source } = useSource({ sourceId: 1 })
 */
export function useSource<selectData = GetSourceData>(
  parameters: UseSourceParameters<selectData> = {},
): UseSourceReturnType<selectData> {
  const config = useConfig(parameters)
  const chainId = useChainId({ config })
  const options = getSourceQueryOptions(config, {
    ...parameters,
    chainId: parameters.chainId ?? chainId,
  })
  return useQuery(options)
}
