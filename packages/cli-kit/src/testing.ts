/**
 * Test doubles: stand-ins for the SDK's error classes (this package cannot
 * import the SDK, which bundles it), and a terminal that records what it writes.
 */
import type { ErrorReporting, SdkErrorClasses } from './exitCodes.js'
import { Terminal } from './terminal.js'

export class BaseError extends Error {
  readonly shortMessage: string
  readonly metaMessages: readonly string[]
  constructor(
    shortMessage: string,
    { cause, metaMessages = [] }: { cause?: unknown; metaMessages?: string[] } = {},
  ) {
    super(shortMessage, { cause })
    this.shortMessage = shortMessage
    this.metaMessages = metaMessages
  }
}

/** An SDK error class named `name`, extending the stand-in BaseError. */
function sdkError(name: string) {
  return class extends BaseError {
    override name = name
  }
}

export class ContractRevertedError extends BaseError {
  override name = 'ContractRevertedError'
  readonly errorName: string | undefined
  readonly args: readonly unknown[]
  readonly hint: string | undefined
  constructor({ errorName, args, hint }: { errorName?: string; args: readonly unknown[]; hint?: string }) {
    super(`the contract reverted with ${errorName}`)
    this.errorName = errorName
    this.args = args
    this.hint = hint
  }
}

export class InvalidParametersError extends BaseError {
  override name = 'InvalidParametersError'
  readonly fields: readonly { path: string; message: string }[]
  constructor({ action, fields }: { action: string; fields: readonly { path: string; message: string }[] }) {
    super(`${action}: ${fields.length} invalid parameters`, {
      metaMessages: fields.map((field) => `- ${field.path}: ${field.message}`),
    })
    this.fields = fields
  }
}

export const sdk = {
  BaseError,
  ContractRevertedError,
  InvalidParametersError,
  KeystoreInvalidError: sdkError('KeystoreInvalidError'),
  KeystorePasswordError: sdkError('KeystorePasswordError'),
  StorageTimeoutError: sdkError('StorageTimeoutError'),
  StorageRequestError: sdkError('StorageRequestError'),
  ContentVerificationError: sdkError('ContentVerificationError'),
  KuboCidMismatchError: sdkError('KuboCidMismatchError'),
  InvalidDagError: sdkError('InvalidDagError'),
  BlockTooLargeError: sdkError('BlockTooLargeError'),
} satisfies SdkErrorClasses

/** A CLI's own error with its own exit code (like the provider's HostNotReadyError, 8). */
export class HostNotReadyError extends BaseError {
  override name = 'HostNotReadyError'
}

/** A CLI's own error whose `--json` form carries `mismatches`. */
export class VerificationFailedError extends BaseError {
  override name = 'VerificationFailedError'
  readonly mismatches = ['fee: expected 1, got 2']
}

export const reporting: ErrorReporting = {
  sdk,
  rules: [
    [HostNotReadyError, 8],
    [VerificationFailedError, 7],
  ],
  rpcHint: 'Start the node, or pass --rpc <url>.',
  jsonFields: [[VerificationFailedError, 'mismatches']],
}

/** A terminal whose stdout and stderr are recorded. */
export function recordingTerminal({ debug = false }: { debug?: boolean } = {}) {
  const stdout: string[] = []
  const stderr: string[] = []
  const terminal = new Terminal({
    stdout: { write: (text: string) => stdout.push(text) },
    stderr: { write: (text: string) => stderr.push(text) },
    debug,
  })
  return { terminal, stdout: () => stdout.join(''), stderr: () => stderr.join('') }
}
