import type { Account, Chain, Client, Transport } from 'viem'
import type { KeySource } from './account.js'
import type { ProgramOptions } from './program.js'
import type { PromptInput } from './prompt.js'
import type { Terminal } from './terminal.js'

/** A client on the node with its chain set (reads). */
export type CliClient = Client<Transport, Chain, Account | undefined>
/** A client on the node that signs with the configured key (writes). */
export type CliWalletClient = Client<Transport, Chain, Account>

/**
 * What every command's context starts from: the terminal, the parsed global
 * options, the environment and stdin (for password prompts). Each CLI extends
 * it with what its commands resolve lazily (the node, the deployment, the key).
 *
 * @example
 * class Context extends CommandContext<{ rpc: string }> {
 *   get rpcUrl() {
 *     return this.options.rpc
 *   }
 * }
 * const context = new Context(programOptions, globalsOf(command, terminal))
 */
export class CommandContext<globals> implements KeySource {
  readonly terminal: Terminal
  readonly options: globals
  readonly env: Readonly<Record<string, string | undefined>>
  readonly stdin: PromptInput

  constructor({ terminal, env, stdin }: ProgramOptions, options: globals) {
    this.terminal = terminal
    this.options = options
    this.env = env
    this.stdin = stdin
  }
}
