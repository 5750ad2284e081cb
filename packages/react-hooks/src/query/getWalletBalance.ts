import {
  type GetWalletBalanceErrorType,
  type GetWalletBalanceParameters,
  type GetWalletBalanceReturnType,
  getWalletBalance,
} from '@gridforge/sdk'
import type { Config } from '@wagmi/core'
import { readQueryOptions } from './readQuery.js'
import type { QueryOptions, QueryParameter } from './types.js'
import { type ChainParameters, queryKey, resolveChain } from './utils.js'

export type GetWalletBalanceData = GetWalletBalanceReturnType

export type GetWalletBalanceVariables = ChainParameters &
  Partial<Omit<GetWalletBalanceParameters, 'deployment'>>

export type GetWalletBalanceOptions<selectData = GetWalletBalanceData> = GetWalletBalanceVariables &
  QueryParameter<GetWalletBalanceData, GetWalletBalanceErrorType, selectData, GetWalletBalanceQueryKey>

/** `['gridforge', 'walletBalance', { chainId, market, account?, blockNumber? }]` */
export function getWalletBalanceQueryKey(config: Config, options: GetWalletBalanceVariables = {}) {
  const { account, blockNumber } = options
  return queryKey('walletBalance', resolveChain(config, options), { account, blockNumber })
}

export type GetWalletBalanceQueryKey = ReturnType<typeof getWalletBalanceQueryKey>

/**
 * Query options for an account's market balance, token balance and allowance (`getWalletBalance`). Disabled until `account` is set.
 *
 * @example
 * import { getWalletBalanceQueryOptions } from '@gridforge/react-hooks/query'
 *
 * const data = await queryClient.fetchQuery(getWalletBalanceQueryOptions(config, { account: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' }))
 */
export function getWalletBalanceQueryOptions<selectData = GetWalletBalanceData>(
  config: Config,
  options: GetWalletBalanceOptions<selectData> = {},
): QueryOptions<GetWalletBalanceData, GetWalletBalanceErrorType, selectData, GetWalletBalanceQueryKey> {
  return readQueryOptions(config, options, {
    queryKey: getWalletBalanceQueryKey(config, options),
    required: ['account'],
    read: getWalletBalance,
  })
}
