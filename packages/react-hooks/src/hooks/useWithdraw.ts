'use client'
import { type UseMutationResult, useMutation } from '@tanstack/react-query'
import { useConfig } from 'wagmi'
import {
  type WithdrawData,
  type WithdrawMutationErrorType,
  type WithdrawOptions,
  type WithdrawVariables,
  withdrawMutationOptions,
} from '../query/withdraw.js'
import type { ConfigParameter } from './query.js'

export type UseWithdrawParameters = WithdrawOptions & ConfigParameter

export type UseWithdrawReturnType = UseMutationResult<
  WithdrawData,
  WithdrawMutationErrorType,
  WithdrawVariables
>

/**
 * Withdraws from the market balance (`withdraw`).
 *
 * @example
 * import { useWithdraw } from '@gridforge/react-hooks'
 *
 * const { mutate: withdraw } = useWithdraw()
 * withdraw({ amount: '10' })
 */
export function useWithdraw(parameters: UseWithdrawParameters = {}): UseWithdrawReturnType {
  const config = useConfig(parameters)
  return useMutation(withdrawMutationOptions(config, parameters))
}
