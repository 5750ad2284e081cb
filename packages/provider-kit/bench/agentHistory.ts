/**
 * Whether the provider agent's cost grows with the market's history: its idle
 * JSON-RPC traffic and its claim latency on an empty market, then again with
 * ≥ 20,000 tasks (open, cancelled and settled) in history.
 *
 *   pnpm bench:agent-history      (or `pnpm --filter @gridforge/provider-kit bench:agent-history`)
 *
 * Set-up: a fresh devnet, the local Docker engine, an agent with the Docker
 * runtime, the agent's default rescan interval and a 1 s polling interval,
 * taking tasks of one source. Only the agent's client goes through a counting
 * JSON-RPC proxy; the bench's own reads and writes go to the node directly.
 *
 * What is measured, per history (empty, then with history):
 * - startup: from the `startAgent()` call to the end of the last JSON-RPC
 *   request that was work (anything but an empty poll, see `isWork`), found
 *   once 3 s pass with empty polls only. With history three starts are timed:
 *   resuming the empty run's data directory (a journal from before the
 *   history), a first start with a new data directory (the one measured
 *   further), and a restart of that one.
 * - idle JSON-RPC calls per minute: every call (batched ones each count) the
 *   idle agent makes in a 60 s window with nothing submitted; by method, with
 *   the bytes each way.
 * - claim latency: a task the agent takes is submitted; from the submission's
 *   receipt (wall clock) to the first poll (every 25 ms, on the node, not
 *   through the proxy) that finds its TaskClaimed event. One task at a time,
 *   each waited for until it settles and the agent is quiet again; one
 *   warm-up task not counted. A task not claimed within CLAIM_TIMEOUT_MS is a
 *   failure (cancelled, counted as never claimed); after two failures in a row
 *   the rest are not submitted and count as failures too, so an agent that
 *   stopped claiming costs two timeouts, not ten.
 *
 * The history comes from other accounts in `submitTasks` batches of 100, of a
 * second source the agent is neither subscribed to nor allowed by its policy
 * (so the tasks stay open); some are cancelled, some claimed and settled by
 * other providers with the SDK (no agent).
 *
 * Writes bench/results/agent-history.json at the repository root. Target: with
 * history, claim latency and idle calls per minute each within 20% of the
 * empty figures.
 *
 * Options (environment): HISTORY_TASKS (default 20000), HISTORY_CANCELLED
 * (2000), HISTORY_SETTLED (2000), HISTORY_LANES (accounts submitting in
 * parallel, 4), CLAIMS (10), IDLE_WINDOW_MS (60000), CLAIM_TIMEOUT_MS (60000),
 * STARTUP_TIMEOUT_MS (120000), POLLING_INTERVAL (1000).
 */

import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { taskMarketAbi } from '@gridforge/contracts'
import {
  approveMarket,
  cancelTask,
  getProviderRegistryParams,
  getTask,
  isFinalStatus,
  registerProvider,
  stake,
  submitTask,
  subscribeSources,
} from '@gridforge/sdk'
import { fsStore } from '@gridforge/sdk/storage'
import {
  createPublicClient,
  createWalletClient,
  erc20Abi,
  type Hex,
  http,
  parseUnits,
  publicActions,
} from 'viem'
import { nonceManager, privateKeyToAccount } from 'viem/accounts'
import { hardhat } from 'viem/chains'
import { startDevnet } from '../../contracts/scripts/devnet.js'
import {
  type Agent,
  capabilitiesOf,
  containerLabels,
  dockerRuntime,
  type LogFields,
  type Logger,
  startAgent,
} from '../src/index.js'
import { removeContainers } from '../test/docker.js'
import { buildTestImage } from '../test/images.js'
import { type RpcTally, startCountingProxy, tally, waitForQuiet } from './countingProxy.js'
import { buildHistory, type History } from './history.js'
import { benchHost, publishBenchSource } from './setup.js'

