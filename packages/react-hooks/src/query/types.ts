import type { MutationOptions, QueryKey, QueryObserverOptions } from '@tanstack/query-core'
import type { Account, Address } from 'viem'
import type { ChainParameters } from './utils.js'

/** TanStack options a caller may add to a query (everything but what the query options own). */
export type QueryParameter<queryFnData, error, selectData, queryKey extends QueryKey> = {
  query?:
    | Omit<
        QueryObserverOptions<queryFnData, error, selectData, queryFnData, queryKey>,
        'queryKey' | 'queryFn' | 'queryHash' | 'queryKeyHashFn'
      >
    | undefined
}

/** What every `xQueryOptions` returns: ready for `useQuery`, `queryClient.fetchQuery` or `ensureQueryData`. */
export type QueryOptions<queryFnData, error, selectData, queryKey extends QueryKey> = QueryObserverOptions<
  queryFnData,
  error,
  selectData,
  queryFnData,
  queryKey
> & {
  queryKey: queryKey
  queryFn: (context: { queryKey: queryKey; signal: AbortSignal }) => Promise<queryFnData>
}

/** TanStack options a caller may add to a mutation. */
export type MutationParameter<data, error, variables> = {
  mutation?: Omit<MutationOptions<data, error, variables>, 'mutationFn' | 'mutationKey'> | undefined
}

/** What every `xMutationOptions` returns: ready for `useMutation` or `new MutationObserver`. */
export type MutationOptionsOf<data, error, variables> = MutationOptions<data, error, variables> & {
  mutationFn: (variables: variables) => Promise<data>
  mutationKey: readonly unknown[]
}

/**
 * The variables of a write: the SDK action's parameters without the
 * deployment (the options resolve it), plus the chain and the sending account.
 */
export type WriteVariables<parameters> = Omit<parameters, 'deployment' | 'account'> &
  ChainParameters & {
    /** The sender (default: the connected account). */
    account?: Address | Account | undefined
  }
