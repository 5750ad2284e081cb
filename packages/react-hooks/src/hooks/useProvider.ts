'use client'
import type { GetProviderErrorType } from '@gridforge/sdk'
import { useChainId, useConfig, useConnection } from 'wagmi'
import {
  type GetProviderData,
  type GetProviderOptions,
  type GetProviderQueryKey,
  getProviderQueryOptions,
} from '../query/getProvider.js'
import { type ConfigParameter, type UseQueryReturnType, useQuery } from './query.js'

export type UseProviderParameters<selectData = GetProviderData> = GetProviderOptions<selectData> &
  ConfigParameter

export type UseProviderReturnType<selectData = GetProviderData> = UseQueryReturnType<
  selectData,
  GetProviderErrorType,
  GetProviderQueryKey
>

/**
 * Reads a provider's profile (`getProvider`); default: the connected account.
 *
 * @example
 * import { useProvider } from '@gridforge/react-hooks'
 *
 * const { data: provider } = useProvider({ provider: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' })
 */
export function useProvider<selectData = GetProviderData>(
  parameters: UseProviderParameters<selectData> = {},
): UseProviderReturnType<selectData> {
  const config = useConfig(parameters)
  const chainId = useChainId({ config })
  const { address } = useConnection({ config })
  const options = getProviderQueryOptions(config, {
    ...parameters,
    chainId: parameters.chainId ?? chainId,
    provider: parameters.provider ?? address,
  })
  return useQuery(options)
}
