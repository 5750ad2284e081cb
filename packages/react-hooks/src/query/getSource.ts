import {
  type GetSourceErrorType,
  type GetSourceParameters,
  type GetSourceReturnType,
  getSource,
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
  const chain = resolveChain(config, options)
  const { sourceId, blockNumber } = options
  return {
    ...options.query,
    enabled: sourceId !== undefined && (options.query?.enabled ?? true),
    queryKey: getSourceQueryKey(config, options),
    queryKeyHashFn,
    queryFn: async () => {
      if (sourceId === undefined) throw new Error('sourceId is required')
      return getSource(readClient(config, chain.chainId), {
        deployment: requireDeployment(chain),
        sourceId,
        blockNumber,
      })
    },
  }
}
