'use client'
import type { ListTasksErrorType } from '@gridforge/sdk'
import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import { useChainId, useConfig } from 'wagmi'
import {
  type ListTasksData,
  type ListTasksOptions,
  type ListTasksQueryKey,
  listTasksQueryOptions,
} from '../query/listTasks.js'
import { watchTasksQueries } from '../query/watch.js'
import { type ConfigParameter, type UseQueryReturnType, useQuery } from './query.js'

export type UseTasksParameters<selectData = ListTasksData> = ListTasksOptions<selectData> &
  ConfigParameter & {
    /** Keep the list live (default true): submissions, claims and settlements matching the filter refetch it. */
    watch?: boolean | undefined
    /** Called when a poll fails (the watch goes on), or when the watch cannot start (the query fails too). */
    onWatchError?: ((error: Error) => void) | undefined
  }

export type UseTasksReturnType<selectData = ListTasksData> = UseQueryReturnType<
  selectData,
  ListTasksErrorType,
  ListTasksQueryKey
>

/**
 * Lists tasks by client, provider, source or status (`listTasks`, ascending
 * ids) and keeps the list live: a matching submission, claim or settlement
 * refetches it.
 *
 * @example
 * import { useTasks } from '@gridforge/react-hooks'
 * import { useConnection } from 'wagmi'
 *
 * const { address } = useConnection()
 * const { data: tasks = [] } = useTasks({ client: address })
 */
export function useTasks<selectData = ListTasksData>(
  parameters: UseTasksParameters<selectData> = {},
): UseTasksReturnType<selectData> {
  const config = useConfig(parameters)
  const queryClient = useQueryClient()
  const chainId = useChainId({ config })
  const options = listTasksQueryOptions(config, { ...parameters, chainId: parameters.chainId ?? chainId })
  const result = useQuery(options)

  const { watch = true, deployment, client, provider, sourceId } = parameters
  const enabled = watch && options.enabled !== false
  const latest = useRef({ deployment, onWatchError: parameters.onWatchError })
  latest.current = { deployment, onWatchError: parameters.onWatchError }
  const watchedChainId = parameters.chainId ?? chainId
  const market = deployment?.contracts.market
  const source = sourceId === undefined ? undefined : Number(sourceId)
  // biome-ignore lint/correctness/useExhaustiveDependencies: `market` stands for the deployment read through the ref.
  useEffect(() => {
    if (!enabled) return
    // What stops the watch from starting (no deployment known on the chain, a chain the config lacks, a
    // filter that is not valid) is the query's error too: report it, do not throw it from the effect.
    try {
      return watchTasksQueries(config, queryClient, {
        chainId: watchedChainId,
        deployment: latest.current.deployment,
        client,
        provider,
        sourceId: source,
        onError: (error) => latest.current.onWatchError?.(error),
      })
    } catch (error) {
      latest.current.onWatchError?.(error as Error)
      return
    }
  }, [config, queryClient, enabled, watchedChainId, market, client, provider, source])
  return result
}
