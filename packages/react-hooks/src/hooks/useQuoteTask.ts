'use client'
import type { QuoteTaskErrorType } from '@gridforge/sdk'
import { useChainId, useConfig } from 'wagmi'
import {
  type QuoteTaskData,
  type QuoteTaskOptions,
  type QuoteTaskQueryKey,
  quoteTaskQueryOptions,
} from '../query/quoteTask.js'
import { type ConfigParameter, type UseQueryReturnType, useQuery } from './query.js'

export type UseQuoteTaskParameters<selectData = QuoteTaskData> = QuoteTaskOptions<selectData> &
  ConfigParameter

export type UseQuoteTaskReturnType<selectData = QuoteTaskData> = UseQueryReturnType<
  selectData,
  QuoteTaskErrorType,
  QuoteTaskQueryKey
>

/**
 * Quotes a task before it is submitted (`quoteTask`): how many providers could take it now at its
 * price, why the others could not, and the source's recent prices per GPU-second and time to
 * claim. Idle until the terms are complete (`sourceId` and `maxPayment`), or `taskId` names an
 * open task. Debounce terms typed by hand: each new set of terms is a new quote.
 *
 * @example
 * import { useQuoteTask } from '@gridforge/react-hooks'
 *
 * const { data: quote } = useQuoteTask({ sourceId: 1, maxPayment: '5' })
 * if (quote) console.log(`${quote.eligible.count} providers could take it now`)
 */
export function useQuoteTask<selectData = QuoteTaskData>(
  parameters: UseQuoteTaskParameters<selectData> = {},
): UseQuoteTaskReturnType<selectData> {
  const config = useConfig(parameters)
  const chainId = useChainId({ config })
  const options = quoteTaskQueryOptions(config, { ...parameters, chainId: parameters.chainId ?? chainId })
  return useQuery(options)
}
