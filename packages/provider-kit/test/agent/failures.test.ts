/**
 * Failed runs handed in as results, step by step on the test chain (no
 * containers: each test journals the run it wants handed in): the `stored`
 * step turns the workload's own failures into failure reports with the run's
 * logs and abandons the agent's own, the `submitting` step hands a failure in
 * (a timeout once the task's runtime limit has passed since the claim), and
 * consensus replicas commit and reveal a failure they agree on.
 */
import { claimTask, failureDigest, getStake, getTask, getTaskResult, getWalletBalance } from '@gridforge/sdk'
import { describe, expect, test } from 'vitest'
import { claimSeats } from '../../../sdk/test/fixtures.js'
import type { JournalEntry } from '../../src/agent/journal.js'
import { announceCommit, commit } from '../../src/agent/steps/commit.js'
import { awaitReveal, reveal } from '../../src/agent/steps/reveal.js'
import type { StepContext, TaskMemory } from '../../src/agent/steps/step.js'
import { store } from '../../src/agent/steps/store.js'
import { announceSubmit, submit } from '../../src/agent/steps/submit.js'
import {
  publishTestImageSource,
  submitTestTask,
  type TestClient,
  testDeployment,
  testProviderClient,
  testStore,
} from '../harness.js'
import { marketLimits, nextOf, ranEntry, stepContext } from '../steps.js'

const deployment = testDeployment

/** A task of a new source (failure fee 25 %, not auditable) claimed by a new provider. */
async function claimedTask(options: { maxRuntimeSec?: number; replicas?: number } = {}) {
  const { store } = await testStore()
  const replicas = options.replicas ?? 1
  const sourceId = await publishTestImageSource({
    store,
    failureFeeBps: 2_500,
    maxRuntimeSec: options.maxRuntimeSec,
    deterministic: replicas > 1,
  })
  const providers = await Promise.all(Array.from({ length: replicas }, () => testProviderClient([sourceId])))
  const { taskId } = await submitTestTask({
    sourceId,
    input: await store.put(new TextEncoder().encode('input')),
    replicas,
  })
  // A consensus task's seats are raced for from two blocks after its submission, and final (their time
  // started) once the race is over.
  const slots = (
    await claimSeats(taskId, providers, (provider) =>
      claimTask(provider, { deployment: deployment(), taskId }),
    )
  ).map((claimed) => claimed.slot)
  return { store, sourceId, taskId, replicas, providers, slots }
}

/** Runs the steps from `entry` (as the task runner would, with its waits) until `step` or the end. */
async function runSteps(
  context: StepContext,
  entry: JournalEntry,
  steps: Record<string, (context: StepContext, entry: JournalEntry, memory: TaskMemory) => Promise<unknown>>,
  until: JournalEntry['step'],
  memory: TaskMemory = {},
): Promise<JournalEntry> {
  let current = entry
  while (current.step !== until && current.step !== 'done' && current.step !== 'abandoned') {
    const step = steps[current.step]
    if (step === undefined) throw new Error(`no step for ${current.step}`)
    const result = (await step(context, current, memory)) as { next?: JournalEntry; wait?: unknown }
    if (result.next !== undefined) current = result.next
    else if (result.wait !== undefined) await new Promise((resolve) => setTimeout(resolve, 500))
    else throw new Error(`unexpected ${JSON.stringify(result)}`)
  }
  return current
}

const single = { ran: store, stored: announceSubmit, submitting: submit }

