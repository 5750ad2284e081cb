/**
 * How a CLI prints an error: the short message and what to do next (or a
 * contract revert, decoded), one JSON document with `--json`, and never a
 * stack trace unless GRIDFORGE_DEBUG=1.
 */
import { CliError, RpcUnreachableError } from './errors.js'
import { causesOf, type ErrorReporting, exitCodeOf, exitCodes } from './exitCodes.js'
import { type Terminal, toJson } from './terminal.js'

/** What the reporter needs besides the CLI's {@link ErrorReporting}: the RPC URL in use (or how the CLI names it). */
export interface ReportContext {
  rpcUrl: string
}

interface RevertedError extends Error {
  errorName?: string
  args?: readonly unknown[]
  hint?: string
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

/** The technical reason at the bottom of the chain (`details: connect ECONNREFUSED …`). */
function detailOf(found: unknown[]): string[] {
  const last = found[found.length - 1]
  if (!(last instanceof Error)) return []
  const details = (last as { details?: unknown }).details
  const text = typeof details === 'string' && details !== '' ? details : last.message.split('\n')[0]
  return text === undefined || text === '' ? [] : [`  details: ${text}`]
}

function revertedIn(found: unknown[], reporting: ErrorReporting): RevertedError | undefined {
  return found.find((cause): cause is RevertedError => cause instanceof reporting.sdk.ContractRevertedError)
}

/**
 * The error as printed: `error: …`, then the decoded revert or what to do next.
 *
 * @example
 * describeError(new UsageError('--chain: not a chain id', ['Pass --chain 31337.']), { ...reporting, rpcUrl })
 * // ['error: --chain: not a chain id', '  Pass --chain 31337.']
 */
export function describeError(error: unknown, reporting: ErrorReporting & ReportContext): string[] {
  const found = causesOf(error)
  const { BaseError } = reporting.sdk
  // An RPC failure deep inside an action reads best as the connection error it is.
  if (
    exitCodeOf(error, reporting) === exitCodes.unreachable &&
    !found.some(
      (cause) =>
        (cause instanceof BaseError || cause instanceof CliError) && !(cause instanceof RpcUnreachableError),
    )
  ) {
    const top =
      found.find((cause) => cause instanceof RpcUnreachableError) ??
      new RpcUnreachableError({ url: reporting.rpcUrl, cause: error, hint: reporting.rpcHint })
    return [`error: ${shortMessageOf(top)}`, ...metaOf(top).map((line) => `  ${line}`), ...detailOf(found)]
  }
  const reverted = revertedIn(found, reporting)
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

/**
 * The error as a JSON value (for `--json`): name, message, what to do next,
 * exit code, a revert's decoding, and the `fields` / `mismatches` of the
 * errors that carry them ({@link ErrorReporting.jsonFields}).
 *
 * @example
 * errorJson(new UsageError('no key'), 2, reporting)
 * // { error: { name: 'UsageError', message: 'no key', metaMessages: [], exitCode: 2 } }
 */
export function errorJson(error: unknown, code: number, reporting: ErrorReporting): Record<string, unknown> {
  const found = causesOf(error)
  const top = found[0]
  const reverted = revertedIn(found, reporting)
  const carriers = [
    [reporting.sdk.InvalidParametersError, 'fields'] as const,
    ...(reporting.jsonFields ?? []),
  ]
  const carried = (property: 'fields' | 'mismatches') => {
    const carrier = found.find((cause) =>
      carriers.some(([errorClass, name]) => name === property && cause instanceof errorClass),
    )
    return (carrier as Record<string, unknown> | undefined)?.[property]
  }
  const fields = carried('fields')
  const mismatches = carried('mismatches')
  return {
    error: {
      name: top instanceof Error ? top.name : 'Error',
      message: shortMessageOf(top),
      metaMessages: metaOf(top),
      exitCode: code,
      ...(reverted === undefined
        ? {}
        : { errorName: reverted.errorName, args: reverted.args, hint: reverted.hint }),
      ...(fields === undefined ? {} : { fields }),
      ...(mismatches === undefined ? {} : { mismatches }),
    },
  }
}

/**
 * Prints an error (stderr; also stdout as JSON with `--json`) and returns its exit code.
 *
 * @example
 * const code = reportError(terminal, error, { ...reporting, rpcUrl: options.rpc })
 */
export function reportError(
  terminal: Terminal,
  error: unknown,
  reporting: ErrorReporting & ReportContext,
): number {
  const code = exitCodeOf(error, reporting)
  for (const line of describeError(error, reporting)) terminal.err(line)
  if (terminal.debug) {
    for (const cause of causesOf(error)) {
      if (cause instanceof Error && cause.stack !== undefined) terminal.err(`\n${cause.stack}`)
    }
  }
  if (terminal.json) terminal.out(toJson(errorJson(error, code, reporting)))
  return code
}
