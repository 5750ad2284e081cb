import {
  type GetLeaseErrorType,
  type GetLeaseParameters,
  type GetLeaseReturnType,
  getLease,
} from '@gridforge/sdk'
import type { Config } from '@wagmi/core'
import { readQueryOptions } from './readQuery.js'
import type { QueryOptions, QueryParameter } from './types.js'
import { type ChainParameters, queryKey, resolveChain } from './utils.js'

export type GetLeaseData = GetLeaseReturnType

export type GetLeaseVariables = ChainParameters & Partial<Omit<GetLeaseParameters, 'deployment'>>

export type GetLeaseOptions<selectData = GetLeaseData> = GetLeaseVariables &
  QueryParameter<GetLeaseData, GetLeaseErrorType, selectData, GetLeaseQueryKey>

/** `['gridforge', 'lease', { chainId, market, leaseId?, blockNumber? }]` */
export function getLeaseQueryKey(config: Config, options: GetLeaseVariables = {}) {
  const { leaseId, blockNumber } = options
  return queryKey('lease', resolveChain(config, options), { leaseId, blockNumber })
}

export type GetLeaseQueryKey = ReturnType<typeof getLeaseQueryKey>

/**
 * Query options for a lease (`getLease`): status and end reason as names, terms, deposit left, proof of service. For live updates, pair it with `watchLeaseQueries` (the `useLease` hook does). Disabled until `leaseId` is set.
 *
 * @example
 * import { getLeaseQueryOptions } from '@gridforge/react-hooks/query'
 *
 * const data = await queryClient.fetchQuery(getLeaseQueryOptions(config, { leaseId: 7n }))
 */
export function getLeaseQueryOptions<selectData = GetLeaseData>(
  config: Config,
  options: GetLeaseOptions<selectData> = {},
): QueryOptions<GetLeaseData, GetLeaseErrorType, selectData, GetLeaseQueryKey> {
  return readQueryOptions(config, options, {
    queryKey: getLeaseQueryKey(config, options),
    required: ['leaseId'],
    read: getLease,
  })
}
