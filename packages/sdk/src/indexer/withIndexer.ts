import { createIndexerClient, type IndexerClient } from './createIndexerClient.js'
import { IndexerRequestError, IndexerResponseError } from './errors.js'

/** The indexer a list or statistics action may read instead of the chain's logs. */
export interface IndexerParameter {
  /**
   * The Gridforge indexer to read (its URL, or a `createIndexerClient`) instead
   * of scanning event logs over RPC. When it cannot answer (unreachable, HTTP
   * 5xx, another API version) the action reads the chain as without it and
   * tells the client's `onFallback`; a parameter it refuses (HTTP 400) throws
   * `IndexerParameterError`.
   */
  indexer?: string | IndexerClient | undefined
}

/**
 * Reads with `fromIndexer` when an indexer is given and `useIndexer` holds (the
 * query is one the indexer can answer), and with `fromChain` otherwise, or when
 * the indexer gives no usable answer: then `onFallback` hears why. Any other
 * error, from the indexer (a refused parameter) or from the chain reads inside
 * `fromIndexer`, is thrown as is.
 */
export async function withIndexer<result>(
  action: string,
  indexer: string | IndexerClient | undefined,
  useIndexer: boolean,
  fromIndexer: (indexer: IndexerClient) => Promise<result>,
  fromChain: () => Promise<result>,
): Promise<result> {
  if (indexer === undefined || !useIndexer) return fromChain()
  const client = typeof indexer === 'string' ? createIndexerClient({ url: indexer }) : indexer
  try {
    return await fromIndexer(client)
  } catch (error) {
    if (!(error instanceof IndexerRequestError || error instanceof IndexerResponseError)) throw error
    client.onFallback?.({ action, error })
    return fromChain()
  }
}
