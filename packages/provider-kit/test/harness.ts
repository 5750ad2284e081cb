/**
 * Agents, sources and tasks on the test chain and the test Docker engine:
 * what the agent and fault tests share. Every source runs the busybox test
 * image; every agent of a test shares one fsStore with the test (the store
 * clients and providers both read).
 */
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  approveMarket,
  type Deployment,
  getTask,
  publishSource,
  type SourceMetadataInput,
  submitTask,
  type Task,
} from '@gridforge/sdk'
import { type ContentStore, fsStore } from '@gridforge/sdk/storage'
import { type Address, type Hex, parseEventLogs, parseUnits } from 'viem'
import { ResultSubmitted } from '../../sdk/src/abis/taskMarket.js'
import { deployerClient, deployment, fundedClient, testClient } from '../../sdk/test/chain.js'
import { registerFixtureProvider } from '../../sdk/test/fixtures.js'
import type { AgentOptions } from '../src/agent/AgentOptions.js'
import { type Agent, startAgent } from '../src/agent/agent.js'
import { jsonLogger, type Logger } from '../src/logger.js'
import { dockerRuntime } from '../src/runtime/dockerRuntime.js'
import { testHost } from './hostReport.js'
import { buildTestImage, type TestImage } from './images.js'

export { testHost }

let image: Promise<TestImage> | undefined
/** The busybox test image (built once per process). */
export function testImage(): Promise<TestImage> {
  image ??= buildTestImage({ tag: 'gridforge-test/agent:latest' })
  return image
}

/** A store in a new temporary directory. */
export async function testStore(): Promise<{ store: ContentStore; root: string }> {
  const root = await mkdtemp(join(tmpdir(), 'gridforge-store-'))
  return { store: fsStore({ root }), root }
}

export interface TestSourceOptions {
  store: ContentStore
  /** argv run in the container (default: copy the input to the output). */
  command?: string[]
  /**
   * Default false: a single-replica task of a deterministic source is auditable, held until its
   * audit draw and sometimes audited (test/agent/audit.test.ts); the other tests want the task
   * settled by its result. Consensus (replicas > 1) needs true.
   */
  deterministic?: boolean
  maxRuntimeSec?: number
  /** GPUs a provider's host must have (default 0). */
  minGpus?: number
  /** Metadata fields to override, or a raw document (string) stored as is. */
  metadata?: Partial<SourceMetadataInput> | string
  /** The digest put on chain (default: the test image's). */
  imageDigest?: Hex
  /** What a failed run is paid on a fixed-price task, basis points of its price (default 0). */
  failureFeeBps?: number
  /** The source that checks this one's results (default none): its single-replica tasks are auditable. */
  validator?: number
}

/** Publishes a source running the test image; returns its id. */
export async function publishTestImageSource(options: TestSourceOptions): Promise<number> {
  const { store, deterministic = false, maxRuntimeSec = 3_600, minGpus = 0 } = options
  const { digest } = await testImage()
  const imageDigest = options.imageDigest ?? digest
  const document =
    typeof options.metadata === 'string'
      ? options.metadata
      : JSON.stringify({
          name: 'test source',
          image: `gridforge-test/agent@sha256:${imageDigest.slice(2)}`,
          command: options.command ?? ['sh', '-c', 'cp -r "$GRIDFORGE_INPUT_DIR"/. "$GRIDFORGE_OUTPUT_DIR"/'],
          resources: { cpus: 1, memoryMiB: 256, maxRuntimeSec },
          ...options.metadata,
        })
  const metadata = await store.put(new TextEncoder().encode(document))
  const { sourceId } = await publishSource(deployerClient(), {
    deployment: deployment(),
    imageDigest,
    metadata,
    requirements: { minGpus, minVramMiB: 0, minComputeCapability: 0, maxRuntimeSec, deterministic },
    failureFeeBps: options.failureFeeBps,
    validator: options.validator,
  })
  return sourceId
}

/**
 * A funded, staked, registered provider subscribed to `sourceIds`; with
 * `privateKey` (for an agent in another process) that account, else a new one.
 */
export async function testProviderClient(
  sourceIds: readonly number[],
  { privateKey }: { privateKey?: Hex } = {},
) {
  const client = await fundedClient({ privateKey })
  // biome-ignore lint/suspicious/noExplicitAny: the fixture takes the SDK tests' client type
  await registerFixtureProvider(client as any, deployment(), sourceIds)
  return client
}

export type TestClient = Awaited<ReturnType<typeof fundedClient>>

