'use client'
import { type UseMutationResult, useMutation } from '@tanstack/react-query'
import { useConfig } from 'wagmi'
import {
  type RequestUnbondData,
  type RequestUnbondMutationErrorType,
  type RequestUnbondOptions,
  type RequestUnbondVariables,
  requestUnbondMutationOptions,
} from '../query/requestUnbond.js'
import type { ConfigParameter } from './query.js'

export type UseUnbondParameters = RequestUnbondOptions & ConfigParameter

export type UseUnbondReturnType = UseMutationResult<
  RequestUnbondData,
  RequestUnbondMutationErrorType,
  RequestUnbondVariables
>

/**
 * Starts unbonding available stake (`requestUnbond`); `useWithdrawUnbonded` withdraws it once the period ends.
 *
 * @example
 * import { useUnbond } from '@gridforge/react-hooks'
 *
 * const { mutate: unbond } = useUnbond()
 * unbond({ amount: '50' })
 */
export function useUnbond(parameters: UseUnbondParameters = {}): UseUnbondReturnType {
  const config = useConfig(parameters)
  return useMutation(requestUnbondMutationOptions(config, parameters))
}
