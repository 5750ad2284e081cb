import {
  type GetStakeErrorType,
  type GetStakeParameters,
  type GetStakeReturnType,
  getStake,
} from '@gridforge/sdk'
import type { Config } from '@wagmi/core'
import { readQueryOptions } from './readQuery.js'
import type { QueryOptions, QueryParameter } from './types.js'
import { type ChainParameters, queryKey, resolveChain } from './utils.js'

export type GetStakeData = GetStakeReturnType

export type GetStakeVariables = ChainParameters & Partial<Omit<GetStakeParameters, 'deployment'>>

export type GetStakeOptions<selectData = GetStakeData> = GetStakeVariables &
  QueryParameter<GetStakeData, GetStakeErrorType, selectData, GetStakeQueryKey>

/** `['gridforge', 'stake', { chainId, market, account?, blockNumber? }]` */
export function getStakeQueryKey(config: Config, options: GetStakeVariables = {}) {
  const { account, blockNumber } = options
  return queryKey('stake', resolveChain(config, options), { account, blockNumber })
}

export type GetStakeQueryKey = ReturnType<typeof getStakeQueryKey>

/**
 * Query options for an account's stake: staked, locked as collateral, available, unbonding (`getStake`). Disabled until `account` is set.
 *
 * @example
 * import { getStakeQueryOptions } from '@gridforge/react-hooks/query'
 *
 * const data = await queryClient.fetchQuery(getStakeQueryOptions(config, { account: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' }))
 */
export function getStakeQueryOptions<selectData = GetStakeData>(
  config: Config,
  options: GetStakeOptions<selectData> = {},
): QueryOptions<GetStakeData, GetStakeErrorType, selectData, GetStakeQueryKey> {
  return readQueryOptions(config, options, {
    queryKey: getStakeQueryKey(config, options),
    required: ['account'],
    read: getStake,
  })
}
