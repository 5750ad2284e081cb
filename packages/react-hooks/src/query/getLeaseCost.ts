import {
  type GetLeaseCostErrorType,
  type GetLeaseCostParameters,
  type GetLeaseCostReturnType,
  getLeaseCost,
} from '@gridforge/sdk'
import type { Config } from '@wagmi/core'
import { readQueryOptions } from './readQuery.js'
import type { QueryOptions, QueryParameter } from './types.js'
import { type ChainParameters, queryKey, resolveChain } from './utils.js'

export type GetLeaseCostData = GetLeaseCostReturnType

export type GetLeaseCostVariables = ChainParameters & Partial<Omit<GetLeaseCostParameters, 'deployment'>>

export type GetLeaseCostOptions<selectData = GetLeaseCostData> = GetLeaseCostVariables &
  QueryParameter<GetLeaseCostData, GetLeaseCostErrorType, selectData, GetLeaseCostQueryKey>

/** `['gridforge', 'leaseCost', { chainId, market, leaseId? }]` */
export function getLeaseCostQueryKey(config: Config, options: GetLeaseCostVariables = {}) {
  const { leaseId } = options
  return queryKey('leaseCost', resolveChain(config, options), { leaseId })
}

export type GetLeaseCostQueryKey = ReturnType<typeof getLeaseCostQueryKey>

/**
 * Query options for a lease's cost meter (`getLeaseCost`): accrued, paid, unpaid, deposit left, funded until, low deposit. It moves with every block: the `useLeaseCost` hook refetches it on each new block. Disabled until `leaseId` is set.
 *
 * @example
 * import { getLeaseCostQueryOptions } from '@gridforge/react-hooks/query'
 *
 * const data = await queryClient.fetchQuery(getLeaseCostQueryOptions(config, { leaseId: 7n }))
 */
export function getLeaseCostQueryOptions<selectData = GetLeaseCostData>(
  config: Config,
  options: GetLeaseCostOptions<selectData> = {},
): QueryOptions<GetLeaseCostData, GetLeaseCostErrorType, selectData, GetLeaseCostQueryKey> {
  return readQueryOptions(config, options, {
    queryKey: getLeaseCostQueryKey(config, options),
    required: ['leaseId'],
    read: getLeaseCost,
  })
}
