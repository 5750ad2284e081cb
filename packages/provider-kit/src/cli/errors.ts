/**
 * The CLI's own errors, the exit code of every error, and how errors are
 * printed: the short message and what to do next, never a stack trace unless
 * GRIDFORGE_DEBUG=1. The codes are those of the `gridforge` job CLI, plus 8
 * for a host that is not ready.
 */
import { BaseError } from '@gridforge/sdk'
import type { Address } from 'viem'
import { HttpRequestError, TimeoutError, WebSocketRequestError } from 'viem'
import type { Terminal } from '../../../sdk/src/cli/terminal.js'
import { toJson } from '../../../sdk/src/cli/terminal.js'

/** Exit codes of `gridforge-provider` (also in `--help` and the CLI README). */
export const exitCodes = {
  /** Done. */
  ok: 0,
  /** An unexpected error (a bug, a full disk, …). */
  unexpected: 1,
  /** Usage: an unknown command or option, a bad config field, a missing key or deployment, not registered. */
  usage: 2,
  /** A contract reverted; its error name, arguments and a hint are printed. */
  reverted: 3,
  /** A request timed out. */
  timeout: 5,
  /** The RPC node (or the content store's node) could not be reached. */
  unreachable: 6,
  /** Content does not match its CID. */
  verificationFailed: 7,
  /** A host check failed (`doctor` found a failing check; the container engine is not usable). */
  hostNotReady: 8,
} as const

export type ExitCode = (typeof exitCodes)[keyof typeof exitCodes]

/** The exit code table as `gridforge-provider --help` prints it. */
export const exitCodeHelp = `Exit codes:
  0  ok (start: stopped by SIGINT/SIGTERM after finishing or journaling in-flight work)
  1  unexpected error
  2  usage, invalid config (the field is named), missing key or deployment, not registered
  3  contract revert (error name, arguments and a hint are printed)
  5  timeout
  6  RPC node or content store unreachable
  7  content does not match its CID
  8  host not ready: a doctor check failed, or the container engine is not usable
  130/143  start: a second SIGINT/SIGTERM stopped it at once`

export type UsageErrorType = UsageError & { name: 'UsageError' }

/** A command was called in a way that cannot work (a missing key, a bad flag value). */
export class UsageError extends BaseError {
  override name = 'UsageError' as const

  constructor(shortMessage: string, metaMessages?: readonly string[]) {
    super(shortMessage, { metaMessages, details: '' })
  }
}

export type RpcUnreachableErrorType = RpcUnreachableError & { name: 'RpcUnreachableError' }

/** The JSON-RPC endpoint did not answer. */
export class RpcUnreachableError extends BaseError {
  override name = 'RpcUnreachableError' as const

  constructor({ url, cause }: { url: string; cause?: unknown }) {
    super(`cannot reach the RPC node at ${url}`, {
      cause,
      metaMessages: ['Start the node, or fix [chain] rpc in the config file.'],
    })
  }
}

export type ChainMismatchErrorType = ChainMismatchError & { name: 'ChainMismatchError' }

/** The config (or the deployment file) names another chain than the node's. */
export class ChainMismatchError extends BaseError {
  override name = 'ChainMismatchError' as const

  constructor({
    expected,
    actual,
    url,
    source,
  }: { expected: number; actual: number; url: string; source: string }) {
    super(`${source} says chain ${expected}, but the node at ${url} is chain ${actual}`, {
      details: '',
      metaMessages: [`Point [chain] rpc at a chain ${expected} node, or set chainId = ${actual}.`],
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
        'Set [chain] deployment to a JSON file with the addresses:',
        '  { "chainId": 1, "blockNumber": 0, "contracts": { "token": "0x…", "sources": "0x…",',
        '    "staking": "0x…", "providers": "0x…", "market": "0x…" } }',
      ],
    })
  }
}

export type NotRegisteredErrorType = NotRegisteredError & { name: 'NotRegisteredError' }

/** `start` on an account that is not a registered provider. */
export class NotRegisteredError extends BaseError {
  override name = 'NotRegisteredError' as const
  readonly provider: Address

  constructor({ provider }: { provider: Address }) {
    super(`${provider} is not a registered provider`, {
      details: '',
      metaMessages: ['Run `gridforge-provider register` first (it stakes, registers and subscribes).'],
    })
    this.provider = provider
  }
}

export type HostNotReadyErrorType = HostNotReadyError & { name: 'HostNotReadyError' }

/** A host check failed: the agent cannot run tasks here as configured. */
export class HostNotReadyError extends BaseError {
  override name = 'HostNotReadyError' as const

  constructor(
    shortMessage: string,
    metaMessages: readonly string[] = ['Run `gridforge-provider doctor` for what to fix.'],
  ) {
    super(shortMessage, { details: '', metaMessages })
  }
}

const byName: Readonly<Record<string, ExitCode>> = {
  InvalidParametersError: exitCodes.usage,
  UsageError: exitCodes.usage,
  ConfigInvalidError: exitCodes.usage,
  ConfigSyntaxError: exitCodes.usage,
  ConfigNotFoundError: exitCodes.usage,
  ConfigExistsError: exitCodes.usage,
  ChainMismatchError: exitCodes.usage,
  DeploymentMissingError: exitCodes.usage,
  NotRegisteredError: exitCodes.usage,
  KeystoreInvalidError: exitCodes.usage,
  KeystorePasswordError: exitCodes.usage,
  ContractRevertedError: exitCodes.reverted,
  StorageTimeoutError: exitCodes.timeout,
  RpcUnreachableError: exitCodes.unreachable,
  StorageRequestError: exitCodes.unreachable,
  KuboRpcError: exitCodes.unreachable,
  ContentVerificationError: exitCodes.verificationFailed,
  KuboCidMismatchError: exitCodes.verificationFailed,
  InvalidDagError: exitCodes.verificationFailed,
  BlockTooLargeError: exitCodes.verificationFailed,
  HostNotReadyError: exitCodes.hostNotReady,
  ContainerEngineError: exitCodes.hostNotReady,
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

function metaOf(error: unknown): readonly string[] {
  const meta = error instanceof Error ? (error as { metaMessages?: unknown }).metaMessages : undefined
  return Array.isArray(meta) ? meta.filter((line): line is string => typeof line === 'string') : []
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
    const top =
      found.find((cause) => cause instanceof RpcUnreachableError) ??
      new RpcUnreachableError({ url: rpcUrl ?? 'the configured RPC URL', cause: error })
    const last = found[found.length - 1]
    const detail = last instanceof Error ? (last.message.split('\n')[0] ?? '') : ''
    return [
      `error: ${shortMessageOf(top)}`,
      ...metaOf(top).map((line) => `  ${line}`),
      ...(detail === '' ? [] : [`  details: ${detail}`]),
    ]
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

/** The error as a JSON value (for `--json`): name, message, what to do next, fields of a bad config. */
export function errorJson(error: unknown, code: ExitCode): Record<string, unknown> {
  const found = chain(error)
  const top = found[0]
  const reverted = found.find((cause) => cause instanceof Error && cause.name === 'ContractRevertedError') as
    | { errorName?: string; args?: readonly unknown[]; hint?: string }
    | undefined
  const fields = found.find(
    (cause) =>
      cause instanceof Error &&
      (cause.name === 'InvalidParametersError' || cause.name === 'ConfigInvalidError'),
  ) as { fields?: readonly unknown[] } | undefined
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
  if (terminal.json) terminal.out(toJson(errorJson(error, code)))
  return code
}
