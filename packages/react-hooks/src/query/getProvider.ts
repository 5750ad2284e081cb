import {
  type GetProviderErrorType,
  type GetProviderParameters,
  type GetProviderReturnType,
  getProvider,
} from '@gridforge/sdk'
import type { Config } from '@wagmi/core'
import { readQueryOptions } from './readQuery.js'
import type { QueryOptions, QueryParameter } from './types.js'
import { type ChainParameters, queryKey, resolveChain } from './utils.js'

export type GetProviderData = GetProviderReturnType

export type GetProviderVariables = ChainParameters & Partial<Omit<GetProviderParameters, 'deployment'>>

export type GetProviderOptions<selectData = GetProviderData> = GetProviderVariables &
  QueryParameter<GetProviderData, GetProviderErrorType, selectData, GetProviderQueryKey>

/** `['gridforge', 'provider', { chainId, market, provider?, blockNumber? }]` */
export function getProviderQueryKey(config: Config, options: GetProviderVariables = {}) {
  const { provider, blockNumber } = options
  return queryKey('provider', resolveChain(config, options), { provider, blockNumber })
}

export type GetProviderQueryKey = ReturnType<typeof getProviderQueryKey>

/**
 * Query options for a provider's profile: registration, pause, capabilities and reputation (`getProvider`). Disabled until `provider` is set.
 *
 * @example
 * import { getProviderQueryOptions } from '@gridforge/react-hooks/query'
 *
 * const data = await queryClient.fetchQuery(getProviderQueryOptions(config, { provider: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' }))
 */
export function getProviderQueryOptions<selectData = GetProviderData>(
  config: Config,
  options: GetProviderOptions<selectData> = {},
): QueryOptions<GetProviderData, GetProviderErrorType, selectData, GetProviderQueryKey> {
  return readQueryOptions(config, options, {
    queryKey: getProviderQueryKey(config, options),
    required: ['provider'],
    read: getProvider,
  })
}
