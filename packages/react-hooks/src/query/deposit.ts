import {
  type DepositErrorType,
  type DepositParameters,
  type DepositReturnType,
  deposit,
} from '@gridforge/sdk'
import type { Config } from '@wagmi/core'
import type { MutationOptionsOf, MutationParameter, WriteVariables } from './types.js'
import type { ChainParameters } from './utils.js'
import { invalidateAfterWrite, type WalletErrorType, writeWith } from './write.js'

export type DepositData = DepositReturnType

export type DepositVariables = WriteVariables<DepositParameters>

export type DepositMutationErrorType = DepositErrorType | WalletErrorType

export type DepositOptions = ChainParameters &
  MutationParameter<DepositData, DepositMutationErrorType, DepositVariables>

/** The queries a successful `deposit` refetches: `walletBalance`. */
export const depositInvalidates = ['walletBalance'] as const

/**
 * Mutation options to move tokens into the market balance (`deposit`); `approve: true` sends an approval first when the allowance is short. Sent from the connected wallet; on success the
 * `walletBalance` queries are invalidated.
 *
 * @example
 * import { depositMutationOptions } from '@gridforge/react-hooks/query'
 * import { MutationObserver } from '@tanstack/query-core'
 *
 * const observer = new MutationObserver(queryClient, depositMutationOptions(config))
 * const result = await observer.mutate({ amount: '50', approve: true })
 */
export function depositMutationOptions(
  config: Config,
  options: DepositOptions = {},
): MutationOptionsOf<DepositData, DepositMutationErrorType, DepositVariables> {
  return {
    ...options.mutation,
    mutationKey: ['gridforge', 'deposit'],
    mutationFn: (variables) => writeWith(config, options, variables, deposit),
    onSuccess: invalidateAfterWrite(depositInvalidates, options.mutation?.onSuccess),
  }
}
