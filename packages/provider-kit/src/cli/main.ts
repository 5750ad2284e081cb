import { CommanderError } from 'commander'
import { commands } from './commands/index.js'
import { exitCodes, reportError } from './errors.js'
import { createProgram, type ProgramOptions, type RunState } from './program.js'

/**
 * Runs `gridforge-provider` with `argv` (without `node` and the script) and
 * returns the exit code; never throws. It exits the process itself only on a
 * second stop signal during `start`.
 */
export async function runCli(argv: readonly string[], options: ProgramOptions): Promise<number> {
  const { terminal } = options
  const state: RunState = { exitCode: exitCodes.ok }
  const program = createProgram(options, commands, state)
  try {
    await program.parseAsync([...argv], { from: 'user' })
    return state.exitCode
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version "fail" with exit code 0; everything else commander reports is usage.
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return exitCodes.ok
      return exitCodes.usage
    }
    return reportError(terminal, error, { rpcUrl: state.rpcUrl })
  }
}
