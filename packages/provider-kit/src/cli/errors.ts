/**
 * The exit codes of `gridforge-provider` and its own errors; classifying and
 * printing errors is the CLI toolkit's (`@gridforge/cli-kit`), shared with
 * `gridforge`. The codes are those of the `gridforge` job CLI, plus 8 for a
 * host that is not ready.
 */
import {
  CliError,
  type ErrorReporting,
  type ExitCodeRule,
  exitCodes as sharedExitCodes,
} from '@gridforge/cli-kit'
import * as sdk from '@gridforge/sdk'
import * as keystore from '@gridforge/sdk/keystore'
import * as storage from '@gridforge/sdk/storage'
import type { Address } from 'viem'
import {
  ConfigExistsError,
  ConfigInvalidError,
  ConfigNotFoundError,
  ConfigSyntaxError,
} from '../config/errors.js'
import { ContainerEngineError } from '../errors.js'

/** Exit codes of `gridforge-provider` (also in `--help` and the CLI README). */
export const exitCodes = {
  ...sharedExitCodes,
  /** A host check failed (`doctor` found a failing check; the container engine is not usable). */
  hostNotReady: 8,
} as const

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

/** What to do when the node cannot be reached. */
export const rpcHint = 'Start the node, or fix [chain] rpc in the config file.'

export type NotRegisteredErrorType = NotRegisteredError & { name: 'NotRegisteredError' }

/** `start` on an account that is not a registered provider. */
export class NotRegisteredError extends CliError {
  override name = 'NotRegisteredError' as const
  readonly provider: Address

  constructor({ provider }: { provider: Address }) {
    super(`${provider} is not a registered provider`, {
      metaMessages: ['Run `gridforge-provider register` first (it stakes, registers and subscribes).'],
    })
    this.provider = provider
  }
}

export type HostNotReadyErrorType = HostNotReadyError & { name: 'HostNotReadyError' }

/** A host check failed: the agent cannot run tasks here as configured. */
export class HostNotReadyError extends CliError {
  override name = 'HostNotReadyError' as const

  constructor(
    shortMessage: string,
    metaMessages: readonly string[] = ['Run `gridforge-provider doctor` for what to fix.'],
  ) {
    super(shortMessage, { metaMessages })
  }
}

/** The exit codes of the errors only `gridforge-provider` meets; the toolkit knows the rest. */
const rules: readonly ExitCodeRule[] = [
  [ConfigInvalidError, exitCodes.usage],
  [ConfigSyntaxError, exitCodes.usage],
  [ConfigNotFoundError, exitCodes.usage],
  [ConfigExistsError, exitCodes.usage],
  [NotRegisteredError, exitCodes.usage],
  [storage.KuboRpcError, exitCodes.unreachable],
  [HostNotReadyError, exitCodes.hostNotReady],
  [ContainerEngineError, exitCodes.hostNotReady],
]

/** How `gridforge-provider` classifies and prints errors (with the installed SDK's classes). */
export const errorReporting: ErrorReporting = {
  sdk: { ...sdk, ...storage, ...keystore },
  rules,
  rpcHint,
  jsonFields: [[ConfigInvalidError, 'fields']],
}
