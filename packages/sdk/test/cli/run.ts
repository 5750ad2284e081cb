/** The BUILT `gridforge` bin (packages/sdk/dist/cli.js), run as users run it (see bin.ts). */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { deployment, devnet } from '../chain.js'
import { cliBin } from './bin.js'

export { bareKey, type CliOptions, type CliResult, type CliRun, newAccount } from './bin.js'

export const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

export const { binPath, ensureBuilt, startCli, runCli } = cliBin({
  packageRoot,
  name: 'gridforge',
  // The bundle also holds the CLI toolkit, so its sources count when deciding whether it is stale.
  sources: [path.join(packageRoot, 'src'), path.join(packageRoot, '../cli-kit/src')],
  env: () => ({
    PATH: process.env.PATH ?? '',
    HOME: process.env.GRIDFORGE_TEST_HOME ?? tmpdir(),
    GRIDFORGE_RPC_URL: devnet().rpcUrl,
  }),
})

/** A temporary directory, removed by the caller (or left in the OS's tmp). */
export function tempDir(prefix = 'gridforge-cli-'): Promise<string> {
  return mkdtemp(path.join(tmpdir(), prefix))
}

/** A workspace for one test: a store directory and the devnet's deployment as a file. */
export async function workspace() {
  const root = await tempDir()
  const store = path.join(root, 'store')
  const deploymentFile = path.join(root, 'deployment.json')
  await writeFile(deploymentFile, JSON.stringify(deployment()))
  /** The global options that point the CLI at the devnet, this deployment and this store. */
  const globals = ['--deployment', deploymentFile, '--store', store]
  return { root, store, deploymentFile, globals, cleanup: () => rm(root, { recursive: true, force: true }) }
}
