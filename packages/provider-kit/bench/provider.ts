/**
 * The provider agent end to end on a fresh devnet and the local Docker engine:
 * how long a task takes from submission to settlement, and how much the
 * agent's Docker runtime adds to running the same container with a plain
 * `docker run`.
 *
 *   pnpm --filter @gridforge/provider-kit bench      (or `pnpm bench:provider` at the root)
 *
 * What is measured:
 * - submit→settled: from just before `submitTask` is sent to the first
 *   `getTask` (polled every 50 ms) that reads `Completed`. It includes the
 *   submit transaction and its receipt, the agent noticing the task (its
 *   event poll, then a scan: `listTasks` + the latest block), preparing it
 *   (source, metadata, image check, input fetched from the store), the claim
 *   transaction, the container run, storing output, logs and a signed
 *   receipt, the `submitResult` transaction (which settles a one-replica
 *   task), and up to 50 ms of polling lag. The Hardhat node automines: no
 *   block time is included.
 * - agent run(): the Docker runtime's `run()` as the agent calls it, timed by
 *   a decorator: chmod of the output directory, create, start, follow the
 *   logs, wait, inspect, measure the output. Not the removal (the agent removes
 *   the container after journaling the result; timed separately).
 * - raw docker run: `docker run --rm --network none` of the same image and
 *   command, with the same input file mounted read-only, via the docker CLI
 *   (create, attach, start, wait, remove; plus the CLI's own start-up).
 *
 * Each task is followed by one `docker run` (interleaved, so both see the
 * same host load). One warm-up task and one warm-up `docker run` are not
 * counted.
 * Writes bench/results/provider.json at the repository root.
 *
 * Options (environment): TASKS (default 20), RAW_RUNS (default 20),
 * POLLING_INTERVAL (agent and client polling, ms, default 150).
 */

import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import {
  approveMarket,
  getProviderRegistryParams,
  getTask,
  registerProvider,
  stake,
  submitTask,
  subscribeSources,
} from '@gridforge/sdk'
import { fsStore } from '@gridforge/sdk/storage'
import { createWalletClient, erc20Abi, type Hex, http, parseUnits, publicActions } from 'viem'
import { nonceManager, privateKeyToAccount } from 'viem/accounts'
import { hardhat } from 'viem/chains'
import { startDevnet } from '../../contracts/scripts/devnet.js'
import { startAgent } from '../src/agent/agent.js'
import { capabilitiesOf } from '../src/detect/capabilities.js'
import type { LogFields, Logger } from '../src/logger.js'
import { type ContainerRuntime, containerLabels, type RunOutcome } from '../src/runtime/ContainerRuntime.js'
import { dockerRuntime } from '../src/runtime/dockerRuntime.js'
import { docker } from '../test/docker.js'
import { buildTestImage } from '../test/images.js'
import { benchHost, publishBenchSource } from './setup.js'

const taskCount = Number(process.env.TASKS ?? 20)
const rawRuns = Number(process.env.RAW_RUNS ?? 20)
const pollingInterval = Number(process.env.POLLING_INTERVAL ?? 150)
const settlePollMs = 50
const targets = { ratio: 1.3, submitToSettledMs: 3_000 }

const resultsFile = resolve(dirname(fileURLToPath(import.meta.url)), '../../../bench/results/provider.json')
const dockerCli = process.env.DOCKER_CLI ?? 'docker'
/** Label on the raw `docker run` containers, so a failed run can remove them. */
const benchLabel = 'dev.gridforge.bench=provider'
const script = 'wc -c "$GRIDFORGE_INPUT_DIR"/input > "$GRIDFORGE_OUTPUT_DIR"/out'
const command = ['sh', '-c', script]
const inputBytes = randomBytes(4_096)

const run = promisify(execFile)
const now = () => performance.now()
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms))

// ── 1. Chain, image, store, accounts ────────────────────────────────────────
console.log('starting a devnet and building the test image…')
await using devnet = await startDevnet()
const { deployment } = devnet
const key = (index: number): Hex => {
  const found = devnet.privateKeys[index]
  if (found === undefined) throw new Error(`devnet: no account ${index}`)
  return found
}
const walletOf = (index: number) =>
  createWalletClient({
    account: privateKeyToAccount(key(index), { nonceManager }),
    chain: hardhat,
    transport: http(devnet.rpcUrl),
    pollingInterval,
  }).extend(publicActions)
const deployer = walletOf(0)
const provider = walletOf(1)
const client = walletOf(2)

