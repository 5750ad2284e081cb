'use client'
import { type UseMutationResult, useMutation } from '@tanstack/react-query'
import { useConfig } from 'wagmi'
import {
  type TopUpLeaseData,
  type TopUpLeaseMutationErrorType,
  type TopUpLeaseOptions,
  type TopUpLeaseVariables,
  topUpLeaseMutationOptions,
} from '../query/topUpLease.js'
import type { ConfigParameter } from './query.js'

export type UseTopUpLeaseParameters = TopUpLeaseOptions & ConfigParameter

export type UseTopUpLeaseReturnType = UseMutationResult<
  TopUpLeaseData,
  TopUpLeaseMutationErrorType,
  TopUpLeaseVariables
>

/**
 * Sends `topUpLease` from the connected wallet: add to a lease's deposit.
 *
 * @example
 * import { useTopUpLease } from '@gridforge/react-hooks'
 *
 * const { mutate } = useTopUpLease()
 * mutate({ leaseId: 7n, amount: '5' })
 */
export function useTopUpLease(parameters: UseTopUpLeaseParameters = {}): UseTopUpLeaseReturnType {
  const config = useConfig(parameters)
  return useMutation(topUpLeaseMutationOptions(config, parameters))
}
