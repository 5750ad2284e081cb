import { CommanderError } from 'commander'
import { commandGroups } from './commands/index.js'
import { exitCodes, reportError } from './errors.js'
import { createProgram, type ProgramOptions } from './program.js'

/**
 * Runs `gridforge` with `argv` (without `node` and the script) and returns
 * the exit code; never throws and never exits the process.
 */
export async function runCli(argv: readonly string[], options: ProgramOptions): Promise<number> {
  const { terminal } = options
  const program = createProgram(options, commandGroups)
  try {
    await program.parseAsync([...argv], { from: 'user' })
    return exitCodes.ok
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version "fail" with exit code 0; everything else commander reports is usage.
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return exitCodes.ok
      return exitCodes.usage
    }
    const globals = program.opts<{ rpc?: string }>()
    return reportError(terminal, error, { rpcUrl: globals.rpc })
  }
}