const historyTasks = Number(process.env.HISTORY_TASKS ?? 20_000)
const historyCancelled = Number(process.env.HISTORY_CANCELLED ?? 2_000)
const historySettled = Number(process.env.HISTORY_SETTLED ?? 2_000)
const historyLanes = Number(process.env.HISTORY_LANES ?? 4)
const claimCount = Number(process.env.CLAIMS ?? 10)
const idleWindowMs = Number(process.env.IDLE_WINDOW_MS ?? 60_000)
const claimTimeoutMs = Number(process.env.CLAIM_TIMEOUT_MS ?? 60_000)
const startupTimeoutMs = Number(process.env.STARTUP_TIMEOUT_MS ?? 120_000)
const pollingInterval = Number(process.env.POLLING_INTERVAL ?? 1_000)
/** Work must have stopped this long (empty polls only) for the agent to count as idle. */
const quietMs = 3_000
/** Between claim tasks: the agent's wake after a task (a rescan) must be over before the next. */
const settleQuietMs = 1_500
const claimPollMs = 25
/** With history each figure may be at most this times the empty one. */
const allowedGrowth = 1.2

const resultsFile = resolve(
  dirname(fileURLToPath(import.meta.url)),
  '../../../bench/results/agent-history.json',
)
const now = () => performance.now()
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms))
const benchStarted = now()
const elapsed = () => `${((now() - benchStarted) / 1000).toFixed(0)} s`

// ── 1. Chain, proxy, image, store, accounts ─────────────────────────────────
console.log('starting a devnet and building the test image…')
await using devnet = await startDevnet()
const { deployment } = devnet
await using proxy = await startCountingProxy(devnet.rpcUrl)
const key = (index: number): Hex => {
  const found = devnet.privateKeys[index]
  if (found === undefined) throw new Error(`devnet: no account ${index}`)
  return found
}
const walletOf = (index: number, url = devnet.rpcUrl) =>
  createWalletClient({
    account: privateKeyToAccount(key(index), { nonceManager }),
    chain: hardhat,
    transport: http(url),
    pollingInterval: 50,
  }).extend(publicActions)
const deployer = walletOf(0)
const client = walletOf(2)
/** The benchmarked provider's client: the only one that talks through the proxy. */
const agentClient = createWalletClient({
  account: privateKeyToAccount(key(1), { nonceManager }),
  chain: hardhat,
  transport: http(proxy.url),
  pollingInterval,
})
/** The bench's own provider-side writes (registration), straight to the node. */
const providerSetup = walletOf(1)
const watcher = createPublicClient({ chain: hardhat, transport: http(devnet.rpcUrl) })

const image = await buildTestImage({ tag: 'gridforge-bench/agent-history:latest' })
const storeRoot = await mkdtemp(join(tmpdir(), 'gridforge-bench-store-'))
const store = fsStore({ root: storeRoot })
const scratch = await mkdtemp(join(tmpdir(), 'gridforge-bench-'))
const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value))

const host = benchHost()
const capabilities = capabilitiesOf(host)

const maxRuntimeSec = 600
const command = ['sh', '-c', 'wc -c "$GRIDFORGE_INPUT_DIR"/input > "$GRIDFORGE_OUTPUT_DIR"/out']
const publish = (name: string) =>
  publishBenchSource({
    client: deployer,
    deployment,
    store,
    name,
    repository: 'gridforge-bench/agent-history',
    imageDigest: image.digest,
    command,
    maxRuntimeSec,
  })
const sourceId = await publish('agent history bench')
/** The history's source: the agent is not subscribed to it and its policy does not take it. */
const historySourceId = await publish('agent history bench: history')

const sendGrid = async (to: Hex, amount: bigint) => {
  const hash = await deployer.writeContract({
    address: deployment.contracts.token,
    abi: erc20Abi,
    functionName: 'transfer',
    args: [to, amount],
  })
  await deployer.waitForTransactionReceipt({ hash })
}
const { minProviderStake } = await getProviderRegistryParams(providerSetup, { deployment })
await sendGrid(providerSetup.account.address, minProviderStake + parseUnits('100', 18))
await stake(providerSetup, { deployment, amount: minProviderStake, approve: true })
const profile = await store.put(encode(host))
await registerProvider(providerSetup, { deployment, capabilities, profile })
await subscribeSources(providerSetup, { deployment, sourceIds: [sourceId] })

