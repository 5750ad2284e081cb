import {
  type GetNetworkStatsErrorType,
  type GetNetworkStatsParameters,
  type GetNetworkStatsReturnType,
  getNetworkStats,
} from '@gridforge/sdk'
import type { Config } from '@wagmi/core'
import type { QueryOptions, QueryParameter } from './types.js'
import {
  type ChainParameters,
  queryKey,
  queryKeyHashFn,
  readClient,
  requireDeployment,
  resolveChain,
} from './utils.js'

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
  const chain = resolveChain(config, options)
  const { fromBlock, toBlock, blockRange } = options
  return {
    ...options.query,
    queryKey: getNetworkStatsQueryKey(config, options),
    queryKeyHashFn,
    queryFn: async () => {
      return getNetworkStats(readClient(config, chain.chainId), {
        deployment: requireDeployment(chain),
        fromBlock,
        toBlock,
        blockRange,
      })
    },
  }
}
