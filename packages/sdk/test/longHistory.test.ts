/**
 * A market with more tasks in its history than `getTasks` reads at a time
 * (10,500 against pages of 10,000), which anyone can make with about 100
 * `submitTasks` transactions of near-free tasks: `listTasks` and
 * `gridforge task list` still list every task with its status. The market is
 * made once, on a devnet of its own, so that the shared test chain keeps a
 * short history (getNetworkStats' tests read it whole, block by block).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  createPublicClient,
  createWalletClient,
  erc20Abi,
  type Hex,
  http,
  parseEventLogs,
  parseGwei,
  parseUnits,
  publicActions,
  zeroHash,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { hardhat } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Devnet, startDevnet } from '../../contracts/scripts/devnet.js'
import { submitTasks, TaskSubmitted } from '../src/abis/taskMarket.js'
import { listTasks } from '../src/tasks/listTasks.js'
import type { Deployment } from '../src/types/deployment.js'
import type { TaskStatus } from '../src/types/task.js'
import { cliBin } from './cli/bin.js'
import {
  cancel,
  claim,
  countingTransport,
  type FixtureClient,
  inputFor,
  publishSource,
  registerFixtureProvider,
  send,
} from './fixtures.js'

/** getTasks refused more than this many ids, so listTasks failed past it. */
const refusedAbove = 10_000
/** 500 tasks more; 100 per submitTasks transaction. */
const taskCount = refusedAbove + 500
const perTransaction = 100

let devnet: Devnet | undefined
let deployment: Deployment
let client: FixtureClient
let root: string
let deploymentFile: string
/** Every task id, in submission order. */
let taskIds: bigint[]
/** What each task's status should be (Open unless claimed or cancelled). */
const expected = new Map<bigint, TaskStatus>()

const cli = cliBin({
  packageRoot: path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'),
  name: 'gridforge',
  env: () => ({ PATH: process.env.PATH ?? '', HOME: root, GRIDFORGE_RPC_URL: devnet?.rpcUrl ?? '' }),
})

function wallet(privateKey: Hex): FixtureClient {
  return createWalletClient({
    account: privateKeyToAccount(privateKey),
    chain: hardhat,
    transport: http(devnet?.rpcUrl),
  }).extend(publicActions) as unknown as FixtureClient
}

/**
 * Submits {@link taskCount} one-replica tasks of 1 wei, {@link perTransaction} per `submitTasks`, as
 * anyone could: one approval, then the transactions sent back to back with their nonce, gas and fees
 * set (each runs once on the node, not three times as simulated, estimated and mined), then their receipts.
 */
async function submitMany(client: FixtureClient, sourceId: number): Promise<bigint[]> {
  const market = deployment.contracts.market
  await send(client, {
    address: deployment.contracts.token,
    abi: erc20Abi,
    functionName: 'approve',
    args: [market, BigInt(taskCount)],
  })
  const [{ timestamp }, nonce] = await Promise.all([
    client.getBlock(),
    client.getTransactionCount({ address: client.account.address, blockTag: 'pending' }),
  ])
  const task = {
    sourceId,
    inputCID: '',
    maxPayment: 1n,
    pricePerSecond: 0n,
    replicas: 1,
    deadline: Number(timestamp) + 29 * 86_400,
    requirements: {
      minGpus: 0,
      minVramMiB: 0,
      minComputeCapability: 0,
      maxRuntimeSec: 0,
      deterministic: false,
    },
    minSuccessBps: 0,
    minCompleted: 0,
    auditBps: 0,
    resultKey: zeroHash,
  }
  const hashes: Hex[] = []
  for (let batch = 0; batch < taskCount / perTransaction; batch++) {
    hashes.push(
      await client.writeContract({
        address: market,
        abi: [submitTasks],
        functionName: 'submitTasks',
        args: [
          Array.from({ length: perTransaction }, (_, index) => ({ ...task, inputCID: inputFor(index) })),
        ],
        nonce: nonce + batch,
        // About 85,000 gas a task.
        gas: 12_000_000n,
        maxFeePerGas: parseGwei('100'),
        maxPriorityFeePerGas: parseGwei('1'),
      }),
    )
  }
  const receipts = await Promise.all(hashes.map((hash) => client.waitForTransactionReceipt({ hash })))
  if (receipts.some((receipt) => receipt.status !== 'success')) throw new Error('a submitTasks reverted')
  return receipts.flatMap((receipt) =>
    parseEventLogs({ abi: [TaskSubmitted], logs: receipt.logs }).map((log) => log.args.taskId),
  )
}

