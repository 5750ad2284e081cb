import { Command, Option } from 'commander'
import type { PromptInput } from '../../../sdk/src/cli/prompt.js'
import type { Terminal } from '../../../sdk/src/cli/terminal.js'
import { Context, type GlobalOptions } from './context.js'
import { exitCodeHelp } from './errors.js'

/** The signals `start` stops on. */
export type StopSignal = 'SIGINT' | 'SIGTERM'

/** The parts of the process the CLI touches besides its streams, injectable for tests. */
export interface ProcessControl {
  /** Calls `handler` on each `signal`; returns a function that removes it. */
  onSignal(signal: StopSignal, handler: () => void): () => void
  /** Ends the process at once (a second signal during a graceful stop). */
  exit(code: number): void
}

/** What the program is built with: where to write, the environment, stdin for password prompts. */
export interface ProgramOptions {
  terminal: Terminal
  env: Readonly<Record<string, string | undefined>>
  stdin: PromptInput
  version: string
  process: ProcessControl
}

/** What a run leaves for `runCli`: the exit code a command chose without failing (doctor's failed check). */
export interface RunState {
  exitCode: number
  /** The RPC URL of the config, once read: named when the node cannot be reached. */
  rpcUrl?: string | undefined
}

/** Builds the Context of the command being run from its (and the program's) options. */
export type ContextOf = (command: Command) => Context

/** Adds a command to the program. */
export type CommandSetup = (program: Command, contextOf: ContextOf, options: ProgramOptions) => void

/** `Example:` lines for a command's help. */
export function examples(...lines: string[]): string {
  return `\nExample${lines.length > 1 ? 's' : ''}:\n${lines.map((line) => `  $ ${line}`).join('\n')}\n`
}

const environmentHelp = `Environment:
  GRIDFORGE_PROVIDER_CONFIG     default for --config (else ~/.gridforge/provider.toml)
  GRIDFORGE_PRIVATE_KEY         the provider's signing key (0x + 64 hex digits); never printed
  GRIDFORGE_KEYSTORE_PASSWORD   the password of [account] keystore (else asked for on a terminal)
  DOCKER_HOST                   the Docker engine, when [runtime] sets neither socket nor host
  GRIDFORGE_DEBUG=1             print stack traces with errors`

/**
 * The `gridforge-provider` program with its global options; `commands` add
 * the commands. Commander's own errors (unknown option, missing argument) are
 * thrown, not exited on, so the caller maps them to exit code 2.
 */
export function createProgram(
  options: ProgramOptions,
  commands: readonly CommandSetup[],
  state: RunState = { exitCode: 0 },
): Command {
  const { terminal } = options
  const program = new Command('gridforge-provider')
    .description('Run a Gridforge provider on this host: check it, configure it, register it, run the agent.')
    .version(options.version, '-V, --version')
    .addOption(
      new Option('--config <file>', 'the config file (TOML; `init` writes one)')
        .env('GRIDFORGE_PROVIDER_CONFIG')
        .default(undefined, '~/.gridforge/provider.toml'),
    )
    .option('--json', 'print the result as one JSON document on stdout (amounts in base units, as strings)')
    .showHelpAfterError('(run with --help for usage)')
    .configureHelp({ showGlobalOptions: true })
    .exitOverride()
    .configureOutput({
      writeOut: (text) => terminal.stdout.write(terminal.redact(text)),
      writeErr: (text) => terminal.stderr.write(terminal.redact(text)),
      outputError: (text, write) => write(text),
    })
    .addHelpText(
      'after',
      `\n${environmentHelp}\n\n${exitCodeHelp}\n${examples(
        'gridforge-provider doctor',
        'gridforge-provider init --rpc https://rpc.example --chain-id 8453',
        'GRIDFORGE_PRIVATE_KEY=0x… gridforge-provider register',
        'GRIDFORGE_PRIVATE_KEY=0x… gridforge-provider start',
        'gridforge-provider status --json',
      )}`,
    )

  const contextOf: ContextOf = (command) => {
    const globals = command.optsWithGlobals<GlobalOptions>()
    terminal.json = globals.json === true
    return new Context({ terminal, options: globals, env: options.env, stdin: options.stdin, state })
  }
  for (const setup of commands) setup(program, contextOf, options)
  return program
}
