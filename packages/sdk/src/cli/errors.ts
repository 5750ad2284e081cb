/**
 * The CLI's own errors, the exit code of every error, and how errors are
 * printed: the short message and what to do next, never a stack trace unless
 * GRIDFORGE_DEBUG=1.
 */
import { HttpRequestError, TimeoutError, WebSocketRequestError } from 'viem'
import { BaseError } from '../errors/base.js'
import type { Terminal } from './terminal.js'

/** Exit codes of `gridforge` (also in `gridforge --help` and the CLI README). */
export const exitCodes = {
  /** Done. */
  ok: 0,
  /** An unexpected error (a bug, a full disk, …). */
  unexpected: 1,
  /** Usage: an unknown command or option, a bad parameter, a missing key or deployment. */
  usage: 2,
  /** A contract reverted; its error name, arguments and a hint are printed. */
  reverted: 3,
  /** The task failed, expired or was cancelled. */
  taskNotCompleted: 4,
  /** Waiting timed out. */
  timeout: 5,
  /** The RPC node (or the content store's node) could not be reached. */
  unreachable: 6,
  /** Verification failed: a receipt disagrees with the chain, or content does not match its CID. */
  verificationFailed: 7,
} as const

export type ExitCode = (typeof exitCodes)[keyof typeof exitCodes]

/** The exit code table as `gridforge --help` prints it. */
export const exitCodeHelp = `Exit codes:
  0  ok
  1  unexpected error
  2  usage or invalid parameters (the field is named)
  3  contract revert (error name, arguments and a hint are printed)
  4  task failed, expired or was cancelled
  5  timeout while waiting
  6  RPC node unreachable
  7  verification failed (receipt mismatch, content that does not match its CID)`

export type UsageErrorType = UsageError & { name: 'UsageError' }

/** A command was called in a way that cannot work (a missing key, a bad flag value). */
export class UsageError extends BaseError {
  override name = 'UsageError' as const

  constructor(shortMessage: string, metaMessages?: readonly string[]) {
    super(shortMessage, { metaMessages })
  }
}

export type RpcUnreachableErrorType = RpcUnreachableError & { name: 'RpcUnreachableError' }

/** The JSON-RPC endpoint did not answer. */
export class RpcUnreachableError extends BaseError {
  override name = 'RpcUnreachableError' as const

  constructor({ url, cause }: { url: string; cause?: unknown }) {
    super(`cannot reach the RPC node at ${url}`, {
      cause,
      metaMessages: ['Start the node, or pass --rpc <url> (or set GRIDFORGE_RPC_URL).'],
    })
  }
}

export type ChainMismatchErrorType = ChainMismatchError & { name: 'ChainMismatchError' }

/** `--chain` (or the deployment file) names another chain than the node's. */
export class ChainMismatchError extends BaseError {
  override name = 'ChainMismatchError' as const

  constructor({
    expected,
    actual,
    url,
    source,
  }: { expected: number; actual: number; url: string; source: string }) {
    super(`${source} says chain ${expected}, but the node at ${url} is chain ${actual}`, {
      metaMessages: [`Point --rpc at a chain ${expected} node, or pass --chain ${actual}.`],
    })
  }
}

export type DeploymentMissingErrorType = DeploymentMissingError & { name: 'DeploymentMissingError' }

/** No deployment is known for the node's chain. */
export class DeploymentMissingError extends BaseError {
  override name = 'DeploymentMissingError' as const

  constructor({ chainId, cause }: { chainId: number; cause?: unknown }) {
    super(`no Gridforge deployment is known for chain ${chainId}`, {
      cause,
      details: '',
      metaMessages: [
        'Pass --deployment <file.json> with the addresses:',
        '  { "chainId": 1, "blockNumber": 0, "contracts": { "token": "0x…", "sources": "0x…",',
        '    "staking": "0x…", "providers": "0x…", "market": "0x…" } }',
      ],
    })
  }
}

export type ReceiptVerificationFailedErrorType = ReceiptVerificationFailedError & {
  name: 'ReceiptVerificationFailedError'
}

