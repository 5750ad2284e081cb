'use client'
import { type UseMutationResult, useMutation } from '@tanstack/react-query'
import { useConfig } from 'wagmi'
import {
  type CancelTaskData,
  type CancelTaskMutationErrorType,
  type CancelTaskOptions,
  type CancelTaskVariables,
  cancelTaskMutationOptions,
} from '../query/cancelTask.js'
import type { ConfigParameter } from './query.js'

export type UseCancelTaskParameters = CancelTaskOptions & ConfigParameter

export type UseCancelTaskReturnType = UseMutationResult<
  CancelTaskData,
  CancelTaskMutationErrorType,
  CancelTaskVariables
>

/**
 * Cancels an unclaimed task of the connected wallet (`cancelTask`).
 *
 * @example
 * import { useCancelTask } from '@gridforge/react-hooks'
 *
 * const { mutate: cancelTask } = useCancelTask()
 * cancelTask({ taskId: 7n })
 */
export function useCancelTask(parameters: UseCancelTaskParameters = {}): UseCancelTaskReturnType {
  const config = useConfig(parameters)
  return useMutation(cancelTaskMutationOptions(config, parameters))
}
