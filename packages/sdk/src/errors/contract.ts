import { ContractFunctionRevertedError } from 'viem'
import { type Amount, formatAmount, gridToken, type TokenInfo } from '../utils/amount.js'
import { BaseError } from './base.js'

/** Turns a contract error's arguments into what to do next. */
export type RevertHint = (args: readonly unknown[], context: { token: TokenInfo }) => string

/** Hints by custom error name. */
export type RevertHints = Readonly<Record<string, RevertHint>>

export type ContractRevertedErrorType = ContractRevertedError & { name: 'ContractRevertedError' }

/**
 * A transaction or call reverted with one of the Gridforge contracts' custom
 * errors: `errorName` and `args` are decoded, `hint` says what to do.
 *
 * @example
 * import { ContractRevertedError } from '@gridforge/sdk'
 *
 * try {
 *   await client.submitTask({ sourceId: 1, input: cid, maxPayment: '5' })
 * } catch (error) {
 *   if (error instanceof ContractRevertedError && error.errorName === 'TaskMarketInsufficientBalance') {
 *     await client.deposit({ amount: '5' })
 *   }
 * }
 */
export class ContractRevertedError extends BaseError {
  override name = 'ContractRevertedError' as const
  /** The custom error, e.g. `TaskMarketInsufficientBalance`; `undefined` when it could not be decoded. */
  readonly errorName: string | undefined
  /** Its decoded arguments. */
  readonly args: readonly unknown[]
  /** The contract that reverted, from the error's prefix (`TaskMarket`, `Staking`, …). */
  readonly contract: string | undefined
  readonly hint: string | undefined

  constructor({
    action,
    errorName,
    args,
    hint,
    cause,
  }: {
    action: string
    errorName: string | undefined
    args: readonly unknown[]
    hint: string | undefined
    cause: unknown
  }) {
    const shown = args.map((arg) => (typeof arg === 'bigint' ? arg.toString() : JSON.stringify(arg)))
    super(
      errorName === undefined
        ? `${action} reverted without a known error`
        : `${action} reverted with ${errorName}(${shown.join(', ')})`,
      { cause, metaMessages: hint === undefined ? undefined : [hint] },
    )
    this.errorName = errorName
    this.args = args
    this.contract = errorName?.match(/^(TaskMarket|Staking|ProviderRegistry|SourceRegistry|ERC20)/)?.[1]
    this.hint = hint
  }
}

/**
 * Wraps an error from a viem contract call: reverts with a decoded custom error
 * become a {@link ContractRevertedError} with a hint; anything else (network,
 * user rejection) is returned unchanged.
 */
export function toContractError(
  error: unknown,
  { action, hints, token = gridToken }: { action: string; hints: RevertHints; token?: TokenInfo | undefined },
): unknown {
  if (!(error instanceof Error) || !('walk' in error) || typeof error.walk !== 'function') return error
  const reverted = error.walk(
    (cause: unknown) => cause instanceof ContractFunctionRevertedError,
  ) as ContractFunctionRevertedError | null
  if (reverted === null) return error
  const errorName = reverted.data?.errorName
  const args = reverted.data?.args ?? []
  const hint = errorName === undefined ? undefined : hints[errorName]?.(args, { token })
  return new ContractRevertedError({ action, errorName, args, hint, cause: error })
}

/** Formats an amount argument of a revert for a hint. */
export function amountArg(value: unknown, token: TokenInfo): string {
  return typeof value === 'bigint' ? formatAmount(value, token) : String(value)
}

export type { Amount }
