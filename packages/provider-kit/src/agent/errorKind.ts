import {
  ContractRevertedError,
  InvalidParametersError,
  SourceMetadataTooLargeError,
  TransactionRevertedError,
} from '@gridforge/sdk'
import {
  BlockTooLargeError,
  ContentTooLargeError,
  ContentVerificationError,
  InvalidCidError,
  InvalidContentError,
  InvalidDagError,
  InvalidDirectoryEntryError,
  InvalidJsonContentError,
  InvalidPathError,
  NotADirectoryError,
  NotAFileError,
  PathNotFoundError,
  UnsupportedCidError,
} from '@gridforge/sdk/storage'
import { ContractFunctionRevertedError } from 'viem'
import { ImageDigestMismatchError, ImageUnavailableError } from '../errors.js'
import { TaskOutputRejectedError, TaskRefusedError } from './errors.js'

/**
 * What the agent does about an error, decided here and nowhere else:
 * - `transient`: the network, the node, the store or the engine may answer next time: retry with backoff;
 * - `revert`: the chain said no: read the task again and let the chain decide the next step;
 * - `permanent`: the same input gives the same answer (hostile or broken content, a refused task, a bug):
 *   end the task with the reason, never retry.
 */
export type ErrorKind = 'transient' | 'revert' | 'permanent'

/** Content and tasks that will fail the same way every time. */
const permanentErrors = [
  TaskRefusedError,
  TaskOutputRejectedError,
  InvalidParametersError,
  SourceMetadataTooLargeError,
  ImageDigestMismatchError,
  ImageUnavailableError,
  ContentVerificationError,
  ContentTooLargeError,
  BlockTooLargeError,
  InvalidDagError,
  InvalidCidError,
  UnsupportedCidError,
  InvalidContentError,
  InvalidJsonContentError,
  InvalidDirectoryEntryError,
  InvalidPathError,
  NotAFileError,
  NotADirectoryError,
  PathNotFoundError,
] as const

/**
 * Classifies `error` by its class (and its causes' classes), never by name strings.
 *
 * @example
 * errorKind(new ContentVerificationError(…)) // 'permanent'
 * errorKind(new ContractRevertedError(…)) // 'revert'
 * errorKind(new Error('fetch failed')) // 'transient'
 */
export function errorKind(error: unknown): ErrorKind {
  for (let cause: unknown = error; cause instanceof Error; cause = cause.cause) {
    if (
      cause instanceof ContractRevertedError ||
      cause instanceof TransactionRevertedError ||
      cause instanceof ContractFunctionRevertedError
    )
      return 'revert'
    if (permanentErrors.some((type) => cause instanceof type)) return 'permanent'
  }
  // A bare TypeError, RangeError or SyntaxError is a bug, not an outage (network failures arrive wrapped).
  if (error instanceof TypeError || error instanceof RangeError || error instanceof SyntaxError)
    return 'permanent'
  return 'transient'
}

/** Whether trying again may help (see {@link errorKind}). */
export function isTransient(error: unknown): boolean {
  return errorKind(error) === 'transient'
}

/** One line for a log or a journal entry: the short message and, when it adds something, the details. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) {
    const short = (error as { shortMessage?: string }).shortMessage ?? error.message
    const details = (error as { details?: string }).details
    return details !== undefined && details !== '' && details !== short ? `${short} (${details})` : short
  }
  return String(error)
}
