/**
 * The `gridforge-provider` bin. See ./README.md for the commands, the config
 * file and the exit codes.
 */
import { Terminal } from '@gridforge/cli-kit'
import packageJson from '../../package.json' with { type: 'json' }
import { runCli } from './main.js'

const terminal = new Terminal({
  stdout: process.stdout,
  stderr: process.stderr,
  debug: process.env.GRIDFORGE_DEBUG === '1',
})
if (process.env.GRIDFORGE_PRIVATE_KEY) terminal.secret(process.env.GRIDFORGE_PRIVATE_KEY)

const code = await runCli(process.argv.slice(2), {
  terminal,
  env: process.env,
  stdin: process.stdin,
  version: packageJson.version,
  process: {
    onSignal(signal, handler) {
      process.on(signal, handler)
      return () => process.off(signal, handler)
    },
    exit: (code) => process.exit(code),
  },
})
// Watches and keep-alive sockets must not hold the process open once the command is done.
await Promise.all([
  new Promise((resolve) => process.stdout.write('', resolve)),
  new Promise((resolve) => process.stderr.write('', resolve)),
])
process.exit(code)
