'use client'
import type { GetLeaseErrorType } from '@gridforge/sdk'
import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import { useChainId, useConfig } from 'wagmi'
import {
  type GetLeaseData,
  type GetLeaseOptions,
  type GetLeaseQueryKey,
  getLeaseQueryOptions,
} from '../query/getLease.js'
import { watchLeaseQueries } from '../query/watchLease.js'
import { type ConfigParameter, type UseQueryReturnType, useQuery } from './query.js'

export type UseLeaseParameters<selectData = GetLeaseData> = GetLeaseOptions<selectData> &
  ConfigParameter & {
    /** Keep the lease live (default true): every lease market event of the lease refetches it, until it is settled. */
    watch?: boolean | undefined
    /** Called when a poll fails (the watch goes on), or when the watch cannot start. */
    onWatchError?: ((error: Error) => void) | undefined
  }

export type UseLeaseReturnType<selectData = GetLeaseData> = UseQueryReturnType<
  selectData,
  GetLeaseErrorType,
  GetLeaseQueryKey
>

/**
 * Reads a lease (`getLease`) and keeps it live: acceptance, top-ups,
 * extensions, redeemed acknowledgements, notices, offline reports, the end
 * and the settlement refetch it, with no polling loop in the component; a
 * settled lease is not watched.
 *
 * @example
 * import { useLease } from '@gridforge/react-hooks'
 *
 * const { data: lease } = useLease({ leaseId: 7n })
 * // lease?.status goes 'Requested' → 'Active' → 'Settled' by itself
 */
export function useLease<selectData = GetLeaseData>(
  parameters: UseLeaseParameters<selectData> = {},
): UseLeaseReturnType<selectData> {
  const config = useConfig(parameters)
  const queryClient = useQueryClient()
  const chainId = useChainId({ config })
  const options = getLeaseQueryOptions(config, { ...parameters, chainId: parameters.chainId ?? chainId })
  const result = useQuery(options)
  const { leaseId, watch = true, deployment } = parameters
  const settled = (result.data as { status?: string } | undefined)?.status === 'Settled'
  const enabled = watch && options.enabled !== false && !settled
  // Read through a ref so that an inline `deployment` or callback does not restart the watch each render.
  const latest = useRef({ deployment, onWatchError: parameters.onWatchError })
  latest.current = { deployment, onWatchError: parameters.onWatchError }
  const watchedChainId = parameters.chainId ?? chainId
  const market = deployment?.contracts.leases
  const id = leaseId === undefined ? undefined : String(leaseId)
  // biome-ignore lint/correctness/useExhaustiveDependencies: `market` stands for the deployment read through the ref.
  useEffect(() => {
    if (!enabled || id === undefined) return
    try {
      return watchLeaseQueries(config, queryClient, {
        chainId: watchedChainId,
        deployment: latest.current.deployment,
        leaseId: BigInt(id),
        everyBlock: false,
        onError: (error) => latest.current.onWatchError?.(error),
      })
    } catch (error) {
      latest.current.onWatchError?.(error as Error)
      return
    }
  }, [config, queryClient, enabled, watchedChainId, market, id])
  return result
}
