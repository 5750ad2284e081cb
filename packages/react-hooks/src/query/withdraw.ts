import {
  type WithdrawErrorType,
  type WithdrawParameters,
  type WithdrawReturnType,
  withdraw,
} from '@gridforge/sdk'
import type { Config } from '@wagmi/core'
import type { MutationOptionsOf, MutationParameter, WriteVariables } from './types.js'
import type { ChainParameters } from './utils.js'
import { invalidateAfterWrite, type WalletErrorType, writeWith } from './write.js'

export type WithdrawData = WithdrawReturnType

export type WithdrawVariables = WriteVariables<WithdrawParameters>

export type WithdrawMutationErrorType = WithdrawErrorType | WalletErrorType

export type WithdrawOptions = ChainParameters &
  MutationParameter<WithdrawData, WithdrawMutationErrorType, WithdrawVariables>

/** The queries a successful `withdraw` refetches: `walletBalance`. */
export const withdrawInvalidates = ['walletBalance'] as const

/**
 * Mutation options to withdraw from the market balance to the account (or `to`) (`withdraw`). Sent from the connected wallet; on success the
 * `walletBalance` queries are invalidated.
 *
 * @example
 * import { withdrawMutationOptions } from '@gridforge/react-hooks/query'
 * import { MutationObserver } from '@tanstack/query-core'
 *
 * const observer = new MutationObserver(queryClient, withdrawMutationOptions(config))
 * const result = await observer.mutate({ amount: '10' })
 */
export function withdrawMutationOptions(
  config: Config,
  options: WithdrawOptions = {},
): MutationOptionsOf<WithdrawData, WithdrawMutationErrorType, WithdrawVariables> {
  return {
    ...options.mutation,
    mutationKey: ['gridforge', 'withdraw'],
    mutationFn: (variables) => writeWith(config, options, variables, withdraw),
    onSuccess: invalidateAfterWrite(withdrawInvalidates, options.mutation?.onSuccess),
  }
}
