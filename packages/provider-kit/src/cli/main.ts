import { runProgram } from '@gridforge/cli-kit'
import { commands } from './commands/index.js'
import { errorReporting, exitCodes } from './errors.js'
import { createProgram, type ProgramOptions, type RunState } from './program.js'

/**
 * Runs `gridforge-provider` with `argv` (without `node` and the script) and
 * returns the exit code; never throws. It exits the process itself only on a
 * second stop signal during `start`.
 */
export function runCli(argv: readonly string[], options: ProgramOptions): Promise<number> {
  const state: RunState = { exitCode: exitCodes.ok }
  const program = createProgram(options, commands, state)
  return runProgram(program, argv, {
    terminal: options.terminal,
    reporting: errorReporting,
    rpcUrl: () => state.rpcUrl ?? 'the configured RPC URL',
    exitCode: () => state.exitCode,
  })
}
