import {
  type ListLeasesErrorType,
  type ListLeasesParameters,
  type ListLeasesReturnType,
  listLeases,
} from '@gridforge/sdk'
import type { Config } from '@wagmi/core'
import { readQueryOptions } from './readQuery.js'
import type { QueryOptions, QueryParameter } from './types.js'
import { type ChainParameters, queryKey, resolveChain } from './utils.js'

export type ListLeasesData = ListLeasesReturnType

export type ListLeasesVariables = ChainParameters & Partial<Omit<ListLeasesParameters, 'deployment'>>

export type ListLeasesOptions<selectData = ListLeasesData> = ListLeasesVariables &
  QueryParameter<ListLeasesData, ListLeasesErrorType, selectData, ListLeasesQueryKey>

/** `['gridforge', 'leases', { chainId, market, renter?, provider?, sourceId?, status?, fromBlock?, toBlock?, blockRange? }]` */
export function listLeasesQueryKey(config: Config, options: ListLeasesVariables = {}) {
  const { renter, provider, sourceId, status, fromBlock, toBlock, blockRange } = options
  return queryKey('leases', resolveChain(config, options), {
    renter,
    provider,
    sourceId,
    status,
    fromBlock,
    toBlock,
    blockRange,
  })
}

export type ListLeasesQueryKey = ReturnType<typeof listLeasesQueryKey>

/**
 * Query options for leases by renter or provider, source and status (`listLeases`), by ascending id.
 * Through the `indexer` given, or the one the config's chain names (`custom.gridforge.indexer`),
 * when there is one; the lease market's events when it cannot answer.
 *
 * @example
 * import { listLeasesQueryOptions } from '@gridforge/react-hooks/query'
 *
 * const data = await queryClient.fetchQuery(listLeasesQueryOptions(config, { renter: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' }))
 */
export function listLeasesQueryOptions<selectData = ListLeasesData>(
  config: Config,
  options: ListLeasesOptions<selectData> = {},
): QueryOptions<ListLeasesData, ListLeasesErrorType, selectData, ListLeasesQueryKey> {
  return readQueryOptions(config, options, {
    queryKey: listLeasesQueryKey(config, options),
    required: [],
    read: listLeases,
    indexed: true,
  })
}
