/**
 * The `gridforge-provider` bin. See ./README.md for the commands, the config
 * file and the exit codes.
 */
import { runBin } from '@gridforge/cli-kit'
import packageJson from '../../package.json' with { type: 'json' }
import { runCli } from './main.js'

await runBin(packageJson.version, (argv, options) =>
  runCli(argv, {
    ...options,
    process: {
      onSignal(signal, handler) {
        process.on(signal, handler)
        return () => process.off(signal, handler)
      },
      exit: (code) => process.exit(code),
    },
  }),
)
