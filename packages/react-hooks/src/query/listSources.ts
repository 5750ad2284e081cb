import {
  type ListSourcesErrorType,
  type ListSourcesParameters,
  type ListSourcesReturnType,
  listSources,
} from '@gridforge/sdk'
import type { Config } from '@wagmi/core'
import { readQueryOptions } from './readQuery.js'
import type { QueryOptions, QueryParameter } from './types.js'
import { type ChainParameters, queryKey, resolveChain } from './utils.js'

export type ListSourcesData = ListSourcesReturnType

export type ListSourcesVariables = ChainParameters & Partial<Omit<ListSourcesParameters, 'deployment'>>

export type ListSourcesOptions<selectData = ListSourcesData> = ListSourcesVariables &
  QueryParameter<ListSourcesData, ListSourcesErrorType, selectData, ListSourcesQueryKey>

/** `['gridforge', 'sources', { chainId, market, owner?, active?, fromBlock?, toBlock?, blockRange? }]` */
export function listSourcesQueryKey(config: Config, options: ListSourcesVariables = {}) {
  const { owner, active, fromBlock, toBlock, blockRange } = options
  return queryKey('sources', resolveChain(config, options), { owner, active, fromBlock, toBlock, blockRange })
}

export type ListSourcesQueryKey = ReturnType<typeof listSourcesQueryKey>

/**
 * Query options for every published source, optionally only one owner's or only active ones (`listSources`).
 * Through the `indexer` given, or the one the config's chain names (`custom.gridforge.indexer`),
 * when there is one; the chain's logs when it cannot answer.
 *
 * @example
 * import { listSourcesQueryOptions } from '@gridforge/react-hooks/query'
 *
 * const data = await queryClient.fetchQuery(listSourcesQueryOptions(config, { active: true }))
 */
export function listSourcesQueryOptions<selectData = ListSourcesData>(
  config: Config,
  options: ListSourcesOptions<selectData> = {},
): QueryOptions<ListSourcesData, ListSourcesErrorType, selectData, ListSourcesQueryKey> {
  return readQueryOptions(config, options, {
    queryKey: listSourcesQueryKey(config, options),
    required: [],
    read: listSources,
    indexed: true,
  })
}
