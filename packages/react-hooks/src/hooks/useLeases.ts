'use client'
import type { ListLeasesErrorType } from '@gridforge/sdk'
import { useChainId, useConfig } from 'wagmi'
import {
  type ListLeasesData,
  type ListLeasesOptions,
  type ListLeasesQueryKey,
  listLeasesQueryOptions,
} from '../query/listLeases.js'
import { type ConfigParameter, type UseQueryReturnType, useQuery } from './query.js'

export type UseLeasesParameters<selectData = ListLeasesData> = ListLeasesOptions<selectData> & ConfigParameter

export type UseLeasesReturnType<selectData = ListLeasesData> = UseQueryReturnType<
  selectData,
  ListLeasesErrorType,
  ListLeasesQueryKey
>

/**
 * Lists leases (`listLeases`) by renter or provider, source and status. The
 * lease hooks' watches and the lease mutations invalidate it.
 *
 * @example
 * import { useLeases } from '@gridforge/react-hooks'
 *
 * const { data: leases } = useLeases({ renter: address, status: 'Active' })
 */
export function useLeases<selectData = ListLeasesData>(
  parameters: UseLeasesParameters<selectData> = {},
): UseLeasesReturnType<selectData> {
  const config = useConfig(parameters)
  const chainId = useChainId({ config })
  return useQuery(listLeasesQueryOptions(config, { ...parameters, chainId: parameters.chainId ?? chainId }))
}