/** Log lines an agent wrote, parsed. */
export interface CapturedLogs {
  logger: Logger
  lines: Record<string, unknown>[]
}

export function captureLogs(): CapturedLogs {
  const lines: Record<string, unknown>[] = []
  const logger = jsonLogger({
    level: 'debug',
    write: (line) => {
      lines.push(JSON.parse(line) as Record<string, unknown>)
      if (process.env.GRIDFORGE_TEST_LOGS) process.stderr.write(`${line}\n`)
    },
  })
  return { logger, lines }
}

export interface TestAgentOptions extends Partial<Omit<AgentOptions, 'client'>> {
  client: TestClient
  store: ContentStore
  sources: readonly number[]
}

/** Starts an agent in this process, on the Docker runtime unless told otherwise. */
export async function startTestAgent(
  options: TestAgentOptions,
): Promise<Agent & CapturedLogs & { dataDir: string }> {
  const captured = captureLogs()
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'gridforge-agent-')))
  const agent = await startAgent({
    deployment: deployment(),
    runtime: options.runtime ?? dockerRuntime(),
    host: testHost,
    pollingInterval: 200,
    rescanInterval: 2_000,
    logger: captured.logger,
    ...options,
    policy: { sources: options.sources, ...options.policy },
    dataDir,
    // biome-ignore lint/suspicious/noExplicitAny: the SDK test client has the account and chain the agent needs
    client: options.client as any,
  })
  return Object.assign(agent, captured, { dataDir })
}

/** Submits a task from a fresh funded client; returns its id. */
export async function submitTestTask(parameters: {
  sourceId: number
  input: string
  replicas?: number
  maxPayment?: string
  /** Audit probability in basis points (an auditable task only; default: the market's). */
  auditBps?: number
  /** The client's result key: the output is sealed to it (default: none, the output in the clear). */
  resultKey?: Hex
  client?: TestClient
}): Promise<{ taskId: bigint; client: TestClient }> {
  const client = parameters.client ?? (await fundedClient())
  await approveMarket(client, { deployment: deployment(), amount: '100' })
  const { taskId } = await submitTask(client, {
    deployment: deployment(),
    sourceId: parameters.sourceId,
    input: parameters.input,
    maxPayment: parseUnits(parameters.maxPayment ?? '1', 18),
    replicas: parameters.replicas ?? 1,
    auditBps: parameters.auditBps,
    resultKey: parameters.resultKey,
    deadline: '29d',
  })
  return { taskId, client }
}

/** Polls until `predicate(task)` holds; fails after `timeoutMs`. */
export async function waitForTaskState(
  taskId: bigint,
  predicate: (task: Task) => boolean,
  timeoutMs = 60_000,
): Promise<Task> {
  const client = deployerClient()
  const end = Date.now() + timeoutMs
  for (;;) {
    const task = await getTask(client, { deployment: deployment(), taskId })
    if (predicate(task)) return task
    if (Date.now() > end) throw new Error(`task ${taskId} is still ${task.status} after ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

/** Every ResultSubmitted event of a task: who submitted, how many times. */
export async function resultSubmissions(taskId: bigint): Promise<Address[]> {
  const client = deployerClient()
  const logs = await client.getLogs({
    address: deployment().contracts.market,
    event: ResultSubmitted,
    args: { taskId },
    fromBlock: 0n,
  })
  return parseEventLogs({ abi: [ResultSubmitted], logs }).map((log) => log.args.provider)
}

/** Waits until `predicate` is true, polling every `intervalMs`. */
export async function until(
  predicate: () => boolean | Promise<boolean>,
  timeoutMs = 30_000,
  what = 'condition',
  intervalMs = 100,
) {
  const end = Date.now() + timeoutMs
  while (!(await predicate())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, intervalMs))
  }
}

/**
 * Moves the test chain's clock until the latest block's time is at least `timestamp` (chain seconds), so
 * that the next transaction comes after it: the end of a race for seats, of an audit's joining. Only
 * forward (other test files move the clock too).
 */
export async function chainTimeTo(timestamp: number): Promise<void> {
  for (;;) {
    const { timestamp: latest } = await deployerClient().getBlock({ blockTag: 'latest' })
    if (Number(latest) >= timestamp) return
    await testClient().increaseTime({ seconds: timestamp - Number(latest) })
    await testClient().mine({ blocks: 1 })
  }
}

/** The test deployment. */
export function testDeployment(): Deployment {
  return deployment()
}
