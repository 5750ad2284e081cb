'use client'
import { type UseMutationResult, useMutation } from '@tanstack/react-query'
import { useConfig } from 'wagmi'
import {
  type RequestLeaseData,
  type RequestLeaseMutationErrorType,
  type RequestLeaseOptions,
  type RequestLeaseVariables,
  requestLeaseMutationOptions,
} from '../query/requestLease.js'
import type { ConfigParameter } from './query.js'

export type UseRequestLeaseParameters = RequestLeaseOptions & ConfigParameter

export type UseRequestLeaseReturnType = UseMutationResult<
  RequestLeaseData,
  RequestLeaseMutationErrorType,
  RequestLeaseVariables
>

/**
 * Sends `requestLease` from the connected wallet: request a lease.
 *
 * @example
 * import { useRequestLease } from '@gridforge/react-hooks'
 *
 * const { mutate } = useRequestLease()
 * mutate({ sourceId: 3, maxPricePerHour: '3.6', duration: '2h', deposit: '8', ackSigner })
 */
export function useRequestLease(parameters: UseRequestLeaseParameters = {}): UseRequestLeaseReturnType {
  const config = useConfig(parameters)
  return useMutation(requestLeaseMutationOptions(config, parameters))
}
