import {
  type GetRewardsErrorType,
  type GetRewardsParameters,
  type GetRewardsReturnType,
  getRewards,
} from '@gridforge/sdk'
import type { Config } from '@wagmi/core'
import { readQueryOptions } from './readQuery.js'
import type { QueryOptions, QueryParameter } from './types.js'
import { type ChainParameters, queryKey, resolveChain } from './utils.js'

export type GetRewardsData = GetRewardsReturnType

export type GetRewardsVariables = ChainParameters & Partial<Omit<GetRewardsParameters, 'deployment'>>

export type GetRewardsOptions<selectData = GetRewardsData> = GetRewardsVariables &
  QueryParameter<GetRewardsData, GetRewardsErrorType, selectData, GetRewardsQueryKey>

/** `['gridforge', 'rewards', { chainId, market, account?, blockNumber? }]` */
export function getRewardsQueryKey(config: Config, options: GetRewardsVariables = {}) {
  const { account, blockNumber } = options
  return queryKey('rewards', resolveChain(config, options), { account, blockNumber })
}

export type GetRewardsQueryKey = ReturnType<typeof getRewardsQueryKey>

/**
 * Query options for the staking rewards an account can claim (`getRewards`). Disabled until `account` is set.
 *
 * @example
 * import { getRewardsQueryOptions } from '@gridforge/react-hooks/query'
 *
 * const data = await queryClient.fetchQuery(getRewardsQueryOptions(config, { account: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' }))
 */
export function getRewardsQueryOptions<selectData = GetRewardsData>(
  config: Config,
  options: GetRewardsOptions<selectData> = {},
): QueryOptions<GetRewardsData, GetRewardsErrorType, selectData, GetRewardsQueryKey> {
  return readQueryOptions(config, options, {
    queryKey: getRewardsQueryKey(config, options),
    required: ['account'],
    read: getRewards,
  })
}