/** A receipt does not agree with the chain (or its signature or CID is wrong). */
export class ReceiptVerificationFailedError extends BaseError {
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

const byName: Readonly<Record<string, ExitCode>> = {
  InvalidParametersError: exitCodes.usage,
  UsageError: exitCodes.usage,
  ChainMismatchError: exitCodes.usage,
  DeploymentMissingError: exitCodes.usage,
  KeystoreInvalidError: exitCodes.usage,
  KeystorePasswordError: exitCodes.usage,
  InvalidCidError: exitCodes.usage,
  InvalidPathError: exitCodes.usage,
  PathNotFoundError: exitCodes.usage,
  TaskNotFoundError: exitCodes.usage,
  TaskNotSettledError: exitCodes.usage,
  ReceiptNotSubmittedError: exitCodes.usage,
  ContractRevertedError: exitCodes.reverted,
  TaskFailedError: exitCodes.taskNotCompleted,
  TaskExpiredError: exitCodes.taskNotCompleted,
  TaskCancelledError: exitCodes.taskNotCompleted,
  TaskDeadlinePassedError: exitCodes.taskNotCompleted,
  TaskRevealClosedError: exitCodes.taskNotCompleted,
  WaitForTaskTimeoutError: exitCodes.timeout,
  StorageTimeoutError: exitCodes.timeout,
  RpcUnreachableError: exitCodes.unreachable,
  StorageRequestError: exitCodes.unreachable,
  ReceiptVerificationFailedError: exitCodes.verificationFailed,
  ContentVerificationError: exitCodes.verificationFailed,
  KuboCidMismatchError: exitCodes.verificationFailed,
  InvalidDagError: exitCodes.verificationFailed,
  BlockTooLargeError: exitCodes.verificationFailed,
}

/** Every error in `error`'s cause chain, outermost first. */
function chain(error: unknown): unknown[] {
  const out: unknown[] = []
  let current = error
  while (current !== undefined && current !== null && out.length < 20) {
    out.push(current)
    current = typeof current === 'object' && 'cause' in current ? current.cause : undefined
  }
  return out
}

/** The exit code of an error: the first error in its cause chain with a known code, else 1. */
export function exitCodeOf(error: unknown): ExitCode {
  for (const cause of chain(error)) {
    if (cause instanceof HttpRequestError || cause instanceof WebSocketRequestError)
      return exitCodes.unreachable
    if (cause instanceof TimeoutError) return exitCodes.unreachable
    if (cause instanceof Error) {
      const code = byName[cause.name]
      if (code !== undefined) return code
    }
  }
  return exitCodes.unexpected
}

function shortMessageOf(error: unknown): string {
  if (error instanceof Error) {
    const short = (error as { shortMessage?: unknown }).shortMessage
    return typeof short === 'string' && short !== '' ? short : (error.message.split('\n')[0] ?? error.name)
  }
  return String(error)
}

/** The error as printed: `error: …`, then the decoded revert or what to do next. */
export function describeError(error: unknown, { rpcUrl }: { rpcUrl?: string | undefined } = {}): string[] {
  const code = exitCodeOf(error)
  const found = chain(error)
  // An RPC failure deep inside an action reads best as the connection error it is.
  if (
    code === exitCodes.unreachable &&
    !found.some((cause) => cause instanceof BaseError && cause.name !== 'RpcUnreachableError')
  ) {
    const unreachable = found.find((cause) => cause instanceof RpcUnreachableError)
    const top = unreachable ?? new RpcUnreachableError({ url: rpcUrl ?? 'the --rpc URL', cause: error })
    return [`error: ${shortMessageOf(top)}`, ...metaOf(top).map((line) => `  ${line}`), ...detailOf(found)]
  }
  const reverted = found.find(
    (cause): cause is Error & { errorName?: string; args?: readonly unknown[]; hint?: string } =>
      cause instanceof Error && cause.name === 'ContractRevertedError',
  )
  if (reverted !== undefined) {
    const args = (reverted.args ?? []).map((arg) =>
      typeof arg === 'bigint' ? arg.toString() : JSON.stringify(arg),
    )
    return [
      `error: ${shortMessageOf(reverted)}`,
      `  contract error: ${reverted.errorName ?? '(not decoded)'}`,
      `  arguments: [${args.join(', ')}]`,
      ...(reverted.hint === undefined ? [] : [`  hint: ${reverted.hint}`]),
    ]
  }
  const top = found[0]
  return [`error: ${shortMessageOf(top)}`, ...metaOf(top).map((line) => `  ${line}`)]
}

function metaOf(error: unknown): readonly string[] {
  const meta = error instanceof Error ? (error as { metaMessages?: unknown }).metaMessages : undefined
  return Array.isArray(meta) ? meta.filter((line): line is string => typeof line === 'string') : []
}

function detailOf(found: unknown[]): string[] {
  const last = found[found.length - 1]
  if (!(last instanceof Error)) return []
  const details = (last as { details?: unknown }).details
  const text = typeof details === 'string' && details !== '' ? details : last.message.split('\n')[0]
  return text === undefined || text === '' ? [] : [`  details: ${text}`]
}

/** The error as a JSON value (for `--json`): name, message, what to do next, and a revert's decoding. */
export function errorJson(error: unknown, code: ExitCode): Record<string, unknown> {
  const found = chain(error)
  const reverted = found.find((cause) => cause instanceof Error && cause.name === 'ContractRevertedError') as
    | { errorName?: string; args?: readonly unknown[]; hint?: string }
    | undefined
  const fields = found.find((cause) => cause instanceof Error && cause.name === 'InvalidParametersError') as
    | { fields?: readonly unknown[] }
    | undefined
  const mismatches = found.find(
    (cause) => cause instanceof Error && cause.name === 'ReceiptVerificationFailedError',
  ) as { mismatches?: readonly unknown[] } | undefined
  const top = found[0]
  return {
    error: {
      name: top instanceof Error ? top.name : 'Error',
      message: shortMessageOf(top),
      metaMessages: metaOf(top),
      exitCode: code,
      ...(reverted === undefined
        ? {}
        : { errorName: reverted.errorName, args: reverted.args, hint: reverted.hint }),
      ...(fields?.fields === undefined ? {} : { fields: fields.fields }),
      ...(mismatches?.mismatches === undefined ? {} : { mismatches: mismatches.mismatches }),
    },
  }
}

/** Prints an error (stderr; also stdout as JSON with `--json`) and returns its exit code. */
export function reportError(
  terminal: Terminal,
  error: unknown,
  context: { rpcUrl?: string | undefined },
): ExitCode {
  const code = exitCodeOf(error)
  for (const line of describeError(error, context)) terminal.err(line)
  if (terminal.debug) {
    for (const cause of chain(error)) {
      if (cause instanceof Error && cause.stack !== undefined) terminal.err(`\n${cause.stack}`)
    }
  }
  if (terminal.json) terminal.out(toJsonSafe(errorJson(error, code)))
  return code
}

function toJsonSafe(value: unknown): string {
  return JSON.stringify(
    value,
    (_key, item: unknown) => (typeof item === 'bigint' ? item.toString() : item),
    2,
  )
}