const image = await buildTestImage({ tag: 'gridforge-bench/provider:latest' })
const storeRoot = await mkdtemp(join(tmpdir(), 'gridforge-bench-store-'))
const store = fsStore({ root: storeRoot })
const scratch = await mkdtemp(join(tmpdir(), 'gridforge-bench-'))

const host = benchHost()

const maxRuntimeSec = 600
const sourceId = await publishBenchSource({
  client: deployer,
  deployment,
  store,
  name: 'provider bench',
  repository: 'gridforge-bench/provider',
  imageDigest: image.digest,
  command,
  maxRuntimeSec,
})

const sendGrid = async (to: Hex, amount: string) => {
  const hash = await deployer.writeContract({
    address: deployment.contracts.token,
    abi: erc20Abi,
    functionName: 'transfer',
    args: [to, parseUnits(amount, 18)],
  })
  await deployer.waitForTransactionReceipt({ hash })
}
const { minProviderStake } = await getProviderRegistryParams(provider, { deployment })
await sendGrid(provider.account.address, String(Number(minProviderStake / 10n ** 18n) + 100))
await stake(provider, { deployment, amount: minProviderStake, approve: true })
const profile = await store.put(new TextEncoder().encode(JSON.stringify(host)))
await registerProvider(provider, { deployment, capabilities: capabilitiesOf(host), profile })
await subscribeSources(provider, { deployment, sourceIds: [sourceId] })

await sendGrid(client.account.address, String(taskCount + 100))
await approveMarket(client, { deployment, amount: parseUnits(String(taskCount + 100), 18) })
const input = await store.put(inputBytes)

// ── 2. The agent, its runtime timed ─────────────────────────────────────────
interface RunTiming {
  start: number
  end: number
  outcome: RunOutcome
  /** How long the agent's `remove()` of its container took, once it has. */
  remove?: number
}
const runs = new Map<bigint, RunTiming>()
const taskOfContainer = new Map<string, bigint>()
/** Wraps a runtime: the wall time of every `run()` and `remove()`, keyed by task. */
function timedRuntime(inner: ContainerRuntime): ContainerRuntime {
  return {
    kind: inner.kind,
    isolated: inner.isolated,
    prepareImage: (parameters) => inner.prepareImage(parameters),
    async run(spec) {
      const start = now()
      const result = await inner.run(spec)
      runs.set(spec.taskId, { start, end: now(), outcome: result.outcome })
      taskOfContainer.set(result.containerId, spec.taskId)
      return result
    },
    listTaskContainers: (owner) => inner.listTaskContainers(owner),
    attach: (containerId, spec) => inner.attach(containerId, spec),
    async remove(containerId) {
      const start = now()
      await inner.remove(containerId)
      const timing = runs.get(taskOfContainer.get(containerId) ?? -1n)
      if (timing !== undefined) timing.remove = now() - start
    },
    [Symbol.asyncDispose]: () => inner[Symbol.asyncDispose](),
  }
}

/** When the agent logged each message, per task; warnings and errors go to stderr. */
const events = new Map<bigint, Map<string, number>>()
function timingLogger(bound: LogFields = {}): Logger {
  const log =
    (level: string) =>
    (message: string, fields: LogFields = {}) => {
      const all = { ...bound, ...fields }
      if (typeof all.taskId === 'bigint') {
        const byMessage = events.get(all.taskId) ?? new Map<string, number>()
        if (!byMessage.has(message)) byMessage.set(message, now())
        events.set(all.taskId, byMessage)
      }
      if (level === 'warn' || level === 'error')
        console.error(
          `agent ${level}: ${message}`,
          JSON.stringify(all, (_k, v) => (typeof v === 'bigint' ? `${v}` : v)),
        )
    }
  return {
    debug: log('debug'),
    info: log('info'),
    warn: log('warn'),
    error: log('error'),
    child: (fields) => timingLogger({ ...bound, ...fields }),
  }
}

const owner = `${devnet.chainId}:${deployment.contracts.market}:${provider.account.address}`.toLowerCase()
const removeContainers = async (label: string) => {
  const found = await docker().listContainers({ all: true, filters: { label: [label] } })
  await Promise.all(
    found.map((container) =>
      docker()
        .getContainer(container.Id)
        .remove({ force: true, v: true })
        .catch(() => {}),
    ),
  )
  return found.length
}

interface TaskTiming {
  taskId: bigint
  submitted: number
  mined: number
  settled: number
}
const tasks: TaskTiming[] = []
const raw: number[] = []

