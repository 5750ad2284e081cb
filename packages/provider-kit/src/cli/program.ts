import {
  type ProgramOptions as CliProgramOptions,
  createProgram as createCliProgram,
  globalsOf,
} from '@gridforge/cli-kit'
import { type Command, Option } from 'commander'
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

/** What the program is built with: where to write, the environment, stdin, the process's signals. */
export interface ProgramOptions extends CliProgramOptions {
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

const environmentHelp = `Environment:
  GRIDFORGE_PROVIDER_CONFIG     default for --config (else ~/.gridforge/provider.toml)
  GRIDFORGE_PRIVATE_KEY         the provider's signing key (0x + 64 hex digits); never printed
  GRIDFORGE_KEYSTORE_PASSWORD   the password of [account] keystore (else asked for on a terminal)
  DOCKER_HOST                   the Docker engine, when [runtime] sets neither socket nor host
  GRIDFORGE_DEBUG=1             print stack traces with errors`

/** The `gridforge-provider` program with its global options; `commands` add the commands. */
export function createProgram(
  options: ProgramOptions,
  commands: readonly CommandSetup[],
  state: RunState = { exitCode: 0 },
): Command {
  const { terminal } = options
  const program = createCliProgram(terminal, {
    name: 'gridforge-provider',
    description: 'Run a Gridforge provider on this host: check it, configure it, register it, run the agent.',
    version: options.version,
    options: [
      new Option('--config <file>', 'the config file (TOML; `init` writes one)')
        .env('GRIDFORGE_PROVIDER_CONFIG')
        .default(undefined, '~/.gridforge/provider.toml'),
    ],
    environmentHelp,
    exitCodeHelp,
    examples: [
      'gridforge-provider doctor',
      'gridforge-provider init --rpc https://rpc.example --chain-id 8453',
      'GRIDFORGE_PRIVATE_KEY=0x… gridforge-provider register',
      'GRIDFORGE_PRIVATE_KEY=0x… gridforge-provider start',
      'gridforge-provider status --json',
    ],
  })
  const contextOf: ContextOf = (command) =>
    new Context(options, globalsOf<GlobalOptions>(command, terminal), state)
  for (const setup of commands) setup(program, contextOf, options)
  return program
}
