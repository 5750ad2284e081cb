/**
 * The `gridforge` bin. See ./README.md for the commands and exit codes.
 */
import { runBin } from '@gridforge/cli-kit'
import packageJson from '../../package.json' with { type: 'json' }
import { runCli } from './main.js'

await runBin(packageJson.version, runCli)
