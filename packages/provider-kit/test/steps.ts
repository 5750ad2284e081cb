/**
 * The agent's steps on the test chain without containers: a StepContext for a
 * provider client, whose runtime only removes (nothing runs: a test journals
 * the run it wants the steps to hand in), and `ran` entries to start from.
 */
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ContentStore } from '@gridforge/sdk/storage'
import { getBlock } from 'viem/actions'
import { defaultLimits } from '../src/agent/agent.js'
import { HeldResults } from '../src/agent/heldResults.js'
import { type JournalEntry, type JournalRun, newEntry } from '../src/agent/journal.js'
import type { PreparedTask } from '../src/agent/prepareTask.js'
import type { StepContext, StepResult } from '../src/agent/steps/step.js'
import type { ContainerRuntime } from '../src/runtime/ContainerRuntime.js'
import { captureLogs, type TestClient, testDeployment, testHost } from './harness.js'

/** A runtime for steps after the run: removing a container is all they ask of it. */
const removingRuntime = {
  kind: 'docker',
  isolated: true,
  prepareImage: () => Promise.reject(new Error('not in step tests')),
  run: () => Promise.reject(new Error('not in step tests')),
  listTaskContainers: async () => [],
  attach: () => Promise.reject(new Error('not in step tests')),
  remove: async () => {},
  [Symbol.asyncDispose]: async () => {},
} satisfies ContainerRuntime

/** A StepContext of `client`'s agent, with `prepare` answered by `prepared` (an audit records what it asked for). */
export async function stepContext(
  client: TestClient,
  store: ContentStore,
  { prepared }: { prepared?: (validator: unknown) => PreparedTask } = {},
): Promise<StepContext & ReturnType<typeof captureLogs> & { prepareCalls: unknown[] }> {
  const captured = captureLogs()
  const prepareCalls: unknown[] = []
  const workDir = await mkdtemp(join(tmpdir(), 'gridforge-steps-'))
  return {
    ...captured,
    prepareCalls,
    // biome-ignore lint/suspicious/noExplicitAny: the SDK test client has the account and chain the steps need
    client: client as any,
    deployment: testDeployment(),
    store,
    runtime: removingRuntime,
    host: testHost,
    address: client.account.address,
    owner: `test:${client.account.address}`.toLowerCase(),
    limits: defaultLimits,
    submitMarginSec: 30,
    heldResults: new HeldResults(),
    releaseWaitSec: 0,
    signal: new AbortController().signal,
    workDir,
    transact: (send) => send(),
    chainNow: async () => Number((await getBlock(client, { blockTag: 'latest' })).timestamp),
    prepare: async (_task, _fetch, validator) => {
      prepareCalls.push(validator)
      if (prepared === undefined) throw new Error('this test prepares nothing')
      return prepared(validator)
    },
  }
}

/** The run's limits when it had the task's whole runtime and the source's memory. */
export const marketLimits = { runtimeSec: 3_600, marketRuntime: true, sourceMemory: true }

/** A `ran` entry of a claimed slot, with the run `run` says (its logs stored). */
export async function ranEntry(
  store: ContentStore,
  task: { taskId: bigint; sourceId: number; replicas: number },
  slot: number,
  run: Partial<JournalRun>,
): Promise<JournalEntry> {
  const logsCID = await store.put(new TextEncoder().encode(`logs of task ${task.taskId} ${Math.random()}\n`))
  return {
    ...newEntry(task),
    step: 'ran',
    slot,
    run: {
      outcome: 'exited',
      exitCode: 0,
      startedAt: Math.floor(Date.now() / 1000) - 10,
      finishedAt: Math.floor(Date.now() / 1000),
      reason: undefined,
      logsCID,
      limits: marketLimits,
      ...run,
    },
  }
}

/** The entry a step moved to; fails on a wait or a drop. */
export function nextOf(result: StepResult): JournalEntry {
  if (!('next' in result)) throw new Error(`expected the next step, got ${JSON.stringify(result)}`)
  return result.next
}
