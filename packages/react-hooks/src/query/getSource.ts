import {
  type GetSourceErrorType,
  type GetSourceParameters,
  type GetSourceReturnType,
  getSource,
} from '@gridforge/sdk'
import type { Config } from '@wagmi/core'
import { readQueryOptions } from './readQuery.js'
import type { QueryOptions, QueryParameter } from './types.js'
import { type ChainParameters, queryKey, resolveChain } from './utils.js'

export type GetSourceData = GetSourceReturnType

export type GetSourceVariables = ChainParameters & Partial<Omit<GetSourceParameters, 'deployment'>>

export type GetSourceOptions<selectData = GetSourceData> = GetSourceVariables &
  QueryParameter<GetSourceData, GetSourceErrorType, selectData, GetSourceQueryKey>

/** `['gridforge', 'source', { chainId, market, sourceId?, blockNumber? }]` */
export function getSourceQueryKey(config: Config, options: GetSourceVariables = {}) {
  const { sourceId, blockNumber } = options
  return queryKey('source', resolveChain(config, options), { sourceId, blockNumber })
}

export type GetSourceQueryKey = ReturnType<typeof getSourceQueryKey>

/**
 * Query options for a source (`getSource`): its owner, image digest, metadata CID, requirements and whether it is active. Disabled until `sourceId` is set.
 *
 * @example
 * import { getSourceQueryOptions } from '@gridforge/react-hooks/query'
 *
 * const data = await queryClient.fetchQuery(getSourceQueryOptions(config, { sourceId: 1 }))
 */
export function getSourceQueryOptions<selectData = GetSourceData>(
  config: Config,
  options: GetSourceOptions<selectData> = {},
): QueryOptions<GetSourceData, GetSourceErrorType, selectData, GetSourceQueryKey> {
  return readQueryOptions(config, options, {
    queryKey: getSourceQueryKey(config, options),
    required: ['sourceId'],
    read: getSource,
  })
}