// One warm-up and `claimCount` tasks per history, paying 1 GRID at most each.
const clientGrid = parseUnits(String(2 * (claimCount + 1) + 10), 18)
await sendGrid(client.account.address, clientGrid)
await approveMarket(client, { deployment, amount: clientGrid })
const input = await store.put(new TextEncoder().encode('agent history bench input\n'))

// ── 2. Agents, with a logger that counts what they warn about ───────────────
/** Warnings and errors the agents logged, by message; the first of each is printed. */
let agentLog = new Map<string, number>()
function countingLogger(bound: LogFields = {}): Logger {
  const log =
    (level: string) =>
    (message: string, fields: LogFields = {}) => {
      if (level !== 'warn' && level !== 'error') return
      const seen = agentLog.get(`${level}: ${message}`) ?? 0
      agentLog.set(`${level}: ${message}`, seen + 1)
      if (seen === 0)
        console.error(
          `  agent ${level}: ${message}`,
          JSON.stringify({ ...bound, ...fields }, (_k, v) => (typeof v === 'bigint' ? `${v}` : v)).slice(
            0,
            400,
          ),
        )
    }
  return {
    debug: log('debug'),
    info: log('info'),
    warn: log('warn'),
    error: log('error'),
    child: (fields) => countingLogger({ ...bound, ...fields }),
  }
}

interface Started {
  agent: Agent
  /** From the `startAgent()` call to idle (see the header), ms; `null`: not idle within STARTUP_TIMEOUT_MS. */
  startupMs: number | null
}
/** Starts an agent on `dataDir` and waits until it is idle. */
async function startIdleAgent(dataDir: string): Promise<Started> {
  const from = now()
  const agent = await startAgent({
    client: agentClient,
    deployment,
    store,
    runtime: dockerRuntime(),
    host,
    dataDir,
    policy: { sources: [sourceId] },
    pollingInterval,
    logger: countingLogger(),
  })
  const returned = now()
  const idleAt = await waitForQuiet(proxy, { from, quietMs, timeoutMs: startupTimeoutMs })
  return { agent, startupMs: idleAt === undefined ? null : Math.round(Math.max(idleAt, returned) - from) }
}

// ── 3. What is measured on a running agent ──────────────────────────────────
interface IdleFigures {
  window_ms: number
  calls: number
  calls_per_min: number
  by_method: Record<string, number>
  request_bytes_per_min: number
  response_bytes_per_min: number
}
async function measureIdle(): Promise<IdleFigures> {
  const from = now()
  await sleep(idleWindowMs)
  const to = now()
  const counted: RpcTally = tally(proxy.exchanges, from, to)
  const perMin = (value: number) => Math.round((value * 60_000) / (to - from))
  return {
    window_ms: Math.round(to - from),
    calls: counted.calls,
    calls_per_min: perMin(counted.calls),
    by_method: counted.byMethod,
    request_bytes_per_min: perMin(counted.requestBytes),
    response_bytes_per_min: perMin(counted.responseBytes),
  }
}

