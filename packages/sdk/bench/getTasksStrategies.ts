/**
 * How `getTasks`' ways of reading many tasks compare on a fresh devnet
 * (Hardhat 3, EDR): JSON-RPC requests and wall time to read 1,000 and 10,000
 * single-replica tasks (task + slots each) as of one block, with
 *
 *   (a) `getTasks` on a chain without Multicall3: its aggregator placed with a state override, four
 *       calls in flight;
 *   (b) viem's `multicall` with `deployless: true` (Multicall3 deployed inside the call);
 *   (c) viem's `multicall` against Multicall3's runtime code placed with a state override;
 *   (d) viem's `multicall` against a Multicall3 on the chain (`hardhat_setCode` at the canonical address);
 *   (d') the same with viem's default `batchSize` (1,024 bytes of calldata per call);
 *   (e) `getTasks` where the chain names Multicall3 ((d) with four calls in flight and halving).
 *
 * and the most tasks one deployless call can return (its result is the
 * constructor's return data, which EIP-170 caps at 24,576 bytes).
 *
 *   pnpm --filter @gridforge/sdk exec tsx bench/getTasksStrategies.ts
 *
 * Writes bench/results/getTasks-strategies.json (repository root). Options (environment): TASKS
 * (default 10000), RUNS (reads per figure, the median is reported; default 3).
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  type Address,
  createPublicClient,
  createWalletClient,
  erc20Abi,
  type Hex,
  http,
  parseUnits,
  publicActions,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { multicall } from 'viem/actions'
import { hardhat } from 'viem/chains'
import { startDevnet } from '../../contracts/scripts/devnet.js'
import { getSlots, getTask, TaskMarketUnknownTask } from '../src/abis/taskMarket.js'
import { getTasks } from '../src/tasks/getTasks.js'
import type { Deployment } from '../src/types/deployment.js'
import {
  countingTransport,
  type FixtureClient,
  publishSource,
  send,
  submitFixtureTasks,
} from '../test/fixtures.js'

const taskCount = Number(process.env.TASKS ?? 10_000)
const sizes = [1_000, taskCount].filter(
  (size, index, all) => size <= taskCount && all.indexOf(size) === index,
)
const runs = Number(process.env.RUNS ?? 3)
const canonical: Address = '0xcA11bde05977b3631167028862bE2a173976CA11'
const readAbi = [getTask, getSlots, TaskMarketUnknownTask] as const

await using devnet = await startDevnet()
const deployment: Deployment = devnet.deployment
const key = (index: number) => devnet.privateKeys[index] as Hex
const setup = http(devnet.rpcUrl)
const wallet = createWalletClient({
  account: privateKeyToAccount(key(1)),
  chain: hardhat,
  transport: setup,
}).extend(publicActions) as unknown as FixtureClient
const deployer = createWalletClient({
  account: privateKeyToAccount(key(0)),
  chain: hardhat,
  transport: setup,
}).extend(publicActions) as unknown as FixtureClient
await send(deployer, {
  address: deployment.contracts.token,
  abi: erc20Abi,
  functionName: 'transfer',
  args: [wallet.account.address, parseUnits(String(taskCount + 100), 18)],
})
const sourceId = await publishSource(wallet, deployment)
const ids: bigint[] = []
const setupStarted = performance.now()
while (ids.length < taskCount) {
  const { taskIds } = await submitFixtureTasks(wallet, deployment, {
    sourceId,
    count: Math.min(100, taskCount - ids.length),
  })
  ids.push(...taskIds)
}
console.log(`submitted ${ids.length} tasks (${Math.round(performance.now() - setupStarted)} ms)`)
const blockNumber = await wallet.getBlockNumber()

// Multicall3's runtime code, from the creation code viem ships (not exported: read from its file).
const constants = path.join(
  path.dirname(createRequire(import.meta.url).resolve('viem')),
  '..',
  '_esm',
  'constants',
  'contracts.js',
)
const creation = /multicall3Bytecode\s*=\s*'(0x[0-9a-f]+)'/.exec(
  await readFile(constants, 'utf8'),
)?.[1] as Hex
const { data: multicall3Runtime } = await wallet.call({ data: creation })
if (multicall3Runtime === undefined) throw new Error('no Multicall3 runtime code')

const contractsFor = (taskIds: readonly bigint[]) =>
  taskIds.flatMap((taskId) => [
    { address: deployment.contracts.market, abi: readAbi, functionName: 'getTask' as const, args: [taskId] },
    { address: deployment.contracts.market, abi: readAbi, functionName: 'getSlots' as const, args: [taskId] },
  ])

type Mode =
  | { deployless: true }
  | { multicallAddress: Address; stateOverride?: { address: Address; code: Hex }[] }

/** Reads `taskIds` with viem's multicall, `perCall` tasks per eth_call (undefined: viem's default batchSize). */
async function viaMulticall(
  chain: typeof hardhat,
  transport: ReturnType<typeof countingTransport>['transport'],
  taskIds: readonly bigint[],
  mode: Mode,
  perCall: number | undefined,
) {
  const client = createPublicClient({ chain, transport })
  const results = await multicall(client, {
    contracts: contractsFor(taskIds),
    allowFailure: true,
    blockNumber,
    // 36 bytes of calldata per call, two calls per task.
    ...(perCall === undefined ? {} : { batchSize: perCall * 72 }),
    ...mode,
  })
  const failed = results.filter((result) => result.status === 'failure')
  if (failed.length > 0) throw failed[0]?.error
  return results.length / 2
}

