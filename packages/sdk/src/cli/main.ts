import { type ProgramOptions, runProgram } from '@gridforge/cli-kit'
import { commandGroups } from './commands/index.js'
import { errorReporting } from './errors.js'
import { createProgram } from './program.js'

/**
 * Runs `gridforge` with `argv` (without `node` and the script) and returns
 * the exit code; never throws and never exits the process.
 */
export function runCli(argv: readonly string[], options: ProgramOptions): Promise<number> {
  const program = createProgram(options, commandGroups)
  return runProgram(program, argv, {
    terminal: options.terminal,
    reporting: errorReporting,
    rpcUrl: () => program.opts<{ rpc?: string }>().rpc ?? 'the --rpc URL',
  })
}