interface ClaimFigures {
  /** submit receipt → TaskClaimed seen, ms, in order; `null`: not claimed within CLAIM_TIMEOUT_MS (or not tried). */
  samples_ms: (number | null)[]
  /** Whether the warm-up task (not counted) was claimed. */
  warm_up_claimed: boolean
  claimed: number
  timed_out: number
  /** Not submitted after two timeouts in a row. */
  not_tried: number
  /** Failures count as slower than any claim; `null` when the median or p90 is a failure. */
  median_ms: number | null
  p90_ms: number | null
  min_ms: number | null
  max_ms: number | null
}
/** Polls the node (not the proxy) for the task's TaskClaimed; when the poll that found it was sent. */
async function claimSeen(taskId: bigint, fromBlock: bigint): Promise<number | undefined> {
  const giveUpAt = now() + claimTimeoutMs
  while (now() < giveUpAt) {
    const sent = now()
    const logs = await watcher.getContractEvents({
      address: deployment.contracts.market,
      abi: taskMarketAbi,
      eventName: 'TaskClaimed',
      args: { taskId },
      fromBlock,
    })
    if (logs.length > 0) return sent
    await sleep(claimPollMs)
  }
  return undefined
}
async function settled(taskId: bigint): Promise<boolean> {
  const giveUpAt = now() + 60_000
  while (now() < giveUpAt) {
    if (isFinalStatus((await getTask(watcher, { deployment, taskId })).status)) return true
    await sleep(100)
  }
  return false
}
async function measureClaims(): Promise<ClaimFigures> {
  const samples: (number | null)[] = []
  let timedOut = 0
  let notTried = 0
  let failuresInARow = 0
  let warmUpClaimed = false
  for (let index = -1; index < claimCount; index++) {
    if (failuresInARow >= 2) {
      notTried++
      samples.push(null)
      continue
    }
    // Waiting for the agent to be quiet locks each submission to the same point of its polling cycle;
    // spreading the submissions evenly over one interval measures the whole cycle, not one phase of it.
    await sleep(Math.round(((index + 1.5) / (claimCount + 1)) * pollingInterval))
    const { taskId, blockNumber } = await submitTask(client, {
      deployment,
      sourceId,
      input,
      maxPayment: '1',
      deadline: '2h',
    })
    const mined = now()
    const claimedAt = await claimSeen(taskId, blockNumber)
    if (claimedAt === undefined) {
      failuresInARow++
      if (index >= 0) {
        timedOut++
        samples.push(null)
      }
      console.log(`  task ${taskId}: not claimed within ${claimTimeoutMs / 1000} s`)
      // Out of the way of the next one (a late claim would hold the agent's only slot).
      await cancelTask(client, { deployment, taskId }).catch(() => {})
      continue
    }
    failuresInARow = 0
    if (index >= 0) samples.push(Math.round(claimedAt - mined))
    else warmUpClaimed = true
    if (!(await settled(taskId))) console.error(`  task ${taskId} did not settle within 60 s`)
    await waitForQuiet(proxy, { from: now(), quietMs: settleQuietMs, timeoutMs: 30_000 })
  }
  const sorted = samples.map((sample) => sample ?? Number.POSITIVE_INFINITY).sort((a, b) => a - b)
  const finite = (value: number) => (Number.isFinite(value) ? Math.round(value) : null)
  const at = (index: number) => sorted[Math.min(Math.max(index, 0), sorted.length - 1)] ?? Number.NaN
  const middle = sorted.length / 2
  const claimed = samples.filter((sample): sample is number => sample !== null)
  return {
    samples_ms: samples,
    warm_up_claimed: warmUpClaimed,
    claimed: claimed.length,
    timed_out: timedOut,
    not_tried: notTried,
    median_ms: finite(sorted.length % 2 === 1 ? at(Math.floor(middle)) : (at(middle - 1) + at(middle)) / 2),
    // Nearest rank, as bench/provider.ts.
    p90_ms: finite(at(Math.ceil(0.9 * sorted.length) - 1)),
    min_ms: claimed.length === 0 ? null : Math.min(...claimed),
    max_ms: claimed.length === 0 ? null : Math.max(...claimed),
  }
}

interface RunFigures {
  startup_ms: number | null
  idle: IdleFigures
  claims: ClaimFigures
  agent_warnings: Record<string, number>
}
/** Starts an agent on `dataDir`, measures it idle and claiming, stops it. */
async function measureAgent(label: string, dataDir: string): Promise<RunFigures> {
  agentLog = new Map()
  console.log(`[${elapsed()}] ${label}: starting an agent…`)
  const { agent, startupMs } = await startIdleAgent(dataDir)
  try {
    console.log(`[${elapsed()}] ${label}: idle after ${startupMs ?? `> ${startupTimeoutMs}`} ms; counting…`)
    const idle = await measureIdle()
    console.log(`[${elapsed()}] ${label}: ${idle.calls_per_min} calls/min idle; timing claims…`)
    const claims = await measureClaims()
    return { startup_ms: startupMs, idle, claims, agent_warnings: Object.fromEntries(agentLog) }
  } finally {
    await agent.stop()
  }
}
/** Starts an agent on `dataDir` only to time its start-up, then stops it. */
async function timeStartup(label: string, dataDir: string): Promise<number | null> {
  const { agent, startupMs } = await startIdleAgent(dataDir)
  await agent.stop()
  console.log(`[${elapsed()}] ${label}: idle after ${startupMs ?? `> ${startupTimeoutMs}`} ms`)
  return startupMs
}

