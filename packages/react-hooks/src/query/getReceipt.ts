import {
  type GetReceiptErrorType,
  type GetReceiptParameters,
  type GetReceiptReturnType,
  getReceipt,
} from '@gridforge/sdk'
import type { Config } from '@wagmi/core'
import { readQueryOptions } from './readQuery.js'
import type { QueryOptions, QueryParameter } from './types.js'
import { type ChainParameters, queryKey, resolveChain } from './utils.js'

export type GetReceiptData = GetReceiptReturnType

export type GetReceiptVariables = ChainParameters & Partial<Omit<GetReceiptParameters, 'deployment'>>

export type GetReceiptOptions<selectData = GetReceiptData> = GetReceiptVariables &
  QueryParameter<GetReceiptData, GetReceiptErrorType, selectData, GetReceiptQueryKey>

/** `['gridforge', 'receipt', { chainId, market, taskId?, slot?, maxBytes?, fromBlock?, blockRange? }]` */
export function getReceiptQueryKey(config: Config, options: GetReceiptVariables = {}) {
  const { taskId, slot, maxBytes, fromBlock, blockRange } = options
  return queryKey('receipt', resolveChain(config, options), { taskId, slot, maxBytes, fromBlock, blockRange })
}

export type GetReceiptQueryKey = ReturnType<typeof getReceiptQueryKey>

/**
 * Query options for the receipts of a settled task, each verified against the chain (`getReceipt`). `store` is not part of the key: use one store per query client. Disabled until `taskId` and `store` are set.
 *
 * @example
 * import { getReceiptQueryOptions } from '@gridforge/react-hooks/query'
 *
 * const data = await queryClient.fetchQuery(getReceiptQueryOptions(config, { taskId: 7n, store: kuboStore({ url: 'http://127.0.0.1:5001' }) }))
 */
export function getReceiptQueryOptions<selectData = GetReceiptData>(
  config: Config,
  options: GetReceiptOptions<selectData> = {},
): QueryOptions<GetReceiptData, GetReceiptErrorType, selectData, GetReceiptQueryKey> {
  return readQueryOptions(config, options, {
    queryKey: getReceiptQueryKey(config, options),
    required: ['taskId', 'store'],
    read: getReceipt,
    // A settled task's receipts never change.
    staleTime: Number.POSITIVE_INFINITY,
  })
}
