/**
 * The provider agent started from code instead of `gridforge-provider start`, with the settings of
 * provider.toml: the local network of `pnpm network`, the key in GRIDFORGE_PRIVATE_KEY, the
 * network's store, Docker containers, sources 1 and 2. Register first (`gridforge-provider register`).
 * Ctrl-C (SIGINT) or SIGTERM stops taking tasks and returns once in-flight work is journaled.
 */
import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import { getDeployment } from '@gridforge/contracts'
import { detectHost, dockerRuntime, jsonLogger, startAgent } from '@gridforge/provider-kit'
import { getProvider } from '@gridforge/sdk'
import { kuboStore } from '@gridforge/sdk/storage'
import { createWalletClient, type Hex, http, nonceManager } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { hardhat } from 'viem/chains'

const rpcUrl = process.env.GRIDFORGE_RPC_URL ?? 'http://127.0.0.1:8545'
const storeUrl = process.env.GRIDFORGE_STORE ?? 'http://127.0.0.1:5050'
// The journal and the work directories: provider.toml's [agent] dataDir (run one agent per directory).
const dataDir = process.env.GRIDFORGE_PROVIDER_DATA_DIR ?? path.join(import.meta.dirname, 'data')

const client = createWalletClient({
  // The nonce manager keeps the agent's concurrent transactions from reusing a nonce.
  account: privateKeyToAccount(process.env.GRIDFORGE_PRIVATE_KEY as Hex, { nonceManager }),
  chain: hardhat,
  transport: http(rpcUrl, { retryCount: 5 }),
})
const deployment = getDeployment(hardhat.id)
const { registered } = await getProvider(client, { deployment })
if (!registered)
  throw new Error(`${client.account.address} is not registered: run gridforge-provider register`)
await mkdir(dataDir, { recursive: true })
const host = await detectHost({ dataDir })
if (!host.docker.reachable)
  throw new Error(`no Docker engine: ${host.docker.error} (see gridforge-provider doctor)`)

const logger = jsonLogger()
const runtime = dockerRuntime({ logger })
const agent = await startAgent({
  client,
  deployment,
  store: kuboStore({ url: storeUrl }),
  runtime,
  host,
  dataDir,
  policy: { sources: [1, 2] },
  pollingInterval: 1_000, // provider.toml's default [agent] pollingInterval ("1s"); rescans every 30 s
  logger,
})
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void agent.stop())
await agent.done
await runtime[Symbol.asyncDispose]()
