/**
 * Tasks with replicas > 1, step by step on the test chain (no containers: each
 * test journals the run it wants handed in): the race for their seats (the
 * claim waits for the block its ticket is drawn from; a worse ticket than every
 * seated one is dropped quietly; a seat a better ticket took is dropped
 * without running; a raced seat runs, and commits, only once it is final) and
 * the dispute of replicas whose results differ (the replicas wait for it; a
 * provider that was not a replica joins it and runs the task again; the
 * verdict pays or slashes each replica).
 */
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  claimTask,
  getAudit,
  getReputation,
  getSource,
  getStake,
  getTask,
  getWalletBalance,
  type Source,
} from '@gridforge/sdk'
import type { ContentStore } from '@gridforge/sdk/storage'
import { describe, expect, test } from 'vitest'
import { deployerClient, testClient } from '../../../sdk/test/chain.js'
import { endSeatRace, mineToSeed, raceOrder, seatRace } from '../../../sdk/test/fixtures.js'
import { gasLimits } from '../../src/agent/gasLimits.js'
import { type JournalEntry, newEntry } from '../../src/agent/journal.js'
import type { PreparedTask } from '../../src/agent/prepareTask.js'
import {
  awaitAuditReveal,
  awaitJoinClose,
  join as joinAudit,
  watchAudit,
} from '../../src/agent/steps/audit.js'
import { claim } from '../../src/agent/steps/claim.js'
import { announceCommit, commit } from '../../src/agent/steps/commit.js'
import { finalize } from '../../src/agent/steps/finalize.js'
import { awaitReveal, reveal } from '../../src/agent/steps/reveal.js'
import { startRun } from '../../src/agent/steps/run.js'
import type { Step, StepContext, StepResult, TaskMemory } from '../../src/agent/steps/step.js'
import { store } from '../../src/agent/steps/store.js'
import {
  chainTimeTo,
  publishTestImageSource,
  submitTestTask,
  type TestClient,
  testDeployment,
  testProviderClient,
  testStore,
} from '../harness.js'
import { nextOf, ranEntry, stepContext } from '../steps.js'

const deployment = testDeployment
const reader = () => deployerClient() as unknown as Parameters<typeof mineToSeed>[0]

/** A deterministic source, `providers` providers subscribed to it, and a task of it with `replicas` replicas. */
async function replicatedTask({
  replicas = 2,
  providers = replicas,
}: {
  replicas?: number
  providers?: number
} = {}) {
  const { store: contentStore } = await testStore()
  const sourceId = await publishTestImageSource({ store: contentStore, deterministic: true })
  const clients = await Promise.all(Array.from({ length: providers }, () => testProviderClient([sourceId])))
  const input = await contentStore.put(new TextEncoder().encode('an input'))
  const { taskId } = await submitTestTask({ sourceId, input, replicas })
  const task = await getTask(deployerClient(), { deployment: deployment(), taskId })
  const source = await getSource(deployerClient(), { deployment: deployment(), sourceId })
  return { contentStore, sourceId, source, providers: clients, taskId, task }
}

/** What `prepare` answers for the task's source (nothing runs in these tests), with a real output folder. */
async function preparedSource(source: Source): Promise<PreparedTask> {
  const dir = await mkdtemp(join(tmpdir(), 'gridforge-seats-'))
  return {
    source,
    metadata: { resources: { maxRuntimeSec: 3_600 } } as PreparedTask['metadata'],
    image: { ref: 'test', digest: source.imageDigest },
    inputDir: join(dir, 'input'),
    outputDir: join(dir, 'output'),
    maxRuntimeSec: source.requirements.maxRuntimeSec,
  }
}

/** A step context of `client` whose `prepare` answers `source`'s prepared run. */
async function contextOf(client: TestClient, contentStore: ContentStore, source: Source) {
  const prepared = await preparedSource(source)
  return stepContext(client, contentStore, { prepared: () => prepared })
}

/** A `claiming` entry of the task. */
function claiming(task: { taskId: bigint; sourceId: number; replicas: number }): JournalEntry {
  return newEntry(task)
}

