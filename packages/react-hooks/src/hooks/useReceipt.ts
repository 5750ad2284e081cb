'use client'
import type { GetReceiptErrorType } from '@gridforge/sdk'
import { useChainId, useConfig } from 'wagmi'
import {
  type GetReceiptData,
  type GetReceiptOptions,
  type GetReceiptQueryKey,
  getReceiptQueryOptions,
} from '../query/getReceipt.js'
import { type ConfigParameter, type UseQueryReturnType, useQuery } from './query.js'

export type UseReceiptParameters<selectData = GetReceiptData> = GetReceiptOptions<selectData> &
  ConfigParameter

export type UseReceiptReturnType<selectData = GetReceiptData> = UseQueryReturnType<
  selectData,
  GetReceiptErrorType,
  GetReceiptQueryKey
>

/**
 * Reads a settled task's receipts, each verified against the chain (`getReceipt`). Enable it once the task is settled (it throws `TaskNotSettledError` before).
 *
 * @example
 * import { useReceipt } from '@gridforge/react-hooks'
 *
 * const { data: [receipt] = [] } = useReceipt({ taskId, store, query: { enabled: task?.status === 'Completed' } })
 * if (receipt?.status === 'verified') console.log('paid', receipt.settlement.payment)
 */
export function useReceipt<selectData = GetReceiptData>(
  parameters: UseReceiptParameters<selectData> = {},
): UseReceiptReturnType<selectData> {
  const config = useConfig(parameters)
  const chainId = useChainId({ config })
  const options = getReceiptQueryOptions(config, {
    ...parameters,
    chainId: parameters.chainId ?? chainId,
  })
  return useQuery(options)
}
