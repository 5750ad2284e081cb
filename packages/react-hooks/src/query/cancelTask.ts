import {
  type CancelTaskErrorType,
  type CancelTaskParameters,
  type CancelTaskReturnType,
  cancelTask,
} from '@gridforge/sdk'
import type { Config } from '@wagmi/core'
import type { MutationOptionsOf, MutationParameter, WriteVariables } from './types.js'
import type { ChainParameters } from './utils.js'
import { invalidateAfterWrite, type WalletErrorType, writeWith } from './write.js'

export type CancelTaskData = CancelTaskReturnType

export type CancelTaskVariables = WriteVariables<CancelTaskParameters>

export type CancelTaskMutationErrorType = CancelTaskErrorType | WalletErrorType

export type CancelTaskOptions = ChainParameters &
  MutationParameter<CancelTaskData, CancelTaskMutationErrorType, CancelTaskVariables>

/** The queries a successful `cancelTask` refetches: `task`, `tasks`, `walletBalance`, `networkStats`. */
export const cancelTaskInvalidates = ['task', 'tasks', 'walletBalance', 'networkStats'] as const

/**
 * Mutation options to cancel a task no provider has claimed (`cancelTask`): the escrow goes back to the market balance. Sent from the connected wallet; on success the
 * `task`, `tasks`, `walletBalance`, `networkStats` queries are invalidated.
 *
 * @example
 * import { cancelTaskMutationOptions } from '@gridforge/react-hooks/query'
 * import { MutationObserver } from '@tanstack/query-core'
 *
 * const observer = new MutationObserver(queryClient, cancelTaskMutationOptions(config))
 * const result = await observer.mutate({ taskId: 7n })
 */
export function cancelTaskMutationOptions(
  config: Config,
  options: CancelTaskOptions = {},
): MutationOptionsOf<CancelTaskData, CancelTaskMutationErrorType, CancelTaskVariables> {
  return {
    ...options.mutation,
    mutationKey: ['gridforge', 'cancelTask'],
    mutationFn: (variables) => writeWith(config, options, variables, cancelTask),
    onSuccess: invalidateAfterWrite(cancelTaskInvalidates, options.mutation?.onSuccess),
  }
}
