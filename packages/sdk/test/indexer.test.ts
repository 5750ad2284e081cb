/**
 * The SDK against the real indexer: `ponder start` (the indexer package's own
 * test helper) over a devnet of this file's own, and the list and statistics
 * actions read through it equal to the same actions reading the chain's logs,
 * for the same chain state. Not the shared test chain: the indexer would have
 * to backfill every other test file's history first (hours, rate-limited).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createPublicClient, createWalletClient, erc20Abi, http, parseUnits, publicActions } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { hardhat } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Devnet, startDevnet } from '../../contracts/scripts/devnet.js'
import { type IndexerProcess, startIndexer } from '../../indexer/launch/indexerProcess.js'
import { createIndexerClient, type IndexerFallback } from '../src/indexer/createIndexerClient.js'
import { acceptLease } from '../src/leases/acceptLease.js'
import { approveLeaseMarket } from '../src/leases/approveLeaseMarket.js'
import { closeLease } from '../src/leases/closeLease.js'
import { listLeases } from '../src/leases/listLeases.js'
import { requestLease } from '../src/leases/requestLease.js'
import { getNetworkStats } from '../src/market/getNetworkStats.js'
import { getProviderSummary } from '../src/providers/getProviderSummary.js'
import { listSources } from '../src/sources/listSources.js'
import { listTasks } from '../src/tasks/listTasks.js'
import type { Deployment } from '../src/types/deployment.js'
import {
  cancel,
  claim,
  type FixtureClient,
  publishSource,
  registerFixtureProvider,
  submit,
  submitFixtureTasks,
} from './fixtures.js'

let chain: Devnet
let indexerProcess: IndexerProcess
let workDir: string
const fallbacks: IndexerFallback[] = []
let indexer: ReturnType<typeof createIndexerClient>
let reader: ReturnType<typeof createPublicClient>
const deployment = (): Deployment => chain.deployment

/** Hardhat account `index` of this file's devnet, with 1,000 GRID from the deployer (account 0). */
async function fundedClient(index: number) {
  const transport = http(chain.rpcUrl)
  const deployer = createWalletClient({
    account: privateKeyToAccount(chain.privateKeys[0] as `0x${string}`),
    chain: hardhat,
    transport,
  }).extend(publicActions)
  const account = privateKeyToAccount(chain.privateKeys[index] as `0x${string}`)
  const hash = await deployer.writeContract({
    address: deployment().contracts.token,
    abi: erc20Abi,
    functionName: 'transfer',
    args: [account.address, parseUnits('1000', 18)],
  })
  await deployer.waitForTransactionReceipt({ hash })
  return createWalletClient({ account, chain: hardhat, transport }).extend(publicActions)
}
let client: `0x${string}`
let provider: `0x${string}`

beforeAll(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), 'gridforge-sdk-indexer-'))
  chain = await startDevnet()
  reader = createPublicClient({ chain: hardhat, transport: http(chain.rpcUrl) })
  const deploymentFile = path.join(workDir, 'deployment.json')
  await writeFile(deploymentFile, JSON.stringify(chain.deployment))
  const clientWallet = await fundedClient(1)
  const providerWallet = await fundedClient(2)
  const [started] = await Promise.all([
    startIndexer({
      rpcUrl: chain.rpcUrl,
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
  // Leases of the source: one accepted, one cancelled, one requested.
  await approveLeaseMarket(clientWallet, { deployment: deployment(), amount: '10' })
  const lease = {
    deployment: deployment(),
    sourceId,
    maxPricePerSec: 10n ** 12n,
    duration: '1h',
    deposit: '1',
  } as const
  const accepted = await requestLease(clientWallet, lease)
  await acceptLease(providerWallet, { deployment: deployment(), leaseId: accepted.leaseId })
  const cancelled = await requestLease(clientWallet, lease)
  await closeLease(clientWallet, { deployment: deployment(), leaseId: cancelled.leaseId })
  await requestLease(clientWallet, lease)
  await indexerProcess.waitForBlock(await reader.getBlockNumber())
}, 180_000)

afterAll(async () => {
  await indexerProcess?.stop()
  await chain?.stop()
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

  it('lists the same leases as the chain’s logs, whatever the filters', async () => {
    for (const filters of [
      { renter: client },
      { provider },
      { renter: client, status: 'Requested' as const },
      { status: ['Active', 'Settled'] as const },
    ]) {
      const fromLogs = await listLeases(reader, { deployment: deployment(), ...filters })
      expect(await listLeases(reader, { deployment: deployment(), ...filters, indexer })).toEqual(fromLogs)
      expect(fromLogs.length).toBeGreaterThan(0)
    }
  })

  it('lists the same sources', async () => {
    const owned = await listSources(reader, { deployment: deployment(), owner: client, indexer })
    expect(owned).toEqual(await listSources(reader, { deployment: deployment(), owner: client }))
    expect(owned).toHaveLength(1)
  })

  it("sums the same provider's earnings, its leases included", async () => {
    const indexed = await getProviderSummary(reader, { deployment: deployment(), provider, indexer })
    const fromChain = await getProviderSummary(reader, { deployment: deployment(), provider })
    expect(indexed.readFrom).toBe('indexer')
    expect(indexed.leases).toEqual(fromChain.leases)
    expect(indexed.leases.accepted).toBe(1)
    expect(indexed.earnings).toEqual(fromChain.earnings)
    expect(indexed.record.completed).toBe(fromChain.record.completed)
  })

  it('counts the same statistics, as of the block the indexer reached', async () => {
    const indexed = await getNetworkStats(reader, { deployment: deployment(), indexer })
    const fromLogs = await getNetworkStats(reader, { deployment: deployment(), toBlock: indexed.blockNumber })
    expect(indexed).toEqual(fromLogs)
    expect(indexed.totalPaid).toBeGreaterThan(0n)
    expect(fallbacks).toEqual([])
  })
})