// ── 3. The same container with plain docker run, for comparison ────────────
const inputDir = join(scratch, 'raw-input')
await mkdir(inputDir)
await writeFile(join(inputDir, 'input'), inputBytes)
let rawDone = 0
/** One `docker run --rm` of the task's command on the same input; its wall time, ms. */
async function rawDockerRun(): Promise<number> {
  const outputDir = join(scratch, `raw-output-${rawDone++}`)
  await mkdir(outputDir, { mode: 0o777 })
  const start = now()
  await run(dockerCli, [
    'run',
    '--rm',
    '--network',
    'none',
    '--label',
    benchLabel,
    '--mount',
    `type=bind,source=${inputDir},target=/input,readonly`,
    '--mount',
    `type=bind,source=${outputDir},target=/output`,
    '--env',
    'GRIDFORGE_INPUT_DIR=/input',
    '--env',
    'GRIDFORGE_OUTPUT_DIR=/output',
    image.id,
    ...command,
  ])
  const elapsed = now() - start
  const out = (await readFile(join(outputDir, 'out'), 'utf8')).trim()
  if (out !== `${inputBytes.byteLength} /input/input`)
    throw new Error(`docker run wrote ${JSON.stringify(out)}`)
  return elapsed
}

try {
  await using _agent = await startAgent({
    client: provider,
    deployment,
    store,
    runtime: timedRuntime(dockerRuntime()),
    host,
    dataDir: join(scratch, 'agent'),
    policy: { sources: [sourceId] },
    pollingInterval,
    rescanInterval: 600_000,
    logger: timingLogger(),
  })

  // ── 4. Tasks, one after another; a raw docker run after each ──────────────
  // Interleaved rather than in two blocks: on a shared host the engine's speed
  // drifts by tens of percent over a minute, and both figures should see the
  // same conditions (the devnet up, the agent idle but polling).
  for (let index = -1; index < Math.max(taskCount, rawRuns); index++) {
    if (index < taskCount) {
      const submitted = now()
      const { taskId } = await submitTask(client, {
        deployment,
        sourceId,
        input,
        maxPayment: '1',
        replicas: 1,
        deadline: '2h',
      })
      const mined = now()
      const end = Date.now() + 60_000
      for (;;) {
        const task = await getTask(client, { deployment, taskId })
        if (task.status === 'Completed') break
        if (task.status !== 'Open' && task.status !== 'Claimed')
          throw new Error(`task ${taskId} ended ${task.status}, not Completed`)
        if (Date.now() > end) throw new Error(`task ${taskId} is still ${task.status} after 60 s`)
        await sleep(settlePollMs)
      }
      const settled = now()
      // The first task warms up the agent, the engine and the store: not counted.
      if (index >= 0) tasks.push({ taskId, submitted, mined, settled })
    }
    if (index < rawRuns) {
      const elapsed = await rawDockerRun()
      if (index >= 0) raw.push(elapsed)
    }
    if (index < 0) console.log('warm-up done')
    else if (process.stdout.isTTY) process.stdout.write(`${index + 1}/${Math.max(taskCount, rawRuns)}\r`)
  }
  if (process.stdout.isTTY) process.stdout.write('\n')
  for (const { taskId } of tasks) {
    const timing = runs.get(taskId)
    if (timing?.outcome !== 'exited') throw new Error(`task ${taskId}: run() ended ${timing?.outcome}`)
  }
} finally {
  // The agent is stopped on leaving the block above; what it and docker run left is removed here.
  const left = await removeContainers(`${containerLabels.owner}=${owner}`)
  if (left > 0) console.error(`removed ${left} task container(s) the agent left`)
  await removeContainers(benchLabel)
  await rm(scratch, { recursive: true, force: true })
  await rm(storeRoot, { recursive: true, force: true })
}

// ── 5. Figures ──────────────────────────────────────────────────────────────
interface Stats {
  median: number
  p90: number
  min: number
  max: number
}
function stats(values: readonly number[]): Stats {
  const sorted = [...values].sort((a, b) => a - b)
  const at = (index: number) => sorted[Math.min(Math.max(index, 0), sorted.length - 1)] ?? Number.NaN
  const middle = sorted.length / 2
  const median = sorted.length % 2 === 1 ? at(Math.floor(middle)) : (at(middle - 1) + at(middle)) / 2
  return {
    median: round(median),
    p90: round(at(Math.ceil(0.9 * sorted.length) - 1)),
    min: round(at(0)),
    max: round(at(sorted.length - 1)),
  }
}
function round(value: number, digits = 1): number {
  const scale = 10 ** digits
  return Math.round(value * scale) / scale
}

