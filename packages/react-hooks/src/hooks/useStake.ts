'use client'
import { type UseMutationResult, useMutation } from '@tanstack/react-query'
import { useConfig } from 'wagmi'
import {
  type StakeData,
  type StakeMutationErrorType,
  type StakeOptions,
  type StakeVariables,
  stakeMutationOptions,
} from '../query/stake.js'
import type { ConfigParameter } from './query.js'

export type UseStakeParameters = StakeOptions & ConfigParameter

export type UseStakeReturnType = UseMutationResult<StakeData, StakeMutationErrorType, StakeVariables>

/**
 * Stakes tokens (`stake`); `approve: true` approves first when needed. Read the position with `useStakePosition`.
 *
 * @example
 * import { useStake } from '@gridforge/react-hooks'
 *
 * const { mutate: stake } = useStake()
 * stake({ amount: '100', approve: true })
 */
export function useStake(parameters: UseStakeParameters = {}): UseStakeReturnType {
  const config = useConfig(parameters)
  return useMutation(stakeMutationOptions(config, parameters))
}
