'use client'
import { type UseMutationResult, useMutation } from '@tanstack/react-query'
import { useConfig } from 'wagmi'
import {
  type CloseLeaseData,
  type CloseLeaseMutationErrorType,
  type CloseLeaseOptions,
  type CloseLeaseVariables,
  closeLeaseMutationOptions,
} from '../query/closeLease.js'
import type { ConfigParameter } from './query.js'

export type UseCloseLeaseParameters = CloseLeaseOptions & ConfigParameter

export type UseCloseLeaseReturnType = UseMutationResult<
  CloseLeaseData,
  CloseLeaseMutationErrorType,
  CloseLeaseVariables
>

/**
 * Sends `closeLease` from the connected wallet: close a lease now.
 *
 * @example
 * import { useCloseLease } from '@gridforge/react-hooks'
 *
 * const { mutate } = useCloseLease()
 * mutate({ leaseId: 7n })
 */
export function useCloseLease(parameters: UseCloseLeaseParameters = {}): UseCloseLeaseReturnType {
  const config = useConfig(parameters)
  return useMutation(closeLeaseMutationOptions(config, parameters))
}