/** Runs `step` again after each wait (as the task runner would) until it moves the entry on. */
async function stepOn(step: Step, context: StepContext, entry: JournalEntry, memory: TaskMemory) {
  for (let tries = 0; tries < 240; tries++) {
    const result = await step(context, entry, memory)
    if ('next' in result) return result.next
    if ('drop' in result) throw new Error(`dropped: ${result.drop}`)
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  throw new Error(`${entry.step} kept waiting`)
}

/** Runs `fn` while the test chain mines a block per transaction only (not one a second too). */
async function withoutTimedBlocks<T>(fn: () => Promise<T>): Promise<T> {
  const node = testClient()
  await node.setIntervalMining({ interval: 0 })
  try {
    return await fn()
  } finally {
    // Seconds: a block a second again, as test/globalSetup.ts started it.
    await node.setIntervalMining({ interval: 1 })
  }
}

const lockedOf = async (client: TestClient) =>
  (await getStake(client, { deployment: deployment(), account: client.account.address })).locked

describe('the race for the seats of replicas', () => {
  test('the claim waits for the block its ticket is drawn from; the raced seat runs once the race is over', async () => {
    const memory: TaskMemory = {}
    // Submitted, then claimed at once: the block the tickets are drawn from is not mined yet, and nothing
    // is sent until the block after it.
    const { providers, task, context, early } = await withoutTimedBlocks(async () => {
      const replicated = await replicatedTask()
      const context = await contextOf(
        replicated.providers[0] as TestClient,
        replicated.contentStore,
        replicated.source,
      )
      return { ...replicated, context, early: await claim(context, claiming(replicated.task), memory) }
    })
    const race = await seatRace(reader(), deployment(), task.taskId)
    expect(early).toEqual({ wait: { untilBlock: race.readyBlock } })
    expect(providers).toHaveLength(2)

    await mineToSeed(reader(), deployment(), task.taskId)
    const claimed = nextOf(await claim(context, claiming(task), memory))
    expect(claimed).toMatchObject({ step: 'claimed', slot: 0, seatFinalAt: race.seatStart })
    expect(context.lines.some((line) => line.msg === 'claimed' && line.seatFinalAt === race.seatStart)).toBe(
      true,
    )

    // Before the race ends nothing is prepared or started: a better ticket may still take the seat.
    expect(await startRun(context, claimed, memory)).toEqual({ wait: { untilChainTime: race.seatStart } })
    expect(context.prepareCalls).toEqual([])

    await endSeatRace(reader(), deployment(), task.taskId)
    expect(nextOf(await startRun(context, claimed, memory))).toMatchObject({ step: 'running', slot: 0 })
    expect(context.prepareCalls).toHaveLength(1)
  })

  test('a better ticket takes the worst seat (within the claim gas limit): the replaced seat is dropped without running, its collateral unlocked; claiming again loses quietly', async () => {
    const { contentStore, source, providers, task } = await replicatedTask({ providers: 3 })
    const [best, second, worst] = (await raceOrder(task.taskId, providers)) as [
      TestClient,
      TestClient,
      TestClient,
    ]
    const worstContext = await contextOf(worst, contentStore, source)
    const bestContext = await contextOf(best, contentStore, source)

    await claimTask(second, { deployment: deployment(), taskId: task.taskId })
    const worstMemory: TaskMemory = {}
    const seated = nextOf(await claim(worstContext, claiming(task), worstMemory))
    expect(await lockedOf(worst)).toBe(task.collateral)

    // Every seat is held: the best ticket replaces the worst, in the agent's claim (its gas limit).
    const replacing = nextOf(await claim(bestContext, claiming(task), {}))
    expect(replacing).toMatchObject({ step: 'claimed', slot: seated.slot, seatFinalAt: seated.seatFinalAt })
    const receipt = await deployerClient().getTransactionReceipt({ hash: replacing.txHash as `0x${string}` })
    expect(receipt.gasUsed).toBeLessThan((gasLimits.claim * 4n) / 5n)

    const replaced = await startRun(worstContext, seated, worstMemory)
    expect(replaced).toEqual({
      drop: 'a better ticket took our seat before the race ended (its collateral was unlocked)',
    })
    expect(worstContext.prepareCalls).toEqual([])
    expect(await lockedOf(worst)).toBe(0n)

    // Its ticket is still worse than every seated one: an everyday loss, not a refusal.
    expect(await claim(worstContext, claiming(task), {})).toEqual({
      drop: 'our ticket is worse than every seated one',
      quiet: true,
    })
  })

  test('a commitment sent before the seat is final waits for the time the market names', async () => {
    const { contentStore, source, providers, task } = await replicatedTask()
    const [provider] = providers as [TestClient]
    const context = await contextOf(provider, contentStore, source)
    await mineToSeed(reader(), deployment(), task.taskId)
    const memory: TaskMemory = {}
    const claimed = nextOf(await claim(context, claiming(task), memory))
    const { run } = await ranEntry(contentStore, task, claimed.slot as number, {
      outputCID: await contentStore.put(new TextEncoder().encode('an output')),
    })
    const committing = nextOf(await announceCommit(context, { ...claimed, step: 'stored', run }, memory))
    // A node or clock behind the chain's: the market refuses it until then, and the agent waits.
    expect(await commit(context, committing, memory)).toEqual({
      wait: { untilChainTime: claimed.seatFinalAt },
    })
  })
})

describe('disputes of replicas whose results differ', () => {
  test('a provider that was not a replica joins the dispute and runs the task again: the result it confirms is paid, the other slashed', {
    timeout: 120_000,
  }, async () => {
    const { contentStore, source, providers, task } = await replicatedTask({ providers: 3 })
    const [right, wrong, auditor] = providers as [TestClient, TestClient, TestClient]
    const taskId = task.taskId
    await mineToSeed(reader(), deployment(), taskId)
    const outputs = await Promise.all(
      ['the output', 'another output'].map((text) => contentStore.put(new TextEncoder().encode(text))),
    )
    const replicas = [right, wrong].map((client, index) => ({ client, output: outputs[index] as string }))
    const contexts = await Promise.all(replicas.map(({ client }) => contextOf(client, contentStore, source)))
    const memories: TaskMemory[] = [{}, {}]
    const claimed: JournalEntry[] = []
    for (const [index, context] of contexts.entries())
      claimed.push(nextOf(await claim(context, claiming(task), memories[index] as TaskMemory)))
    await endSeatRace(reader(), deployment(), taskId)

    // Both replicas commit (the second opens the reveals), then reveal: their results differ.
    const committed: JournalEntry[] = []
    for (const [index, context] of contexts.entries()) {
      const memory = memories[index] as TaskMemory
      const { run } = await ranEntry(contentStore, task, claimed[index]?.slot as number, {
        outputCID: replicas[index]?.output,
      })
      const stored = await stepOn(
        store,
        context,
        { ...(claimed[index] as JournalEntry), step: 'ran', run },
        memory,
      )
      const committing = await stepOn(announceCommit, context, stored, memory)
      committed.push(await stepOn(commit, context, committing, memory))
    }
    const revealed: JournalEntry[] = []
    for (const [index, context] of contexts.entries()) {
      const memory = memories[index] as TaskMemory
      const revealing = await stepOn(awaitReveal, context, committed[index] as JournalEntry, memory)
      revealed.push(await stepOn(reveal, context, revealing, memory))
    }
    expect((await getTask(auditor, { deployment: deployment(), taskId })).status).toBe('Auditing')
    const dispute = await getAudit(auditor, { deployment: deployment(), taskId })
    expect(dispute).toMatchObject({ verdict: 'pending', round: 1, firstSlot: 2, auditors: 1 })

    // The replicas wait for the dispute: neither settled nor failed.
    const watching: JournalEntry[] = []
    for (const [index, context] of contexts.entries()) {
      const disputed = nextOf(
        await finalize(context, revealed[index] as JournalEntry, memories[index] as TaskMemory),
      )
      expect(disputed.step).toBe('auditing')
      expect(await watchAudit(context, disputed, memories[index] as TaskMemory)).toMatchObject({ wait: {} })
      watching.push(disputed)
    }

    // A provider that was not a replica joins, holds its seat until joining closes, and runs the task again.
    const auditorContext = await contextOf(auditor, contentStore, source)
    const auditorMemory: TaskMemory = {}
    const joining: JournalEntry = {
      ...newEntry(task),
      step: 'joining',
      audit: { round: 1, joinDeadline: 0, commitDeadline: 0 },
    }
    const joined = await stepOn(joinAudit, auditorContext, joining, auditorMemory)
    expect(joined).toMatchObject({ step: 'joined', slot: 2, audit: { round: 1, check: 'rerun' } })
    await chainTimeTo((joined.audit?.joinDeadline as number) + 1)
    const seated = await stepOn(awaitJoinClose, auditorContext, joined, auditorMemory)
    expect(seated.step).toBe('claimed')
    // It finds what the right replica found.
    const { run } = await ranEntry(contentStore, task, seated.slot as number, { outputCID: outputs[0] })
    const stored = await stepOn(store, auditorContext, { ...seated, step: 'ran', run }, auditorMemory)
    const committing = await stepOn(announceCommit, auditorContext, stored, auditorMemory)
    const auditorCommitted = await stepOn(commit, auditorContext, committing, auditorMemory)
    const revealing = await stepOn(awaitAuditReveal, auditorContext, auditorCommitted, auditorMemory)
    const auditorRevealed = await stepOn(reveal, auditorContext, revealing, auditorMemory)

    const settled = await getTask(auditor, { deployment: deployment(), taskId })
    expect(settled.status).toBe('Completed')
    expect((await getAudit(auditor, { deployment: deployment(), taskId })).verdict).toBe('upheld')

    // Each replica journals the verdict: paid, or slashed.
    const [rightEnd, wrongEnd] = await Promise.all(
      contexts.map((context, index) =>
        watchAudit(context, watching[index] as JournalEntry, memories[index] as TaskMemory),
      ),
    )
    expect(nextOf(rightEnd as StepResult)).toMatchObject({ step: 'done', verdict: 'upheld' })
    expect(nextOf(wrongEnd as StepResult)).toMatchObject({ step: 'abandoned', verdict: 'upheld' })
    expect(nextOf(wrongEnd as StepResult).reason).toMatch(/auditors did not confirm/)
    expect(nextOf(await watchAudit(auditorContext, auditorRevealed, auditorMemory))).toMatchObject({
      step: 'done',
      verdict: 'upheld',
    })

    const balanceOf = async (client: TestClient) =>
      (
        await getWalletBalance(deployerClient(), {
          deployment: deployment(),
          account: client.account.address,
        })
      ).balance
    expect(await balanceOf(right)).toBeGreaterThan(0n)
    expect(await balanceOf(auditor)).toBeGreaterThan(0n)
    expect(await balanceOf(wrong)).toBe(0n)
    const reputation = await getReputation(deployerClient(), {
      deployment: deployment(),
      provider: wrong.account.address,
    })
    expect(reputation.outvoted).toBe(1)
  })
})
