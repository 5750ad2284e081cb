import type { ProgramOptions } from './program.js'
import { Terminal } from './terminal.js'

/**
 * Runs a CLI as the process's bin: a terminal on stdout and stderr (the key in
 * GRIDFORGE_PRIVATE_KEY registered as a secret before anything is written,
 * stack traces with GRIDFORGE_DEBUG=1), then `run`, then exits with its code
 * once both streams are flushed.
 *
 * @example
 * import packageJson from '../../package.json' with { type: 'json' }
 * await runBin(packageJson.version, runCli)
 */
export async function runBin(
  version: string,
  run: (argv: readonly string[], options: ProgramOptions) => Promise<number>,
): Promise<void> {
  const terminal = new Terminal({
    stdout: process.stdout,
    stderr: process.stderr,
    debug: process.env.GRIDFORGE_DEBUG === '1',
  })
  if (process.env.GRIDFORGE_PRIVATE_KEY) terminal.secret(process.env.GRIDFORGE_PRIVATE_KEY)
  const code = await run(process.argv.slice(2), {
    terminal,
    env: process.env,
    stdin: process.stdin,
    version,
  })
  // Watches and keep-alive sockets must not hold the process open once the command is done.
  await Promise.all([
    new Promise((resolve) => process.stdout.write('', resolve)),
    new Promise((resolve) => process.stderr.write('', resolve)),
  ])
  process.exit(code)
}
