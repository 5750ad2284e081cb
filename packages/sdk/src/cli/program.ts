import { createProgram as createCliProgram, globalsOf, type ProgramOptions } from '@gridforge/cli-kit'
import { type Command, Option } from 'commander'
import { Context, type GlobalOptions } from './context.js'
import { exitCodeHelp } from './errors.js'

/** Builds the Context of the command being run from its (and the program's) options. */
export type ContextOf = (command: Command) => Context

/** Adds a command group to the program. */
export type CommandGroup = (program: Command, contextOf: ContextOf) => void

const environmentHelp = `Environment:
  GRIDFORGE_RPC_URL             default for --rpc
  GRIDFORGE_STORE               default for --store (else ~/.gridforge/store)
  GRIDFORGE_INDEXER_URL         default for --indexer
  GRIDFORGE_PRIVATE_KEY         the signing key (0x + 64 hex digits); never printed
  GRIDFORGE_KEYSTORE            default for --keystore
  GRIDFORGE_KEYSTORE_PASSWORD   the keystore's password (else asked for on a terminal)
  GRIDFORGE_DEBUG=1             print stack traces with errors`

/**
 * The `gridforge` program with its global options; `groups` add the commands
 * (with `program.command()`, so they inherit the output and error settings).
 */
export function createProgram(options: ProgramOptions, groups: readonly CommandGroup[]): Command {
  const { terminal } = options
  const program = createCliProgram(terminal, {
    name: 'gridforge',
    description:
      'The Gridforge job CLI: publish sources, run tasks, fetch results, verify receipts, manage funds.',
    version: options.version,
    options: [
      new Option('--rpc <url>', 'JSON-RPC endpoint of the chain')
        .env('GRIDFORGE_RPC_URL')
        .default('http://127.0.0.1:8545'),
      new Option('--chain <id>', "expected chain id; checked against the node's eth_chainId"),
      new Option(
        '--deployment <file.json>',
        "contract addresses (default: @gridforge/contracts' deployment for the chain)",
      ),
      new Option(
        '--store <dir|url>',
        'content store: a directory, or a Kubo RPC URL (http://127.0.0.1:5001)',
      ),
      new Option('--keystore <file>', 'encrypted key file (Web3 Secret Storage v3) to sign with'),
      new Option(
        '--indexer <url>',
        'Gridforge indexer that lists, statistics and quotes read (the chain when it cannot answer)',
      ).env('GRIDFORGE_INDEXER_URL'),
    ],
    environmentHelp,
    exitCodeHelp,
    examples: [
      'gridforge wallet deposit 20',
      'gridforge task submit --source 1 --input ./inputs --max-payment 5 --deadline 2h --wait',
      'gridforge task result 42 --out ./results',
      'gridforge --json receipt verify 42',
    ],
  })
  const contextOf: ContextOf = (command) => new Context(options, globalsOf<GlobalOptions>(command, terminal))
  for (const group of groups) group(program, contextOf)
  return program
}
