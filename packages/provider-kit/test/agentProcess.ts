/**
 * An agent in its own process, for tests that kill it: started with
 * `node --import tsx test/agentProcess.ts`, configured by the JSON in
 * GRIDFORGE_TEST_AGENT, JSON logs on stderr, stops on SIGTERM.
 */
import { fsStore } from '@gridforge/sdk/storage'
import { createWalletClient, http, nonceManager, publicActions } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { hardhat } from 'viem/chains'
import { startAgent } from '../src/agent/agent.js'
import { jsonLogger } from '../src/logger.js'
import { dockerRuntime } from '../src/runtime/dockerRuntime.js'
import { testHost } from './hostReport.js'

export interface AgentProcessConfig {
  rpcUrl: string
  privateKey: `0x${string}`
  deployment: import('@gridforge/sdk').Deployment
  storeRoot: string
  dataDir: string
  sources: number[]
}

const config = JSON.parse(process.env.GRIDFORGE_TEST_AGENT ?? '') as AgentProcessConfig
const client = createWalletClient({
  account: privateKeyToAccount(config.privateKey, { nonceManager }),
  chain: hardhat,
  transport: http(config.rpcUrl),
  pollingInterval: 200,
}).extend(publicActions)
const agent = await startAgent({
  client,
  deployment: config.deployment,
  store: fsStore({ root: config.storeRoot }),
  runtime: dockerRuntime(),
  host: testHost,
  dataDir: config.dataDir,
  policy: { sources: config.sources },
  rescanInterval: 2_000,
  logger: jsonLogger({ level: 'debug' }),
})
process.once('SIGTERM', () => void agent.stop())
await agent.done
