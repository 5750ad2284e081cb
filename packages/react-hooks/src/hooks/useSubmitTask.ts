'use client'
import { type UseMutationResult, useMutation } from '@tanstack/react-query'
import { useConfig } from 'wagmi'
import {
  type SubmitTaskData,
  type SubmitTaskMutationErrorType,
  type SubmitTaskOptions,
  type SubmitTaskVariables,
  submitTaskMutationOptions,
} from '../query/submitTask.js'
import type { ConfigParameter } from './query.js'

export type UseSubmitTaskParameters = SubmitTaskOptions & ConfigParameter

export type UseSubmitTaskReturnType = UseMutationResult<
  SubmitTaskData,
  SubmitTaskMutationErrorType,
  SubmitTaskVariables
>

/**
 * Submits a task from the connected wallet (`submitTask`); refetches task lists, balances and stats on success.
 *
 * @example
 * import { useSubmitTask } from '@gridforge/react-hooks'
 *
 * const { mutateAsync: submitTask, isPending } = useSubmitTask()
 * const { taskId } = await submitTask({ sourceId: 1, input: cid, maxPayment: '5', deadline: '1h' })
 */
export function useSubmitTask(parameters: UseSubmitTaskParameters = {}): UseSubmitTaskReturnType {
  const config = useConfig(parameters)
  return useMutation(submitTaskMutationOptions(config, parameters))
}
