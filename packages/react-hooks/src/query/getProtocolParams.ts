import {
  type GetProtocolParamsErrorType,
  type GetProtocolParamsParameters,
  type GetProtocolParamsReturnType,
  getProtocolParams,
} from '@gridforge/sdk'
import type { Config } from '@wagmi/core'
import { readQueryOptions } from './readQuery.js'
import type { QueryOptions, QueryParameter } from './types.js'
import { type ChainParameters, queryKey, resolveChain } from './utils.js'

export type GetProtocolParamsData = GetProtocolParamsReturnType

export type GetProtocolParamsVariables = ChainParameters &
  Partial<Omit<GetProtocolParamsParameters, 'deployment'>>

export type GetProtocolParamsOptions<selectData = GetProtocolParamsData> = GetProtocolParamsVariables &
  QueryParameter<GetProtocolParamsData, GetProtocolParamsErrorType, selectData, GetProtocolParamsQueryKey>

/** `['gridforge', 'protocolParams', { chainId, market, blockNumber? }]` */
export function getProtocolParamsQueryKey(config: Config, options: GetProtocolParamsVariables = {}) {
  const { blockNumber } = options
  return queryKey('protocolParams', resolveChain(config, options), { blockNumber })
}

export type GetProtocolParamsQueryKey = ReturnType<typeof getProtocolParamsQueryKey>

/**
 * Query options for the market's parameters (fees, collateral, windows), its treasury and task count (`getProtocolParams`).
 *
 * @example
 * import { getProtocolParamsQueryOptions } from '@gridforge/react-hooks/query'
 *
 * const data = await queryClient.fetchQuery(getProtocolParamsQueryOptions(config, {}))
 */
export function getProtocolParamsQueryOptions<selectData = GetProtocolParamsData>(
  config: Config,
  options: GetProtocolParamsOptions<selectData> = {},
): QueryOptions<GetProtocolParamsData, GetProtocolParamsErrorType, selectData, GetProtocolParamsQueryKey> {
  return readQueryOptions(config, options, {
    queryKey: getProtocolParamsQueryKey(config, options),
    required: [],
    read: getProtocolParams,
  })
}