// ── 4. Empty history, then with history ─────────────────────────────────────
const owner = `${devnet.chainId}:${deployment.contracts.market}:${agentClient.account.address}`.toLowerCase()
let empty: RunFigures
let withHistory: RunFigures
let history: History
let startups: { resumed_from_before_history: number | null; fresh: number | null; restarted: number | null }
let marketTasks: bigint
try {
  const firstDir = join(scratch, 'agent-empty')
  empty = await measureAgent('empty history', firstDir)

  console.log(
    `[${elapsed()}] building a history of ${historyTasks} tasks (${historyCancelled} cancelled, ${historySettled} settled) on ${historyLanes} lanes…`,
  )
  const output = await store.put(new TextEncoder().encode('history output\n'))
  const receipt = await store.put(encode({ bench: 'agent history', note: 'not a signed receipt' }))
  history = await buildHistory({
    rpcUrl: devnet.rpcUrl,
    deployment,
    funder: deployer,
    clientKeys: Array.from({ length: historyLanes }, (_, lane) => key(3 + lane)),
    providerKeys: Array.from({ length: historyLanes }, (_, lane) => key(3 + historyLanes + lane)),
    sourceId: historySourceId,
    input,
    result: output,
    receipt,
    capabilities,
    profile,
    tasks: historyTasks,
    cancelled: historyCancelled,
    settled: historySettled,
    onProgress: (line) => console.log(`[${elapsed()}] ${line}`),
  })
  console.log(
    `[${elapsed()}] history built in ${(history.ms.total / 1000).toFixed(1)} s (set-up ${history.ms.setup} ms, submit ${history.ms.submit} ms, cancel and settle ${history.ms.cancelAndSettle} ms)`,
  )
  marketTasks = await watcher.readContract({
    address: deployment.contracts.market,
    abi: taskMarketAbi,
    functionName: 'taskCount',
  })

  agentLog = new Map()
  const resumed = await timeStartup('with history, resuming the empty run’s data directory', firstDir)
  const freshDir = join(scratch, 'agent-history')
  withHistory = await measureAgent('with history, first start', freshDir)
  const restarted = await timeStartup('with history, restarting it', freshDir)
  startups = { resumed_from_before_history: resumed, fresh: withHistory.startup_ms, restarted }
} finally {
  const left = await removeContainers(`${containerLabels.owner}=${owner}`)
  if (left > 0) console.error(`removed ${left} task container(s) the agent left`)
  await rm(scratch, { recursive: true, force: true })
  await rm(storeRoot, { recursive: true, force: true })
}

// ── 5. Figures ──────────────────────────────────────────────────────────────
const within = (value: number | null, base: number | null) =>
  value !== null && base !== null ? value <= base * allowedGrowth : false
const round = (value: number) => Math.round(value * 10) / 10
const limit = (base: number | null) => (base === null ? null : round(base * allowedGrowth))
const targets = {
  claim_latency_ms_history: {
    max: limit(empty.claims.median_ms),
    met: within(withHistory.claims.median_ms, empty.claims.median_ms),
  },
  idle_rpc_per_min_history: {
    max: limit(empty.idle.calls_per_min),
    met: within(withHistory.idle.calls_per_min, empty.idle.calls_per_min),
  },
  // Not one of the four figures, but where a scan of the whole history shows first: a call that returns
  // every TaskSubmitted log counts once however large its answer.
  idle_response_bytes_per_min_history: {
    max: limit(empty.idle.response_bytes_per_min),
    met: within(withHistory.idle.response_bytes_per_min, empty.idle.response_bytes_per_min),
  },
}

