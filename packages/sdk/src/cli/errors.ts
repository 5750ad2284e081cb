/**
 * The exit codes of `gridforge` and its own errors; classifying and printing
 * errors is the CLI toolkit's (`@gridforge/cli-kit`), shared with
 * `gridforge-provider`.
 */
import {
  CliError,
  type ErrorReporting,
  type ExitCodeRule,
  exitCodes as sharedExitCodes,
} from '@gridforge/cli-kit'
import { BaseError } from '../errors/base.js'
import { ContractRevertedError } from '../errors/contract.js'
import { LeaseNotFoundError } from '../errors/lease.js'
import { SourceInactiveError, TaskNotOpenError } from '../errors/quote.js'
import {
  TaskCancelledError,
  TaskDeadlinePassedError,
  TaskExpiredError,
  TaskFailedError,
  TaskNotFoundError,
  TaskRevealClosedError,
  WaitForTaskTimeoutError,
} from '../errors/task.js'
import { InvalidParametersError } from '../errors/validation.js'
import { IndexerParameterError } from '../indexer/errors.js'
import { KeystoreInvalidError, KeystorePasswordError } from '../keystore/keystore.js'
import { ReceiptNotSubmittedError, TaskNotSettledError } from '../receipts/errors.js'
import {
  BlockWritesUnsupportedError,
  InvalidSealedOutputError,
  NotASealedOutputError,
  SealedBlockMismatchError,
  SealedOutputKeyError,
  SealedOutputMismatchError,
  SealedOutputTamperedError,
  SealedOutputTruncatedError,
} from '../results/errors.js'
import {
  BlockTooLargeError,
  ContentVerificationError,
  InvalidCidError,
  InvalidDagError,
  InvalidPathError,
  KuboCidMismatchError,
  PathNotFoundError,
  StorageRequestError,
  StorageTimeoutError,
} from '../storage/errors.js'
import { LeaseAcceptTimeoutError } from './commands/lease.js'

/** Exit codes of `gridforge` (also in `gridforge --help` and the CLI README). */
export const exitCodes = {
  ...sharedExitCodes,
  /** The task failed, expired or was cancelled. */
  taskNotCompleted: 4,
} as const

/** The exit code table as `gridforge --help` prints it. */
export const exitCodeHelp = `Exit codes:
  0  ok
  1  unexpected error
  2  usage or invalid parameters (the field is named)
  3  contract revert (error name, arguments and a hint are printed)
  4  task failed, expired or was cancelled
  5  timeout while waiting
  6  RPC node unreachable
  7  verification failed (receipt mismatch, content that does not match its CID, a sealed output that does not open)`

/** What to do when the node cannot be reached. */
export const rpcHint = 'Start the node, or pass --rpc <url> (or set GRIDFORGE_RPC_URL).'

export type ReceiptVerificationFailedErrorType = ReceiptVerificationFailedError & {
  name: 'ReceiptVerificationFailedError'
}

/** A receipt does not agree with the chain (or its signature or CID is wrong). */
export class ReceiptVerificationFailedError extends CliError {
  override name = 'ReceiptVerificationFailedError' as const
  readonly mismatches: readonly unknown[]

  constructor({ taskId, mismatches }: { taskId: bigint; mismatches: readonly { toString(): string }[] }) {
    super(`the receipt of task ${taskId} failed verification (${mismatches.length} mismatches)`, {
      metaMessages: mismatches.map((mismatch) => `- ${describeMismatch(mismatch)}`),
    })
    this.mismatches = mismatches
  }
}

/** One mismatch as a line: `field: chain X, receipt Y` or its message. */
export function describeMismatch(mismatch: unknown): string {
  if (typeof mismatch === 'string') return mismatch
  if (mismatch !== null && typeof mismatch === 'object') {
    const record = mismatch as Record<string, unknown>
    const show = (value: unknown) => (typeof value === 'bigint' ? value.toString() : JSON.stringify(value))
    const field = record.field ?? record.path ?? record.name
    if (typeof record.message === 'string') {
      return field === undefined ? record.message : `${String(field)}: ${record.message}`
    }
    if (field !== undefined && ('expected' in record || 'actual' in record)) {
      return `${String(field)}: expected ${show(record.expected)}, got ${show(record.actual)}`
    }
    return show(mismatch)
  }
  return String(mismatch)
}

/** The exit codes of the errors only `gridforge` meets; the toolkit knows the rest. */
const rules: readonly ExitCodeRule[] = [
  [InvalidCidError, exitCodes.usage],
  [InvalidPathError, exitCodes.usage],
  [PathNotFoundError, exitCodes.usage],
  [TaskNotFoundError, exitCodes.usage],
  // A quote of a task no provider can claim any more, or of a retired source: ask about something else.
  [TaskNotOpenError, exitCodes.usage],
  [SourceInactiveError, exitCodes.usage],
  [TaskNotSettledError, exitCodes.usage],
  [ReceiptNotSubmittedError, exitCodes.usage],
  // A filter the indexer refuses is wrong whichever way it is read (the chain is not asked instead).
  [IndexerParameterError, exitCodes.usage],
  [TaskFailedError, exitCodes.taskNotCompleted],
  [TaskExpiredError, exitCodes.taskNotCompleted],
  [TaskCancelledError, exitCodes.taskNotCompleted],
  [TaskDeadlinePassedError, exitCodes.taskNotCompleted],
  [TaskRevealClosedError, exitCodes.taskNotCompleted],
  [WaitForTaskTimeoutError, exitCodes.timeout],
  [LeaseAcceptTimeoutError, exitCodes.timeout],
  [LeaseNotFoundError, exitCodes.usage],
  [ReceiptVerificationFailedError, exitCodes.verificationFailed],
  // A sealed output: the wrong key or store is the user's to fix; an envelope that does not hold is not.
  [SealedOutputKeyError, exitCodes.usage],
  [NotASealedOutputError, exitCodes.usage],
  [BlockWritesUnsupportedError, exitCodes.usage],
  [SealedOutputTamperedError, exitCodes.verificationFailed],
  [SealedOutputTruncatedError, exitCodes.verificationFailed],
  [SealedBlockMismatchError, exitCodes.verificationFailed],
  [InvalidSealedOutputError, exitCodes.verificationFailed],
  [SealedOutputMismatchError, exitCodes.verificationFailed],
]

/** How `gridforge` classifies and prints errors (the SDK here is the one bundled with it). */
export const errorReporting: ErrorReporting = {
  sdk: {
    BaseError,
    InvalidParametersError,
    ContractRevertedError,
    KeystoreInvalidError,
    KeystorePasswordError,
    StorageTimeoutError,
    StorageRequestError,
    ContentVerificationError,
    KuboCidMismatchError,
    InvalidDagError,
    BlockTooLargeError,
  },
  rules,
  rpcHint,
  jsonFields: [[ReceiptVerificationFailedError, 'mismatches']],
}
