import type { DeploymentParameter } from '@gridforge/sdk'
import type { QueryKey } from '@tanstack/query-core'
import type { Config } from '@wagmi/core'
import type { Account, Chain, Client, Transport } from 'viem'
import type { QueryOptions, QueryParameter } from './types.js'
import {
  type ChainParameters,
  chainIndexer,
  queryKeyHashFn,
  readClient,
  requireDeployment,
  resolveChain,
} from './utils.js'

/** What a read query is made of besides the caller's options. */
export interface ReadQuerySpec<parameters extends DeploymentParameter, data, queryKey extends QueryKey> {
  queryKey: queryKey
  /** Parameters without which the query stays disabled. */
  required: readonly (keyof parameters)[]
  /** The SDK action. */
  read: (
    client: Client<Transport, Chain | undefined, Account | undefined>,
    parameters: parameters,
  ) => Promise<data>
  /** A default `staleTime` (the caller's `query.staleTime` wins). */
  staleTime?: number | undefined
  /**
   * Whether the action reads an indexer: it gets the `indexer` parameter, else
   * the one the config's chain names (`custom.gridforge.indexer`). Not part of
   * the key: the indexer and the chain's logs give the same result.
   */
  indexed?: boolean | undefined
}

/**
 * The query options of a read action: enabled once the required parameters
 * are set, keyed by `spec.queryKey`, and reading with the config's client for
 * the chain and its deployment, resolved when the query runs (so an unknown
 * chain is the query's error, not a throw while rendering).
 */
export function readQueryOptions<
  parameters extends DeploymentParameter,
  data,
  error,
  selectData,
  queryKey extends QueryKey,
>(
  config: Config,
  options: ChainParameters &
    Partial<Omit<parameters, 'deployment'>> &
    QueryParameter<data, error, selectData, queryKey> & { config?: unknown },
  spec: ReadQuerySpec<parameters, data, queryKey>,
): QueryOptions<data, error, selectData, queryKey> {
  const chain = resolveChain(config, options)
  const { chainId: _chainId, deployment: _deployment, query, config: _config, ...parameters } = options
  const missing = spec.required.filter(
    (name) => (parameters as Record<PropertyKey, unknown>)[name] === undefined,
  )
  return {
    ...(spec.staleTime === undefined ? {} : { staleTime: spec.staleTime }),
    ...query,
    ...(spec.required.length === 0 ? {} : { enabled: missing.length === 0 && (query?.enabled ?? true) }),
    queryKey: spec.queryKey,
    queryKeyHashFn,
    queryFn: async () => {
      if (missing.length > 0) throw new Error(`${missing.map(String).join(', ')} required`)
      const indexer = (parameters as { indexer?: unknown }).indexer ?? chainIndexer(config, chain.chainId)
      return spec.read(readClient(config, chain.chainId), {
        ...parameters,
        deployment: requireDeployment(chain),
        ...(spec.indexed === true && indexer !== undefined ? { indexer } : {}),
      } as unknown as parameters)
    },
  }
}
