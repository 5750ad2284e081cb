/**
 * The errors of the CLIs themselves (a bad flag, an unreachable node, the
 * wrong chain), as opposed to the SDK's. Each takes its hint from the CLI that
 * throws it: `gridforge` says "pass --rpc", `gridforge-provider` says "fix
 * [chain] rpc in the config file".
 */

export interface CliErrorParameters {
  cause?: unknown
  /** What to do next, one line each. */
  metaMessages?: readonly string[] | undefined
}

/**
 * The base of the CLIs' own errors, shaped like the SDK's `BaseError`: a
 * one-line `shortMessage` and `metaMessages` that say what to do next. It is
 * not a `BaseError` because the SDK bundles this package into its own CLI, so
 * this package cannot depend on the SDK.
 *
 * @example
 * class NotRegisteredError extends CliError {
 *   override name = 'NotRegisteredError' as const
 *   constructor() {
 *     super('0x… is not a registered provider', { metaMessages: ['Run `gridforge-provider register` first.'] })
 *   }
 * }
 */
export class CliError extends Error {
  override name = 'CliError'
  readonly shortMessage: string
  readonly metaMessages: readonly string[]

  constructor(shortMessage: string, { cause, metaMessages = [] }: CliErrorParameters = {}) {
    const message = metaMessages.length === 0 ? shortMessage : [shortMessage, '', ...metaMessages].join('\n')
    super(message, cause === undefined ? undefined : { cause })
    this.shortMessage = shortMessage
    this.metaMessages = metaMessages
  }
}

export type UsageErrorType = UsageError & { name: 'UsageError' }

/**
 * A command was called in a way that cannot work (a missing key, a bad flag value).
 *
 * @example
 * throw new UsageError('--out: ./results is a file', ['Pass a directory.'])
 */
export class UsageError extends CliError {
  override name = 'UsageError' as const

  constructor(shortMessage: string, metaMessages?: readonly string[]) {
    super(shortMessage, { metaMessages })
  }
}

export type RpcUnreachableErrorType = RpcUnreachableError & { name: 'RpcUnreachableError' }

/**
 * The JSON-RPC endpoint did not answer.
 *
 * @example
 * throw new RpcUnreachableError({ url, cause, hint: 'Start the node, or pass --rpc <url>.' })
 */
export class RpcUnreachableError extends CliError {
  override name = 'RpcUnreachableError' as const

  constructor({ url, cause, hint }: { url: string; cause?: unknown; hint: string }) {
    super(`cannot reach the RPC node at ${url}`, { cause, metaMessages: [hint] })
  }
}

export type ChainMismatchErrorType = ChainMismatchError & { name: 'ChainMismatchError' }

/**
 * The user's setting (a flag, a config field, a deployment file) names another chain than the node's.
 *
 * @example
 * throw new ChainMismatchError({ expected: 1, actual: 31337, url, source: '--chain', hint: 'Pass --chain 31337.' })
 */
export class ChainMismatchError extends CliError {
  override name = 'ChainMismatchError' as const

  constructor({
    expected,
    actual,
    url,
    source,
    hint,
  }: { expected: number; actual: number; url: string; source: string; hint: string }) {
    super(`${source} says chain ${expected}, but the node at ${url} is chain ${actual}`, {
      metaMessages: [hint],
    })
  }
}

export type DeploymentMissingErrorType = DeploymentMissingError & { name: 'DeploymentMissingError' }

/**
 * No deployment is known for the node's chain; `hint` says where to give one.
 *
 * @example
 * throw new DeploymentMissingError({ chainId: 1, hint: 'Pass --deployment <file.json> with the addresses:' })
 */
export class DeploymentMissingError extends CliError {
  override name = 'DeploymentMissingError' as const

  constructor({ chainId, cause, hint }: { chainId: number; cause?: unknown; hint: string }) {
    super(`no Gridforge deployment is known for chain ${chainId}`, {
      cause,
      metaMessages: [
        hint,
        '  { "chainId": 1, "blockNumber": 0, "contracts": { "token": "0x…", "sources": "0x…",',
        '    "staking": "0x…", "providers": "0x…", "market": "0x…" } }',
      ],
    })
  }
}