/** The most tasks one deployless call returns, and what the node says past it. */
async function deploylessLimit() {
  const client = createPublicClient({ chain: hardhat, transport: http(devnet.rpcUrl) })
  let best = 0
  let refusal = ''
  for (const count of [5, 10, 15, 18, 19, 20, 21, 22, 25, 30, 40]) {
    const results = await multicall(client, {
      contracts: contractsFor(ids.slice(0, count)),
      allowFailure: true,
      blockNumber,
      batchSize: 0,
      deployless: true,
    })
    const failure = results.find((result) => result.status === 'failure')
    if (failure === undefined) best = count
    else {
      refusal =
        `${count} tasks: ${String((failure.error as { shortMessage?: string }).shortMessage ?? failure.error)}`.slice(
          0,
          300,
        )
      break
    }
  }
  return { tasks: best, refusal }
}

const limit = await deploylessLimit()
console.log(`deployless: at most ${limit.tasks} tasks per call; ${limit.refusal}`)

interface Row {
  strategy: string
  tasks: number
  requests: number
  ms: number
  error?: string
}
const rows: Row[] = []
async function measure(
  strategy: string,
  tasks: number,
  read: (transport: ReturnType<typeof countingTransport>['transport']) => Promise<unknown>,
) {
  // The median of `runs` reads (the machine is shared; the first read of a kind also warms the node up).
  const times: number[] = []
  let requests = 0
  let error: string | undefined
  for (let run = 0; run < runs && error === undefined; run++) {
    const counter = countingTransport(devnet.rpcUrl)
    const started = performance.now()
    try {
      await read(counter.transport)
    } catch (cause) {
      error = String((cause as { shortMessage?: string }).shortMessage ?? cause).slice(0, 200)
    }
    times.push(performance.now() - started)
    requests = counter.count()
  }
  times.sort((a, b) => a - b)
  const ms = Math.round(times[Math.floor(times.length / 2)] ?? 0)
  const row = { strategy, tasks, requests, ms, ...(error === undefined ? {} : { error }) }
  rows.push(row)
  console.log(JSON.stringify(row))
}

const withMulticall3 = { ...hardhat, contracts: { multicall3: { address: canonical } } }
for (const size of sizes) {
  const slice = ids.slice(0, size)
  await measure(
    'a: getTasks without Multicall3 (aggregator by state override, 500 tasks per call)',
    size,
    (transport) =>
      getTasks(createPublicClient({ chain: hardhat, transport }), {
        deployment,
        taskIds: slice,
        blockNumber,
      }),
  )
  await measure(`b: multicall deployless, ${limit.tasks} tasks per call`, size, (transport) =>
    viaMulticall(hardhat, transport, slice, { deployless: true }, limit.tasks),
  )
  await measure(
    "b': multicall deployless, viem default batchSize (1,024 bytes: 14 tasks)",
    size,
    (transport) => viaMulticall(hardhat, transport, slice, { deployless: true }, undefined),
  )
  await measure('c: multicall, Multicall3 runtime by state override, 300 tasks per call', size, (transport) =>
    viaMulticall(
      hardhat,
      transport,
      slice,
      {
        multicallAddress: canonical,
        stateOverride: [{ address: canonical, code: multicall3Runtime }],
      },
      300,
    ),
  )
}
// (d) needs Multicall3 on the chain: placed after (c) so that (c) really reads through its override.
await devnet_setCode(canonical, multicall3Runtime)
for (const size of sizes) {
  const slice = ids.slice(0, size)
  await measure('d: multicall, Multicall3 on the chain, 300 tasks per call', size, (transport) =>
    viaMulticall(withMulticall3, transport, slice, { multicallAddress: canonical }, 300),
  )
  await measure(
    "d': multicall, Multicall3 on the chain, viem default batchSize (14 tasks)",
    size,
    (transport) => viaMulticall(withMulticall3, transport, slice, { multicallAddress: canonical }, undefined),
  )
  await measure(
    'e: getTasks, chain names Multicall3 (viem multicall, 300 tasks per call)',
    size,
    (transport) =>
      getTasks(createPublicClient({ chain: withMulticall3, transport }), {
        deployment,
        taskIds: slice,
        blockNumber,
      }),
  )
}

async function devnet_setCode(address: Address, code: Hex) {
  await fetch(devnet.rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'hardhat_setCode', params: [address, code] }),
  })
}

const out = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  '..',
  'bench',
  'results',
  'getTasks-strategies.json',
)
await mkdir(path.dirname(out), { recursive: true })
await writeFile(
  out,
  `${JSON.stringify({ node: 'Hardhat 3 (EDR) devnet', deployless_max_tasks_per_call: limit.tasks, deployless_refusal: limit.refusal, rows }, null, 2)}\n`,
)
console.log(`wrote ${out}`)
