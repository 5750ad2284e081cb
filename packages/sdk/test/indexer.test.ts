/**
 * The SDK against the real indexer: `ponder start` (the indexer package's own
 * test helper) over the shared test chain, and the list and statistics actions
 * read through it equal to the same actions reading the chain's logs, for the
 * same chain state.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createPublicClient } from 'viem'
import { hardhat } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type IndexerProcess, startIndexer } from '../../indexer/test/indexerProcess.js'
import { createIndexerClient, type IndexerFallback } from '../src/indexer/createIndexerClient.js'
import { getNetworkStats } from '../src/market/getNetworkStats.js'
import { listSources } from '../src/sources/listSources.js'
import { listTasks } from '../src/tasks/listTasks.js'
import { deployment, devnet, fundedClient, transport } from './chain.js'
import {
  cancel,
  claim,
  type FixtureClient,
  publishSource,
  registerFixtureProvider,
  submit,
  submitFixtureTasks,
} from './fixtures.js'

let indexerProcess: IndexerProcess
let workDir: string
const fallbacks: IndexerFallback[] = []
let indexer: ReturnType<typeof createIndexerClient>
const reader = createPublicClient({ chain: hardhat, transport: transport() })
let client: `0x${string}`
let provider: `0x${string}`

beforeAll(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), 'gridforge-sdk-indexer-'))
  const deploymentFile = path.join(workDir, 'deployment.json')
  await writeFile(deploymentFile, JSON.stringify(devnet().deployment))
  const [clientWallet, providerWallet, started] = await Promise.all([
    fundedClient(),
    fundedClient(),
    startIndexer({
      rpcUrl: devnet().rpcUrl,
      deploymentFile,
      database: { pgliteDir: path.join(workDir, 'pglite') },
    }),
  ])
  indexerProcess = started
  indexer = createIndexerClient({ url: started.url, onFallback: (fallback) => fallbacks.push(fallback) })
  client = clientWallet.account.address
  provider = providerWallet.account.address
  const [wallet, host] = [
    clientWallet as unknown as FixtureClient,
    providerWallet as unknown as FixtureClient,
  ]
  const sourceId = await publishSource(wallet, deployment())
  await registerFixtureProvider(host, deployment(), [sourceId])
  const { taskIds } = await submitFixtureTasks(wallet, deployment(), { sourceId, count: 4 })
  await cancel(wallet, deployment(), taskIds[0] ?? 0n)
  await claim(host, deployment(), taskIds[2] ?? 0n)
  // One completed: paid, so that the statistics compare amounts too.
  await claim(host, deployment(), taskIds[3] ?? 0n)
  await submit(host, deployment(), taskIds[3] ?? 0n)
  await indexerProcess.waitForBlock(await reader.getBlockNumber())
}, 180_000)

afterAll(async () => {
  await indexerProcess?.stop()
  if (workDir !== undefined) await rm(workDir, { recursive: true, force: true })
})

describe('the SDK through the indexer', () => {
  it('lists the same tasks as the chain’s logs, whatever the filters', async () => {
    for (const filters of [
      { client },
      { client, status: 'Open' as const },
      { client, status: ['Cancelled', 'Claimed', 'Completed'] as const, limit: 2 },
      { provider },
    ]) {
      const fromLogs = await listTasks(reader, { deployment: deployment(), ...filters })
      expect(await listTasks(reader, { deployment: deployment(), ...filters, indexer })).toEqual(fromLogs)
      expect(fromLogs.length).toBeGreaterThan(0)
    }
  })

  it('lists the same sources', async () => {
    const owned = await listSources(reader, { deployment: deployment(), owner: client, indexer })
    expect(owned).toEqual(await listSources(reader, { deployment: deployment(), owner: client }))
    expect(owned).toHaveLength(1)
  })

  it('counts the same statistics, as of the block the indexer reached', async () => {
    const indexed = await getNetworkStats(reader, { deployment: deployment(), indexer })
    const fromLogs = await getNetworkStats(reader, { deployment: deployment(), toBlock: indexed.blockNumber })
    expect(indexed).toEqual(fromLogs)
    expect(indexed.totalPaid).toBeGreaterThan(0n)
    expect(fallbacks).toEqual([])
  })
})