const show = (value: number | null, unit = '') => (value === null ? 'FAILED' : `${value}${unit}`)
const claimNote = (claims: ClaimFigures) =>
  claims.claimed === claimCount
    ? ''
    : ` (${claims.timed_out} timed out after ${claimTimeoutMs / 1000} s, ${claims.not_tried} not tried after two timeouts in a row; warm-up ${claims.warm_up_claimed ? 'claimed' : 'not claimed'})`
const rows: [string, string, string][] = [
  ['claim latency, median (ms)', show(empty.claims.median_ms), show(withHistory.claims.median_ms)],
  ['claim latency, p90 (ms)', show(empty.claims.p90_ms), show(withHistory.claims.p90_ms)],
  ['idle JSON-RPC calls / min', show(empty.idle.calls_per_min), show(withHistory.idle.calls_per_min)],
  [
    'idle response kB / min',
    show(round(empty.idle.response_bytes_per_min / 1000)),
    show(round(withHistory.idle.response_bytes_per_min / 1000)),
  ],
  ['start-up to idle (ms)', show(empty.startup_ms), show(withHistory.startup_ms)],
]
console.log(`\n${Number(marketTasks)} tasks on the market with history; polling ${pollingInterval} ms`)
console.log(`${''.padEnd(30)}${'empty'.padStart(14)}${'history'.padStart(14)}`)
for (const [name, a, b] of rows) console.log(`${name.padEnd(30)}${a.padStart(14)}${b.padStart(14)}`)
console.log(`claims, empty:   ${empty.claims.claimed}/${claimCount}${claimNote(empty.claims)}`)
console.log(`claims, history: ${withHistory.claims.claimed}/${claimCount}${claimNote(withHistory.claims)}`)
console.log(
  `start-up with history: resuming a journal from before it ${show(startups.resumed_from_before_history, ' ms')}, restart ${show(startups.restarted, ' ms')}`,
)
console.log(`idle calls by method, empty:   ${JSON.stringify(empty.idle.by_method)}`)
console.log(`idle calls by method, history: ${JSON.stringify(withHistory.idle.by_method)}`)
for (const [name, target] of Object.entries(targets))
  console.log(`${name} ≤ ${target.max ?? '?'} (empty + 20%): ${target.met ? 'met' : 'MISSED'}`)

const { stdout: dockerVersion } = await promisify(execFile)('docker', [
  'version',
  '--format',
  '{{.Server.Version}}',
])
await mkdir(dirname(resultsFile), { recursive: true })
await writeFile(
  resultsFile,
  `${JSON.stringify(
    {
      history_tasks: Number(marketTasks),
      claim_latency_ms_empty: empty.claims.median_ms,
      claim_latency_ms_history: withHistory.claims.median_ms,
      idle_rpc_per_min_empty: empty.idle.calls_per_min,
      idle_rpc_per_min_history: withHistory.idle.calls_per_min,
      details: {
        targets,
        history: {
          submitted: history.submitted,
          cancelled: history.cancelled,
          settled: history.settled,
          open: history.open,
          build_ms: history.ms,
          lanes: historyLanes,
        },
        startup_ms_empty: empty.startup_ms,
        startup_ms_history: withHistory.startup_ms,
        startup_ms_history_restart: startups.restarted,
        startup_ms_history_resumed_from_before: startups.resumed_from_before_history,
        empty,
        history_run: withHistory,
        polling_interval_ms: pollingInterval,
        rescan_interval_ms: 'agent default',
        idle_window_ms: idleWindowMs,
        claim_timeout_ms: claimTimeoutMs,
        claim_poll_ms: claimPollMs,
        quiet_ms: quietMs,
        machine: {
          cpu: host.cpu.model,
          cores: host.cpu.cores,
          memory_mib: host.memoryMiB,
          node: process.version,
          docker: dockerVersion.trim(),
        },
        bench_ms: Math.round(now() - benchStarted),
        date: new Date().toISOString(),
      },
    },
    null,
    2,
  )}\n`,
)
console.log(`\nwrote ${resultsFile} (bench ran ${elapsed()})`)
