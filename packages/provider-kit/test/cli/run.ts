/**
 * The BUILT `gridforge-provider` bin (packages/provider-kit/dist/cli.js), run
 * as providers run it (the runner is the SDK's: packages/sdk/test/cli/bin.ts).
 * The bundle also holds the CLI toolkit (packages/cli-kit), so its sources
 * count when deciding whether it is stale.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { createWalletClient, http, publicActions } from 'viem'
import { hardhat } from 'viem/chains'
import { inject } from 'vitest'
import { deployment } from '../../../sdk/test/chain.js'
import { cliBin, newAccount } from '../../../sdk/test/cli/bin.js'
import { type FixtureClient, publishTestSource, registerFixtureProvider } from '../../../sdk/test/fixtures.js'

export {
  bareKey,
  type CliOptions,
  type CliResult,
  type CliRun,
  newAccount,
} from '../../../sdk/test/cli/bin.js'

export const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

export const { binPath, ensureBuilt, startCli, runCli } = cliBin({
  packageRoot,
  name: 'gridforge-provider',
  sources: [path.join(packageRoot, 'src'), path.join(packageRoot, '../cli-kit/src')],
  env: () => ({ PATH: process.env.PATH ?? '', HOME: tmpdir() }),
})

/**
 * A workspace for one test: a temp directory with the devnet's deployment as
 * a file, a store and a data directory, and `write(toml)` for its config.
 */
export async function workspace() {
  const root = await mkdtemp(path.join(tmpdir(), 'gridforge-provider-cli-'))
  const deploymentFile = path.join(root, 'deployment.json')
  await writeFile(deploymentFile, JSON.stringify(deployment()))
  const config = path.join(root, 'provider.toml')
  const store = path.join(root, 'store')
  const dataDir = path.join(root, 'data')
  return {
    root,
    config,
    store,
    dataDir,
    deploymentFile,
    /** Writes `provider.toml` (or `file`) with `text`. */
    write: (text: string, file = config) => writeFile(file, text),
    cleanup: () => rm(root, { recursive: true, force: true }),
  }
}

/** A config for the devnet: its RPC and deployment, a store and data directory in the workspace. */
export function devnetConfig(
  space: { deploymentFile: string; store: string; dataDir: string },
  rpcUrl: string,
  extra = '',
): string {
  return `[chain]
rpc = "${rpcUrl}"
chainId = 31337
deployment = "${space.deploymentFile}"

[store]
root = "${space.store}"

[agent]
dataDir = "${space.dataDir}"
pollingInterval = "200ms"

${extra}`
}

/** A fresh account with 1000 GRID, registered as a provider and subscribed to a new test source on the devnet. */
export async function registeredProvider() {
  const provider = await newAccount({ grid: '1000' })
  const client = createWalletClient({
    account: provider.account,
    chain: hardhat,
    transport: http(inject('devnet').rpcUrl),
  }).extend(publicActions)
  await registerFixtureProvider(client as unknown as FixtureClient, deployment(), [await publishTestSource()])
  return { ...provider, client }
}
