import { Command, Option } from 'commander'
import { Context, type GlobalOptions } from './context.js'
import { exitCodeHelp } from './errors.js'
import type { PromptInput } from './prompt.js'
import type { Terminal } from './terminal.js'

/** What the program is built with: where to write, the environment, stdin for password prompts. */
export interface ProgramOptions {
  terminal: Terminal
  env: Readonly<Record<string, string | undefined>>
  stdin: PromptInput
  version: string
}

/** Builds the Context of the command being run from its (and the program's) options. */
export type ContextOf = (command: Command) => Context

/** Adds a command group to the program. */
export type CommandGroup = (program: Command, contextOf: ContextOf) => void

/** `Example:` lines for a command's help. */
export function examples(...lines: string[]): string {
  return `\nExample${lines.length > 1 ? 's' : ''}:\n${lines.map((line) => `  $ ${line}`).join('\n')}\n`
}

const environmentHelp = `Environment:
  GRIDFORGE_RPC_URL             default for --rpc
  GRIDFORGE_STORE               default for --store (else ~/.gridforge/store)
  GRIDFORGE_PRIVATE_KEY         the signing key (0x + 64 hex digits); never printed
  GRIDFORGE_KEYSTORE            default for --keystore
  GRIDFORGE_KEYSTORE_PASSWORD   the keystore's password (else asked for on a terminal)
  GRIDFORGE_DEBUG=1             print stack traces with errors`

/**
 * The `gridforge` program with its global options; `groups` add the commands
 * (with `program.command()`, so they inherit the output and error settings).
 * Commander's own errors (unknown option, missing argument) are thrown, not
 * exited on, so the caller maps them to exit code 2.
 */
export function createProgram(options: ProgramOptions, groups: readonly CommandGroup[]): Command {
  const { terminal } = options
  const program = new Command('gridforge')
    .description(
      'The Gridforge job CLI: publish sources, run tasks, fetch results, verify receipts, manage funds.',
    )
    .version(options.version, '-V, --version')
    .addOption(
      new Option('--rpc <url>', 'JSON-RPC endpoint of the chain')
        .env('GRIDFORGE_RPC_URL')
        .default('http://127.0.0.1:8545'),
    )
    .option('--chain <id>', "expected chain id; checked against the node's eth_chainId")
    .option(
      '--deployment <file.json>',
      "contract addresses (default: @gridforge/contracts' deployment for the chain)",
    )
    .option('--store <dir|url>', 'content store: a directory, or a Kubo RPC URL (http://127.0.0.1:5001)')
    .option('--keystore <file>', 'encrypted key file (Web3 Secret Storage v3) to sign with')
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
        'gridforge wallet deposit 20',
        'gridforge task submit --source 1 --input ./inputs --max-payment 5 --deadline 2h --wait',
        'gridforge task result 42 --out ./results',
        'gridforge --json receipt verify 42',
      )}`,
    )

  const contextOf: ContextOf = (command) => {
    const globals = command.optsWithGlobals<GlobalOptions>()
    terminal.json = globals.json === true
    return new Context({ terminal, options: globals, env: options.env, stdin: options.stdin })
  }
  for (const group of groups) group(program, contextOf)

  return program
}
