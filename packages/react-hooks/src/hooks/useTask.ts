'use client'
import type { GetTaskErrorType } from '@gridforge/sdk'
import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import { useChainId, useConfig } from 'wagmi'
import {
  type GetTaskData,
  type GetTaskOptions,
  type GetTaskQueryKey,
  getTaskQueryOptions,
} from '../query/getTask.js'
import { queryKeyHashFn } from '../query/utils.js'
import { invalidateSettlement, isSettled, watchTaskQueries } from '../query/watch.js'
import { type ConfigParameter, type UseQueryReturnType, useQuery } from './query.js'

export type UseTaskParameters<selectData = GetTaskData> = GetTaskOptions<selectData> &
  ConfigParameter & {
    /**
     * Keep the task live (default true): every market event of the task
     * refetches it, until it is settled. Over HTTP viem polls the node's logs
     * (`pollingInterval`); over WebSocket it subscribes.
     */
    watch?: boolean | undefined
    /** Called when a poll fails (the watch goes on), or when the watch cannot start (the query fails too). */
    onWatchError?: ((error: Error) => void) | undefined
  }

export type UseTaskReturnType<selectData = GetTaskData> = UseQueryReturnType<
  selectData,
  GetTaskErrorType,
  GetTaskQueryKey
>

/**
 * Reads a task and its slots (`getTask`) and keeps it live: a claim (or a
 * seat taken by a better ticket in the race for the seats of replicas),
 * result, commitment, reveal, audit step or settlement refetches it (and a
 * settlement the balances and stats it moved), with no polling loop in the
 * component. An auditable task (one replica of a deterministic source), and a
 * task with replicas whose results differ (a dispute, audited alike: its
 * auditors' slots follow the replicas'), comes with its `audit` (verdict,
 * round, deadlines); `Held` and `Auditing` are not settled, so the watch goes
 * on through them. A seat still raced for has a `claimedAt` to come: it is
 * final then. A task whose provider handed in a failed
 * run has `failed` set and says how it failed (`failure`, e.g.
 * `{ kind: 'exited', exitCode: 2 }`; `formatFailure` words it).
 *
 * @example
 * import { useTask } from '@gridforge/react-hooks'
 *
 * const { data: task } = useTask({ taskId: 7n })
 * // task?.status goes 'Open' → 'Claimed' → 'Completed' by itself
 * // (an auditable task: … → 'Held' → 'Auditing' → 'Completed', task?.audit?.verdict 'upheld';
 * // replicas whose results differ: … → 'Revealing' → 'Auditing' → 'Completed' or 'Failed')
 */
export function useTask<selectData = GetTaskData>(
  parameters: UseTaskParameters<selectData> = {},
): UseTaskReturnType<selectData> {
  const config = useConfig(parameters)
  const queryClient = useQueryClient()
  const chainId = useChainId({ config })
  const options = getTaskQueryOptions(config, { ...parameters, chainId: parameters.chainId ?? chainId })
  const result = useQuery(options)

  const { taskId, watch = true, deployment } = parameters
  // The cached task (not `result.data`, which `select` may have reshaped): once settled, nothing more to watch.
  // Looked up by our own hash: `find({ queryKey })` would hash the bigint key with every cached query's
  // hash function, and the default one (JSON.stringify) throws on bigints.
  const cached = queryClient.getQueryCache().get<GetTaskData>(queryKeyHashFn(options.queryKey))
  const settled = isSettled(cached?.state.data)
  const enabled = watch && options.enabled !== false && !settled
  // Seeing the task settle stops the watch, maybe before it delivered TaskFinalized (a refetch for an
  // earlier event can already read the final state): refresh what the settlement moved here.
  const wasSettled = useRef(settled)
  useEffect(() => {
    if (settled && !wasSettled.current) invalidateSettlement(queryClient)
    wasSettled.current = settled
  }, [settled, queryClient])
  // Read through a ref so that an inline `deployment` or callback does not restart the watch each render.
  const latest = useRef({ deployment, onWatchError: parameters.onWatchError })
  latest.current = { deployment, onWatchError: parameters.onWatchError }
  const watchedChainId = parameters.chainId ?? chainId
  const market = deployment?.contracts.market
  const id = taskId === undefined ? undefined : String(taskId)
  // biome-ignore lint/correctness/useExhaustiveDependencies: `market` stands for the deployment read through the ref.
  useEffect(() => {
    if (!enabled || id === undefined) return
    // What stops the watch from starting (no deployment known on the chain, a chain the config lacks, a
    // task id that is not one) is the query's error too: report it, do not throw it from the effect.
    try {
      return watchTaskQueries(config, queryClient, {
        chainId: watchedChainId,
        deployment: latest.current.deployment,
        taskId: BigInt(id),
        onError: (error) => latest.current.onWatchError?.(error),
      })
    } catch (error) {
      latest.current.onWatchError?.(error as Error)
      return
    }
  }, [config, queryClient, enabled, watchedChainId, market, id])
  return result
}
