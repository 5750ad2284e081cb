import {
  type GetProviderSummaryErrorType,
  type GetProviderSummaryParameters,
  type GetProviderSummaryReturnType,
  getProviderSummary,
} from '@gridforge/sdk'
import type { Config } from '@wagmi/core'
import { readQueryOptions } from './readQuery.js'
import type { QueryOptions, QueryParameter } from './types.js'
import { type ChainParameters, queryKey, resolveChain } from './utils.js'

export type GetProviderSummaryData = GetProviderSummaryReturnType

export type GetProviderSummaryVariables = ChainParameters &
  Partial<Omit<GetProviderSummaryParameters, 'deployment'>>

export type GetProviderSummaryOptions<selectData = GetProviderSummaryData> = GetProviderSummaryVariables &
  QueryParameter<GetProviderSummaryData, GetProviderSummaryErrorType, selectData, GetProviderSummaryQueryKey>

/** `['gridforge', 'providerSummary', { chainId, market, provider? }]` */
export function getProviderSummaryQueryKey(config: Config, options: GetProviderSummaryVariables = {}) {
  const { provider } = options
  return queryKey('providerSummary', resolveChain(config, options), { provider })
}

export type GetProviderSummaryQueryKey = ReturnType<typeof getProviderSummaryQueryKey>

/**
 * Query options for one provider at a glance (`getProviderSummary`): profile, GPUs, price floor,
 * record, earnings, stake and current tasks. Through the `indexer` given, or the one the config's
 * chain names (`custom.gridforge.indexer`), when there is one; the chain when it cannot answer.
 * Disabled until `provider` is set.
 *
 * @example
 * import { getProviderSummaryQueryOptions } from '@gridforge/react-hooks/query'
 *
 * const data = await queryClient.fetchQuery(
 *   getProviderSummaryQueryOptions(config, { provider: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' }),
 * )
 */
export function getProviderSummaryQueryOptions<selectData = GetProviderSummaryData>(
  config: Config,
  options: GetProviderSummaryOptions<selectData> = {},
): QueryOptions<GetProviderSummaryData, GetProviderSummaryErrorType, selectData, GetProviderSummaryQueryKey> {
  return readQueryOptions(config, options, {
    queryKey: getProviderSummaryQueryKey(config, options),
    required: ['provider'],
    read: getProviderSummary,
    indexed: true,
  })
}
