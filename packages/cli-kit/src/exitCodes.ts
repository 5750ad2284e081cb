/**
 * Which error ends a CLI with which exit code, decided by class (`instanceof`)
 * in one table: the codes both CLIs give, plus the ones each CLI adds for its
 * own errors.
 */
import { HttpRequestError, TimeoutError, WebSocketRequestError } from 'viem'
import { ChainMismatchError, DeploymentMissingError, RpcUnreachableError, UsageError } from './errors.js'

/** The exit codes both CLIs use; each adds its own (4: task not completed, 8: host not ready). */
export const exitCodes = {
  /** Done. */
  ok: 0,
  /** An unexpected error (a bug, a full disk, …). */
  unexpected: 1,
  /** Usage: an unknown command or option, a bad parameter, a missing key or deployment. */
  usage: 2,
  /** A contract reverted; its error name, arguments and a hint are printed. */
  reverted: 3,
  /** Waiting (or a request) timed out. */
  timeout: 5,
  /** The RPC node (or the content store's node) could not be reached. */
  unreachable: 6,
  /** Content does not match its CID (or a receipt disagrees with the chain). */
  verificationFailed: 7,
} as const

/** An error class, whatever its constructor's parameters. */
export type ErrorClass = abstract new (...args: never[]) => Error

/** An error class and the exit code of its instances (and of errors caused by one). */
export type ExitCodeRule = readonly [ErrorClass, number]

/**
 * The SDK's error classes that both CLIs give an exit code. Each CLI hands in
 * the SDK it runs with instead of this package importing `@gridforge/sdk`:
 * `gridforge` is bundled from the SDK's own sources, `gridforge-provider`
 * imports the installed SDK, and `instanceof` must see the classes that the
 * running CLI's actions throw.
 */
export interface SdkErrorClasses {
  BaseError: ErrorClass
  InvalidParametersError: ErrorClass
  ContractRevertedError: ErrorClass
  KeystoreInvalidError: ErrorClass
  KeystorePasswordError: ErrorClass
  StorageTimeoutError: ErrorClass
  StorageRequestError: ErrorClass
  ContentVerificationError: ErrorClass
  KuboCidMismatchError: ErrorClass
  InvalidDagError: ErrorClass
  BlockTooLargeError: ErrorClass
}

/**
 * How a CLI classifies and prints errors: the SDK it runs with, the exit codes
 * of its own errors, and what to do when the node cannot be reached.
 */
export interface ErrorReporting {
  sdk: SdkErrorClasses
  /** The CLI's own rules, checked after the shared ones. */
  rules: readonly ExitCodeRule[]
  /** The line printed under "cannot reach the RPC node": how to point the CLI at a node. */
  rpcHint: string
  /**
   * The CLI's errors whose `--json` form carries more than the message: their
   * `fields` (what is invalid; the SDK's InvalidParametersError always does) or
   * `mismatches` (what failed verification).
   */
  jsonFields?: readonly (readonly [ErrorClass, 'fields' | 'mismatches'])[]
}

/** The rules both CLIs share: connection failures, the toolkit's own errors, the SDK's. */
function sharedRules(sdk: SdkErrorClasses): readonly ExitCodeRule[] {
  return [
    [HttpRequestError, exitCodes.unreachable],
    [WebSocketRequestError, exitCodes.unreachable],
    [TimeoutError, exitCodes.unreachable],
    [UsageError, exitCodes.usage],
    [ChainMismatchError, exitCodes.usage],
    [DeploymentMissingError, exitCodes.usage],
    [RpcUnreachableError, exitCodes.unreachable],
    [sdk.InvalidParametersError, exitCodes.usage],
    [sdk.KeystoreInvalidError, exitCodes.usage],
    [sdk.KeystorePasswordError, exitCodes.usage],
    [sdk.ContractRevertedError, exitCodes.reverted],
    [sdk.StorageTimeoutError, exitCodes.timeout],
    [sdk.StorageRequestError, exitCodes.unreachable],
    [sdk.ContentVerificationError, exitCodes.verificationFailed],
    [sdk.KuboCidMismatchError, exitCodes.verificationFailed],
    [sdk.InvalidDagError, exitCodes.verificationFailed],
    [sdk.BlockTooLargeError, exitCodes.verificationFailed],
  ]
}

/** Every error in `error`'s cause chain, outermost first. */
export function causesOf(error: unknown): unknown[] {
  const out: unknown[] = []
  let current = error
  while (current !== undefined && current !== null && out.length < 20) {
    out.push(current)
    current = typeof current === 'object' && 'cause' in current ? current.cause : undefined
  }
  return out
}

/**
 * The exit code of an error: that of the first error in its cause chain that
 * a rule names, else 1 (unexpected).
 *
 * @example
 * exitCodeOf(new UsageError('--chain: not a chain id'), reporting) // 2
 */
export function exitCodeOf(error: unknown, { sdk, rules }: Pick<ErrorReporting, 'sdk' | 'rules'>): number {
  const all = [...sharedRules(sdk), ...rules]
  for (const cause of causesOf(error)) {
    const rule = all.find(([errorClass]) => cause instanceof errorClass)
    if (rule !== undefined) return rule[1]
  }
  return exitCodes.unexpected
}
