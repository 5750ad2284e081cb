import {
  type ListTasksErrorType,
  type ListTasksParameters,
  type ListTasksReturnType,
  listTasks,
} from '@gridforge/sdk'
import type { Config } from '@wagmi/core'
import { readQueryOptions } from './readQuery.js'
import type { QueryOptions, QueryParameter } from './types.js'
import { type ChainParameters, queryKey, resolveChain } from './utils.js'

export type ListTasksData = ListTasksReturnType

export type ListTasksVariables = ChainParameters & Partial<Omit<ListTasksParameters, 'deployment'>>

export type ListTasksOptions<selectData = ListTasksData> = ListTasksVariables &
  QueryParameter<ListTasksData, ListTasksErrorType, selectData, ListTasksQueryKey>

/** `['gridforge', 'tasks', { chainId, market, client?, provider?, sourceId?, status?, fromBlock?, toBlock?, blockRange?, limit?, afterTaskId? }]` */
export function listTasksQueryKey(config: Config, options: ListTasksVariables = {}) {
  const { client, provider, sourceId, status, fromBlock, toBlock, blockRange, limit, afterTaskId } = options
  return queryKey('tasks', resolveChain(config, options), {
    client,
    provider,
    sourceId,
    status,
    fromBlock,
    toBlock,
    blockRange,
    limit,
    afterTaskId,
  })
}

export type ListTasksQueryKey = ReturnType<typeof listTasksQueryKey>

/**
 * Query options for tasks by client, provider, source or status (`listTasks`), by ascending id.
 * Through the `indexer` given, or the one the config's chain names (`custom.gridforge.indexer`),
 * when there is one; the chain's logs when it cannot answer.
 *
 * @example
 * import { listTasksQueryOptions } from '@gridforge/react-hooks/query'
 *
 * const data = await queryClient.fetchQuery(listTasksQueryOptions(config, { client: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' }))
 */
export function listTasksQueryOptions<selectData = ListTasksData>(
  config: Config,
  options: ListTasksOptions<selectData> = {},
): QueryOptions<ListTasksData, ListTasksErrorType, selectData, ListTasksQueryKey> {
  return readQueryOptions(config, options, {
    queryKey: listTasksQueryKey(config, options),
    required: [],
    read: listTasks,
    indexed: true,
  })
}