beforeAll(async () => {
  const [started] = await Promise.all([startDevnet(), cli.ensureBuilt()])
  devnet = started
  deployment = started.deployment
  root = await mkdtemp(path.join(tmpdir(), 'gridforge-long-history-'))
  deploymentFile = path.join(root, 'deployment.json')
  await writeFile(deploymentFile, JSON.stringify(deployment))
  const [deployer, provider] = [wallet(started.privateKeys[0] as Hex), wallet(started.privateKeys[2] as Hex)]
  client = wallet(started.privateKeys[1] as Hex)
  for (const account of [client, provider]) {
    await send(deployer, {
      address: deployment.contracts.token,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [account.account.address, parseUnits('1000', 18)],
    })
  }
  const sourceId = await publishSource(client, deployment)
  await registerFixtureProvider(provider, deployment, [sourceId])
  taskIds = await submitMany(client, sourceId)
  for (const taskId of taskIds) expected.set(taskId, 'Open')
  // On both sides of the old limit, and the last task.
  for (const index of [0, refusedAbove - 1, refusedAbove, taskCount - 1]) {
    const taskId = taskIds[index] as bigint
    await claim(provider, deployment, taskId)
    expected.set(taskId, 'Claimed')
  }
  for (const index of [1, refusedAbove + 1]) {
    const taskId = taskIds[index] as bigint
    await cancel(client, deployment, taskId)
    expected.set(taskId, 'Cancelled')
  }
}, 300_000)

afterAll(async () => {
  await devnet?.stop()
  if (root !== undefined) await rm(root, { recursive: true, force: true })
})

describe(`a market of ${taskCount} tasks`, () => {
  it('listTasks lists every task with its status and input, in 23 requests', {
    timeout: 120_000,
  }, async () => {
    // The TaskSubmitted logs of 10,500 tasks (with their resultKey) come to about 10.2 MB, over viem's default
    // 10 MiB response cap, which getLogsPaginated meets by halving the range (src/internal/logs.test.ts); the cap
    // is raised here so that the count is listTasks' own.
    const counter = countingTransport(devnet?.rpcUrl ?? '', { maxResponseBodySize: 32 * 1024 * 1024 })
    const reader = createPublicClient({ chain: hardhat, transport: counter.transport })
    const tasks = await listTasks(reader, { deployment, client: client.account.address })
    expect(tasks.map((task) => task.taskId)).toEqual(taskIds)
    expect(tasks.map((task) => task.status)).toEqual(taskIds.map((taskId) => expected.get(taskId)))
    expect(tasks.map((task) => task.inputCID)).toEqual(
      taskIds.map((_, index) => inputFor(index % perTransaction)),
    )
    // The block, the submissions, then one call per 500 tasks.
    expect(counter.methods()).toEqual(['eth_blockNumber', 'eth_getLogs', ...Array(21).fill('eth_call')])
  })

  it('listTasks pages with limit and afterTaskId, and filters by status', { timeout: 240_000 }, async () => {
    const reader = createPublicClient({ chain: hardhat, transport: http(devnet?.rpcUrl) })
    const pages: bigint[][] = []
    let afterTaskId: bigint | undefined
    for (;;) {
      const page = await listTasks(reader, {
        deployment,
        client: client.account.address,
        limit: 4_000,
        afterTaskId,
      })
      pages.push(page.map((task) => task.taskId))
      afterTaskId = page.at(-1)?.taskId
      if (page.length < 4_000) break
    }
    expect(pages.map((page) => page.length)).toEqual([4_000, 4_000, taskCount - 8_000])
    expect(pages.flat()).toEqual(taskIds)

    const claimed = [...expected].filter(([, status]) => status === 'Claimed').map(([taskId]) => taskId)
    const found = await listTasks(reader, { deployment, status: 'Claimed' })
    expect(found.map((task) => task.taskId)).toEqual(claimed)
    expect(
      (await listTasks(reader, { deployment, status: 'Claimed', limit: 2, afterTaskId: claimed[0] })).map(
        (task) => task.taskId,
      ),
    ).toEqual(claimed.slice(1, 3))
  })

  it('gridforge task list lists them all, or a page at a time', { timeout: 240_000 }, async () => {
    const globals = ['--deployment', deploymentFile]
    const all = await cli.runCli([...globals, '--json', 'task', 'list', '--client', client.account.address], {
      timeout: 120_000,
    })
    expect(all.stderr).toBe('')
    expect(all.code).toBe(0)
    const listed = JSON.parse(all.stdout) as { taskId: string; status: TaskStatus }[]
    expect(listed.map((task) => task.taskId)).toEqual(taskIds.map(String))
    expect(listed.map((task) => task.status)).toEqual(taskIds.map((taskId) => expected.get(taskId)))

    const boundary = taskIds[refusedAbove - 1] as bigint
    const page = await cli.runCli([...globals, 'task', 'list', '--limit', '2', '--after', String(boundary)])
    expect(page.code).toBe(0)
    const rows = page.stdout.trim().split('\n').slice(1)
    expect(rows.map((row) => row.split(/\s+/).slice(0, 2))).toEqual([
      [String(taskIds[refusedAbove]), 'Claimed'],
      [String(taskIds[refusedAbove + 1]), 'Cancelled'],
    ])
    expect(page.stderr).toContain(`--after ${taskIds[refusedAbove + 1]}`)

    const last = await cli.runCli([
      ...globals,
      'task',
      'list',
      '--limit',
      '2',
      '--after',
      String(taskIds.at(-2)),
    ])
    expect(last.stdout.trim().split('\n').slice(1)).toHaveLength(1)
    expect(last.stderr).toBe('')
  })
})
