import {
  type GetNetworkStatsErrorType,
  type GetNetworkStatsParameters,
  type GetNetworkStatsReturnType,
  getNetworkStats,
} from '@gridforge/sdk'
import type { Config } from '@wagmi/core'
import { readQueryOptions } from './readQuery.js'
import type { QueryOptions, QueryParameter } from './types.js'
import { type ChainParameters, queryKey, resolveChain } from './utils.js'

export type GetNetworkStatsData = GetNetworkStatsReturnType

export type GetNetworkStatsVariables = ChainParameters &
  Partial<Omit<GetNetworkStatsParameters, 'deployment'>>

export type GetNetworkStatsOptions<selectData = GetNetworkStatsData> = GetNetworkStatsVariables &
  QueryParameter<GetNetworkStatsData, GetNetworkStatsErrorType, selectData, GetNetworkStatsQueryKey>

/** `['gridforge', 'networkStats', { chainId, market, fromBlock?, toBlock?, blockRange? }]` */
export function getNetworkStatsQueryKey(config: Config, options: GetNetworkStatsVariables = {}) {
  const { fromBlock, toBlock, blockRange } = options
  return queryKey('networkStats', resolveChain(config, options), { fromBlock, toBlock, blockRange })
}

export type GetNetworkStatsQueryKey = ReturnType<typeof getNetworkStatsQueryKey>

/**
 * Query options for network-wide figures: tasks, open tasks, settled tasks by status, providers, total paid (`getNetworkStats`).
 * Through the `indexer` given, or the one the config's chain names (`custom.gridforge.indexer`),
 * when there is one; the chain's logs when it cannot answer.
 *
 * @example
 * import { getNetworkStatsQueryOptions } from '@gridforge/react-hooks/query'
 *
 * const data = await queryClient.fetchQuery(getNetworkStatsQueryOptions(config, {}))
 */
export function getNetworkStatsQueryOptions<selectData = GetNetworkStatsData>(
  config: Config,
  options: GetNetworkStatsOptions<selectData> = {},
): QueryOptions<GetNetworkStatsData, GetNetworkStatsErrorType, selectData, GetNetworkStatsQueryKey> {
  return readQueryOptions(config, options, {
    queryKey: getNetworkStatsQueryKey(config, options),
    required: [],
    read: getNetworkStats,
    indexed: true,
  })
}
