'use client'
import type { GetProtocolParamsErrorType } from '@gridforge/sdk'
import { useChainId, useConfig } from 'wagmi'
import {
  type GetProtocolParamsData,
  type GetProtocolParamsOptions,
  type GetProtocolParamsQueryKey,
  getProtocolParamsQueryOptions,
} from '../query/getProtocolParams.js'
import { type ConfigParameter, type UseQueryReturnType, useQuery } from './query.js'

export type UseProtocolParamsParameters<selectData = GetProtocolParamsData> =
  GetProtocolParamsOptions<selectData> & ConfigParameter

export type UseProtocolParamsReturnType<selectData = GetProtocolParamsData> = UseQueryReturnType<
  selectData,
  GetProtocolParamsErrorType,
  GetProtocolParamsQueryKey
>

/**
 * Reads the market's parameters, treasury and task count (`getProtocolParams`).
 *
 * @example
 * import { useProtocolParams } from '@gridforge/react-hooks'
 *
 * const { data: params } = useProtocolParams()
 */
export function useProtocolParams<selectData = GetProtocolParamsData>(
  parameters: UseProtocolParamsParameters<selectData> = {},
): UseProtocolParamsReturnType<selectData> {
  const config = useConfig(parameters)
  const chainId = useChainId({ config })
  const options = getProtocolParamsQueryOptions(config, {
    ...parameters,
    chainId: parameters.chainId ?? chainId,
  })
  return useQuery(options)
}
