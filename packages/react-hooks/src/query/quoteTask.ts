import {
  type IndexerParameter,
  type QuoteTaskErrorType,
  type QuoteTaskParameters,
  type QuoteTaskReadOptions,
  type QuoteTaskReturnType,
  type QuoteTaskTerms,
  quoteTask,
} from '@gridforge/sdk'
import type { Config } from '@wagmi/core'
import { readQueryOptions } from './readQuery.js'
import type { QueryOptions, QueryParameter } from './types.js'
import { type ChainParameters, queryKey, resolveChain } from './utils.js'

export type QuoteTaskData = QuoteTaskReturnType

/**
 * The terms of a task to quote, any of them still unset while a form is being
 * filled in (`sourceId` and `maxPayment` are needed), or the `taskId` of an
 * open task; plus how much history to read.
 */
export type QuoteTaskVariables = ChainParameters &
  Partial<QuoteTaskTerms> &
  QuoteTaskReadOptions &
  IndexerParameter & {
    /** An open task: why is nobody taking it? Instead of the terms. */
    taskId?: number | bigint | undefined
  }

export type QuoteTaskOptions<selectData = QuoteTaskData> = QuoteTaskVariables &
  QueryParameter<QuoteTaskData, QuoteTaskErrorType, selectData, QuoteTaskQueryKey>

/** `['gridforge', 'quote', { chainId, market, taskId?, sourceId?, maxPayment?, pricePerSecond?, replicas?, requirements?, minSuccessBps?, minCompleted?, auditBps?, historySize?, blockNumber?, fromBlock?, blockRange? }]` */
export function quoteTaskQueryKey(config: Config, options: QuoteTaskVariables = {}) {
  const {
    taskId,
    sourceId,
    maxPayment,
    pricePerSecond,
    replicas,
    requirements,
    minSuccessBps,
    minCompleted,
    auditBps,
    historySize,
    blockNumber,
    fromBlock,
    blockRange,
  } = options
  return queryKey('quote', resolveChain(config, options), {
    taskId,
    sourceId,
    maxPayment,
    pricePerSecond,
    replicas,
    requirements,
    minSuccessBps,
    minCompleted,
    auditBps,
    historySize,
    blockNumber,
    fromBlock,
    blockRange,
  })
}

export type QuoteTaskQueryKey = ReturnType<typeof quoteTaskQueryKey>

/**
 * Query options for a quote (`quoteTask`): how many providers could take a task now at its price,
 * why the others could not, and what the source's recent tasks paid per GPU-second and waited for
 * a claim. Disabled until the terms are complete (`sourceId` and `maxPayment`), or `taskId` is set.
 * Through the `indexer` given, or the one the config's chain names (`custom.gridforge.indexer`),
 * when there is one (one request instead of a scan of every provider); the chain when it cannot answer.
 *
 * @example
 * import { quoteTaskQueryOptions } from '@gridforge/react-hooks/query'
 *
 * const quote = await queryClient.fetchQuery(quoteTaskQueryOptions(config, { sourceId: 1, maxPayment: '5' }))
 * console.log(`${quote.eligible.count} of ${quote.providers} providers could take it now`)
 */
export function quoteTaskQueryOptions<selectData = QuoteTaskData>(
  config: Config,
  options: QuoteTaskOptions<selectData> = {},
): QueryOptions<QuoteTaskData, QuoteTaskErrorType, selectData, QuoteTaskQueryKey> {
  const complete =
    options.taskId !== undefined || (options.sourceId !== undefined && options.maxPayment !== undefined)
  const queryOptions = readQueryOptions<
    QuoteTaskParameters,
    QuoteTaskData,
    QuoteTaskErrorType,
    selectData,
    QuoteTaskQueryKey
  >(config, options as never, {
    queryKey: quoteTaskQueryKey(config, options),
    required: [],
    read: quoteTask,
    indexed: true,
  })
  return {
    ...queryOptions,
    enabled: complete && (options.query?.enabled ?? true),
    queryFn: (context: Parameters<typeof queryOptions.queryFn>[0]) => {
      if (!complete) throw new Error('sourceId and maxPayment (or taskId) required')
      return queryOptions.queryFn(context)
    },
  }
}
