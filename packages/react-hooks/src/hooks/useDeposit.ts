'use client'
import { type UseMutationResult, useMutation } from '@tanstack/react-query'
import { useConfig } from 'wagmi'
import {
  type DepositData,
  type DepositMutationErrorType,
  type DepositOptions,
  type DepositVariables,
  depositMutationOptions,
} from '../query/deposit.js'
import type { ConfigParameter } from './query.js'

export type UseDepositParameters = DepositOptions & ConfigParameter

export type UseDepositReturnType = UseMutationResult<DepositData, DepositMutationErrorType, DepositVariables>

/**
 * Deposits tokens into the market balance (`deposit`); `approve: true` approves first when needed.
 *
 * @example
 * import { useDeposit } from '@gridforge/react-hooks'
 *
 * const { mutate: deposit } = useDeposit()
 * deposit({ amount: '50', approve: true })
 */
export function useDeposit(parameters: UseDepositParameters = {}): UseDepositReturnType {
  const config = useConfig(parameters)
  return useMutation(depositMutationOptions(config, parameters))
}
