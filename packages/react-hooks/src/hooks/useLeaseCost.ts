'use client'
import type { GetLeaseCostErrorType } from '@gridforge/sdk'
import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import { useChainId, useConfig } from 'wagmi'
import {
  type GetLeaseCostData,
  type GetLeaseCostOptions,
  type GetLeaseCostQueryKey,
  getLeaseCostQueryOptions,
} from '../query/getLeaseCost.js'
import { watchLeaseQueries } from '../query/watchLease.js'
import { type ConfigParameter, type UseQueryReturnType, useQuery } from './query.js'

export type UseLeaseCostParameters<selectData = GetLeaseCostData> = GetLeaseCostOptions<selectData> &
  ConfigParameter & {
    /** Keep the meter live (default true): every new block and every event of the lease refetches it. */
    watch?: boolean | undefined
    onWatchError?: ((error: Error) => void) | undefined
  }

export type UseLeaseCostReturnType<selectData = GetLeaseCostData> = UseQueryReturnType<
  selectData,
  GetLeaseCostErrorType,
  GetLeaseCostQueryKey
>

/**
 * A lease's live cost meter (`getLeaseCost`): accrued, paid, unpaid, deposit
 * left, funded until and `lowDeposit` (top up), refetched on every new block
 * and every event of the lease, until it ends.
 *
 * @example
 * import { useLeaseCost } from '@gridforge/react-hooks'
 *
 * const { data: cost } = useLeaseCost({ leaseId: 7n })
 * if (cost?.lowDeposit) showTopUpButton()
 */
export function useLeaseCost<selectData = GetLeaseCostData>(
  parameters: UseLeaseCostParameters<selectData> = {},
): UseLeaseCostReturnType<selectData> {
  const config = useConfig(parameters)
  const queryClient = useQueryClient()
  const chainId = useChainId({ config })
  const options = getLeaseCostQueryOptions(config, { ...parameters, chainId: parameters.chainId ?? chainId })
  const result = useQuery(options)
  const { leaseId, watch = true, deployment } = parameters
  const cached = result.data as { ended?: boolean } | undefined
  const enabled = watch && options.enabled !== false && cached?.ended !== true
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
        onError: (error) => latest.current.onWatchError?.(error),
      })
    } catch (error) {
      latest.current.onWatchError?.(error as Error)
      return
    }
  }, [config, queryClient, enabled, watchedChainId, market, id])
  return result
}
