import { type QueryKey, type UseQueryResult, useQuery as useTanstackQuery } from '@tanstack/react-query'
import type { Config } from '@wagmi/core'
import type { QueryOptions } from '../query/types.js'

/** Every hook takes the wagmi config to use; default: the one from `<WagmiProvider>`. */
export type ConfigParameter = { config?: Config | undefined }

/** What a query hook returns: TanStack's result and the query's key (to invalidate or prefetch it). */
export type UseQueryReturnType<data, error, queryKey extends QueryKey> = UseQueryResult<data, error> & {
  queryKey: queryKey
}

/** `useQuery` that also returns the key, as wagmi's hooks do. */
export function useQuery<queryFnData, error, data, queryKey extends QueryKey>(
  options: QueryOptions<queryFnData, error, data, queryKey>,
): UseQueryReturnType<data, error, queryKey> {
  const result = useTanstackQuery(options) as UseQueryReturnType<data, error, queryKey>
  result.queryKey = options.queryKey
  return result
}
