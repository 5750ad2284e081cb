'use client'
import { type UseMutationResult, useMutation } from '@tanstack/react-query'
import { useConfig } from 'wagmi'
import {
  type ExtendLeaseData,
  type ExtendLeaseMutationErrorType,
  type ExtendLeaseOptions,
  type ExtendLeaseVariables,
  extendLeaseMutationOptions,
} from '../query/extendLease.js'
import type { ConfigParameter } from './query.js'

export type UseExtendLeaseParameters = ExtendLeaseOptions & ConfigParameter

export type UseExtendLeaseReturnType = UseMutationResult<
  ExtendLeaseData,
  ExtendLeaseMutationErrorType,
  ExtendLeaseVariables
>

/**
 * Sends `extendLease` from the connected wallet: make a lease longer.
 *
 * @example
 * import { useExtendLease } from '@gridforge/react-hooks'
 *
 * const { mutate } = useExtendLease()
 * mutate({ leaseId: 7n, by: '1h' })
 */
export function useExtendLease(parameters: UseExtendLeaseParameters = {}): UseExtendLeaseReturnType {
  const config = useConfig(parameters)
  return useMutation(extendLeaseMutationOptions(config, parameters))
}