const runOf = (taskId: bigint): RunTiming => {
  const found = runs.get(taskId)
  if (found === undefined) throw new Error(`task ${taskId} has no run() timing`)
  return found
}
const claimedAt = (taskId: bigint): number => {
  const found = events.get(taskId)?.get('claimed')
  if (found === undefined) throw new Error(`the agent did not log "claimed" for task ${taskId}`)
  return found
}

const submitToSettled = stats(tasks.map((task) => task.settled - task.submitted))
const agentRun = stats(tasks.map((task) => runOf(task.taskId).end - runOf(task.taskId).start))
const rawRun = stats(raw)
const ratio = round(agentRun.median / rawRun.median, 3)
// docker run --rm also removes its container; the agent's run() does not (it removes it after journaling).
const agentRemove = stats(tasks.map((task) => runOf(task.taskId).remove ?? Number.NaN))
const agentRunAndRemove = stats(
  tasks.map(
    (task) => runOf(task.taskId).end - runOf(task.taskId).start + (runOf(task.taskId).remove ?? Number.NaN),
  ),
)
const ratioWithRemove = round(agentRunAndRemove.median / rawRun.median, 3)

/** Where submit→settled goes, phase by phase (ms). */
const phases = {
  submit_tx: stats(tasks.map((t) => t.mined - t.submitted)),
  pickup_prepare_claim: stats(tasks.map((t) => claimedAt(t.taskId) - t.mined)),
  claimed_to_run: stats(tasks.map((t) => runOf(t.taskId).start - claimedAt(t.taskId))),
  run: agentRun,
  // Storing output, logs and the receipt, removing the container, the submitResult transaction, and up to
  // one settle poll. (The agent logs 'result submitted' after the receipt, so the poll may see Completed first.)
  after_run_to_settled: stats(tasks.map((t) => t.settled - runOf(t.taskId).end)),
}

const row = (name: string, s: Stats) =>
  `${name.padEnd(28)}${[s.median, s.p90, s.min, s.max].map((v) => v.toFixed(1).padStart(10)).join('')}`
console.log(`\n${taskCount} tasks (after 1 warm-up), ${rawRuns} raw runs; polling ${pollingInterval} ms`)
console.log(`${'ms'.padEnd(28)}${['median', 'p90', 'min', 'max'].map((h) => h.padStart(10)).join('')}`)
console.log(row('submit→settled', submitToSettled))
console.log(row('agent execution (run())', agentRun))
console.log(row('raw docker run', rawRun))
console.log(row('agent remove()', agentRemove))
console.log(row('agent run() + remove()', agentRunAndRemove))
console.log('\nsubmit→settled by phase:')
for (const [name, value] of Object.entries(phases)) console.log(row(`  ${name}`, value))

const ratioMet = ratio <= targets.ratio
const settledMet = submitToSettled.median <= targets.submitToSettledMs
console.log(
  `\nexecution overhead ratio (median run() / median docker run): ${ratio} — target ≤ ${targets.ratio}: ${ratioMet ? 'met' : 'MISSED'}`,
)
console.log(`  (with the agent's remove() added, as docker run --rm removes too: ${ratioWithRemove})`)
console.log(
  `median submit→settled: ${submitToSettled.median} ms — target ≤ ${targets.submitToSettledMs} ms: ${settledMet ? 'met' : 'MISSED'}`,
)

const { stdout: dockerVersion } = await run(dockerCli, ['version', '--format', '{{.Server.Version}}'])
await mkdir(dirname(resultsFile), { recursive: true })
await writeFile(
  resultsFile,
  `${JSON.stringify(
    {
      median_submit_to_settled_ms: Math.round(submitToSettled.median),
      execution_overhead_ratio: ratio,
      targets: {
        execution_overhead_ratio: { max: targets.ratio, met: ratioMet },
        median_submit_to_settled_ms: { max: targets.submitToSettledMs, met: settledMet },
      },
      details: {
        tasks: taskCount,
        raw_runs: rawRuns,
        warm_up: 1,
        polling_interval_ms: pollingInterval,
        settle_poll_ms: settlePollMs,
        command: script,
        submit_to_settled_ms: submitToSettled,
        agent_run_ms: agentRun,
        raw_docker_run_ms: rawRun,
        agent_remove_ms: agentRemove,
        agent_run_and_remove_ms: agentRunAndRemove,
        execution_overhead_ratio_with_remove: ratioWithRemove,
        phases_ms: phases,
      },
      machine: {
        cpu: host.cpu.model,
        cores: host.cpu.cores,
        memory_mib: host.memoryMiB,
        node: process.version,
        docker: dockerVersion.trim(),
      },
      date: new Date().toISOString(),
    },
    null,
    2,
  )}\n`,
)
console.log(`\nwrote ${resultsFile}`)
