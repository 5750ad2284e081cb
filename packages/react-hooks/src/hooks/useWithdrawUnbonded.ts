'use client'
import { type UseMutationResult, useMutation } from '@tanstack/react-query'
import { useConfig } from 'wagmi'
import {
  type WithdrawUnbondedData,
  type WithdrawUnbondedMutationErrorType,
  type WithdrawUnbondedOptions,
  type WithdrawUnbondedVariables,
  withdrawUnbondedMutationOptions,
} from '../query/withdrawUnbonded.js'
import type { ConfigParameter } from './query.js'

export type UseWithdrawUnbondedParameters = WithdrawUnbondedOptions & ConfigParameter

export type UseWithdrawUnbondedReturnType = UseMutationResult<
  WithdrawUnbondedData,
  WithdrawUnbondedMutationErrorType,
  WithdrawUnbondedVariables
>

/**
 * Withdraws stake whose unbonding period ended (`withdrawUnbonded`).
 *
 * @example
 * import { useWithdrawUnbonded } from '@gridforge/react-hooks'
 *
 * const { mutate: withdrawUnbonded } = useWithdrawUnbonded()
 * withdrawUnbonded({})
 */
export function useWithdrawUnbonded(
  parameters: UseWithdrawUnbondedParameters = {},
): UseWithdrawUnbondedReturnType {
  const config = useConfig(parameters)
  return useMutation(withdrawUnbondedMutationOptions(config, parameters))
}