describe('failed runs are results', () => {
  test('a non-zero exit is handed in with its logs: paid the failure fee, the collateral unlocked, never slashed', async () => {
    const { store: contentStore, taskId, sourceId, providers, slots } = await claimedTask()
    const [provider] = providers as [TestClient]
    const context = await stepContext(provider, contentStore)
    const ran = await ranEntry(contentStore, { taskId, sourceId, replicas: 1 }, slots[0] as number, {
      exitCode: 3,
    })

    const stored = nextOf(await store(context, ran, {}))
    expect(stored).toMatchObject({ step: 'stored', failure: { kind: 'exited', exitCode: 3 } })
    expect(stored.run?.outputCID).toBeUndefined()
    const done = await runSteps(context, stored, single, 'done')
    expect(done.step).toBe('done')

    const task = await getTask(provider, { deployment: deployment(), taskId })
    expect(task).toMatchObject({
      status: 'Completed',
      failed: true,
      failure: { kind: 'exited', exitCode: 3 },
    })
    expect(task.slots[0]?.status).toBe('Submitted')
    const { results } = await getTaskResult(provider, { deployment: deployment(), taskId })
    expect(results[0]).toMatchObject({ resultCID: ran.run?.logsCID, receiptCID: stored.receiptCID })
    expect(
      (await getStake(provider, { deployment: deployment(), account: provider.account.address })).locked,
    ).toBe(0n)
    // A quarter of the price (1 GRID), less the protocol fee.
    const { balance } = await getWalletBalance(provider, {
      deployment: deployment(),
      account: provider.account.address,
    })
    expect(balance).toBeGreaterThan(0n)
    expect(balance).toBeLessThanOrEqual(250_000_000_000_000_000n)
    expect(context.lines.some((line) => line.msg === 'failure stored')).toBe(true)
  })

  test("each failure of the workload's doing is stored as one; the agent's own are abandoned", async () => {
    const { store: contentStore, taskId, sourceId, providers, slots } = await claimedTask()
    const [provider] = providers as [TestClient]
    const context = await stepContext(provider, contentStore)
    const stored = async (run: Parameters<typeof ranEntry>[3]) =>
      nextOf(
        await store(context, await ranEntry(contentStore, { taskId, sourceId, replicas: 1 }, 0, run), {}),
      )
    expect(slots[0]).toBe(0)

    const failures = [
      [{ outcome: 'timeout', exitCode: undefined }, { kind: 'timedOut' }],
      [{ outcome: 'oom', exitCode: undefined }, { kind: 'outOfMemory' }],
      [{ outcome: 'outputTooLarge', exitCode: undefined }, { kind: 'outputTooLarge' }],
      [
        { outcome: 'failedToStart', exitCode: 127 },
        { kind: 'exited', exitCode: 127 },
      ],
    ] as const
    for (const [run, failure] of failures) {
      const entry = await stored(run)
      expect(entry, run.outcome).toMatchObject({ step: 'stored', failure })
      // The receipt says it failed: a killed run has the exit code a shell gives a SIGKILL.
      expect(entry.receiptCID).toBeDefined()
    }
    const abandoned = [
      { outcome: 'failedToStart', exitCode: undefined, reason: 'could not select device driver "nvidia"' },
      {
        outcome: 'timeout',
        exitCode: undefined,
        limits: { ...marketLimits, runtimeSec: 3, marketRuntime: false },
      },
      { outcome: 'oom', exitCode: undefined, limits: { ...marketLimits, sourceMemory: false } },
      { outcome: 'aborted', exitCode: undefined },
    ] as const
    for (const run of abandoned) {
      const entry = await stored(run)
      expect(entry.step, run.outcome).toBe('abandoned')
      expect(entry.failure).toBeUndefined()
      expect(entry.reason).toMatch(/nothing submitted/)
    }
  })

  test('a timeout is handed in once the runtime limit has passed since the claim; a refusal for being early waits', {
    timeout: 60_000,
  }, async () => {
    const maxRuntimeSec = 6
    const { store: contentStore, taskId, sourceId, providers } = await claimedTask({ maxRuntimeSec })
    const [provider] = providers as [TestClient]
    const context = await stepContext(provider, contentStore)
    const ran = await ranEntry(contentStore, { taskId, sourceId, replicas: 1 }, 0, {
      outcome: 'timeout',
      exitCode: undefined,
      limits: { runtimeSec: maxRuntimeSec, marketRuntime: true, sourceMemory: true },
    })
    const memory: TaskMemory = {}
    const submitting = nextOf(
      await announceSubmit(context, nextOf(await store(context, ran, memory)), memory),
    )
    const claim = (await getTask(provider, { deployment: deployment(), taskId })).slots[0]?.claimedAt
    const claimedAt = Math.floor((claim?.getTime() ?? 0) / 1000)

    // Too early: the step waits for the limit to pass since the claim.
    const early = await submit(context, submitting, memory)
    expect(early).toEqual({ wait: { untilChainTime: claimedAt + maxRuntimeSec } })

    // Sent too early all the same (here: a latest block that says it is later than it is), the market
    // refuses it: a wait too, not an abandoned task.
    const refused = await submit(
      { ...context, chainNow: async () => claimedAt + maxRuntimeSec },
      submitting,
      memory,
    )
    expect(refused).toEqual({ wait: { untilChainTime: claimedAt + maxRuntimeSec + 1 } })

    const done = await runSteps(context, submitting, single, 'done', memory)
    expect(done.step).toBe('done')
    const task = await getTask(provider, { deployment: deployment(), taskId })
    expect(task).toMatchObject({ status: 'Completed', failed: true, failure: { kind: 'timedOut' } })
  })

  test('consensus replicas that fail alike commit and reveal the same failure digest: the task completes failed', {
    timeout: 60_000,
  }, async () => {
    const { store: contentStore, taskId, sourceId, providers, slots } = await claimedTask({ replicas: 2 })
    const steps = {
      ran: store,
      stored: announceCommit,
      committing: commit,
      committed: awaitReveal,
      revealing: reveal,
    }
    const contexts = await Promise.all(providers.map((provider) => stepContext(provider, contentStore)))
    const memories: TaskMemory[] = [{}, {}]
    // Both commit (the second opens the reveals), then both reveal.
    const committed: JournalEntry[] = []
    for (const [index, context] of contexts.entries()) {
      const ran = await ranEntry(contentStore, { taskId, sourceId, replicas: 2 }, slots[index] as number, {
        exitCode: 4,
      })
      committed.push(await runSteps(context, ran, steps, 'committed', memories[index]))
    }
    for (const [index, context] of contexts.entries()) {
      const revealed = await runSteps(
        context,
        committed[index] as JournalEntry,
        steps,
        'revealed',
        memories[index],
      )
      expect(revealed).toMatchObject({ step: 'revealed', failure: { kind: 'exited', exitCode: 4 } })
    }
    const task = await getTask(providers[0] as TestClient, { deployment: deployment(), taskId })
    expect(task).toMatchObject({
      status: 'Completed',
      failed: true,
      failure: { kind: 'exited', exitCode: 4 },
    })
    for (const slot of task.slots)
      expect(slot.resultDigest).toBe(failureDigest({ kind: 'exited', exitCode: 4 }))
  })
})
