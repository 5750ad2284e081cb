import {
  type SubmitTaskErrorType,
  type SubmitTaskParameters,
  type SubmitTaskReturnType,
  submitTask,
} from '@gridforge/sdk'
import type { Config } from '@wagmi/core'
import type { MutationOptionsOf, MutationParameter, WriteVariables } from './types.js'
import type { ChainParameters } from './utils.js'
import { invalidateAfterWrite, type WalletErrorType, writeWith } from './write.js'

export type SubmitTaskData = SubmitTaskReturnType

export type SubmitTaskVariables = WriteVariables<SubmitTaskParameters>

export type SubmitTaskMutationErrorType = SubmitTaskErrorType | WalletErrorType

export type SubmitTaskOptions = ChainParameters &
  MutationParameter<SubmitTaskData, SubmitTaskMutationErrorType, SubmitTaskVariables>

/** The queries a successful `submitTask` refetches: `tasks`, `walletBalance`, `networkStats`, `protocolParams`. */
export const submitTaskInvalidates = ['tasks', 'walletBalance', 'networkStats', 'protocolParams'] as const

/**
 * Mutation options to submit a task (`submitTask`): escrows `replicas × maxPayment` from the market balance (any shortfall from the token allowance) and returns the task id. Sent from the connected wallet; on success the
 * `tasks`, `walletBalance`, `networkStats`, `protocolParams` queries are invalidated.
 *
 * @example
 * import { submitTaskMutationOptions } from '@gridforge/react-hooks/query'
 * import { MutationObserver } from '@tanstack/query-core'
 *
 * const observer = new MutationObserver(queryClient, submitTaskMutationOptions(config))
 * const result = await observer.mutate({ sourceId: 1, input: 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku', maxPayment: '5', deadline: '1h' })
 */
export function submitTaskMutationOptions(
  config: Config,
  options: SubmitTaskOptions = {},
): MutationOptionsOf<SubmitTaskData, SubmitTaskMutationErrorType, SubmitTaskVariables> {
  return {
    ...options.mutation,
    mutationKey: ['gridforge', 'submitTask'],
    mutationFn: (variables) => writeWith(config, options, variables, submitTask),
    onSuccess: invalidateAfterWrite(submitTaskInvalidates, options.mutation?.onSuccess),
  }
}
