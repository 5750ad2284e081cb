import { appendFile, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { getAudit, getReputation, getTask, getWalletBalance } from '@gridforge/sdk'
import { expect, test } from 'vitest'
import { deployerClient } from '../../../sdk/test/chain.js'
import { endSeatRace } from '../../../sdk/test/fixtures.js'
import type { JournalEntry } from '../../src/agent/journal.js'
import type { ContainerRuntime } from '../../src/runtime/ContainerRuntime.js'
import { dockerRuntime } from '../../src/runtime/dockerRuntime.js'
import {
  chainTimeTo,
  publishTestImageSource,
  startTestAgent,
  submitTestTask,
  testDeployment,
  testProviderClient,
  testStore,
  until,
  waitForTaskState,
} from '../harness.js'

/** The journal entry of a task, or `undefined`. */
async function journalEntry(dataDir: string, taskId: bigint): Promise<JournalEntry | undefined> {
  try {
    return JSON.parse(await readFile(join(dataDir, 'journal', `${taskId}.json`), 'utf8')) as JournalEntry
  } catch {
    return undefined
  }
}

/** A provider whose results differ from everyone else's: it appends to the output after each run. */
function tamperingRuntime(inner: ContainerRuntime): ContainerRuntime {
  return {
    kind: inner.kind,
    isolated: inner.isolated,
    prepareImage: (parameters) => inner.prepareImage(parameters),
    run: async (spec) => {
      const result = await inner.run(spec)
      await appendFile(join(spec.outputDir, 'out'), 'tampered\n')
      return result
    },
    listTaskContainers: (owner) => inner.listTaskContainers(owner),
    attach: (containerId, spec) => inner.attach(containerId, spec),
    remove: (containerId) => inner.remove(containerId),
    [Symbol.asyncDispose]: () => inner[Symbol.asyncDispose](),
  }
}

test('k = 3 consensus: the agent whose output differs is disputed, outvoted by an auditor and slashed; the two others and the auditor are paid', {
  timeout: 240_000,
}, async () => {
  const { store } = await testStore()
  const sourceId = await publishTestImageSource({
    store,
    deterministic: true,
    command: ['sh', '-c', 'cat "$GRIDFORGE_INPUT_DIR"/input | tr a-z A-Z > "$GRIDFORGE_OUTPUT_DIR"/out'],
  })
  const [honestA, honestB, liar, auditor] = await Promise.all(
    [0, 1, 2, 3].map(() => testProviderClient([sourceId])),
  )
  const agents = await Promise.all([
    startTestAgent({ client: honestA!, store, sources: [sourceId] }),
    startTestAgent({ client: honestB!, store, sources: [sourceId] }),
    startTestAgent({ client: liar!, store, sources: [sourceId], runtime: tamperingRuntime(dockerRuntime()) }),
  ])
  const deployment = testDeployment()
  try {
    const { taskId } = await submitTestTask({
      sourceId,
      replicas: 3,
      input: await store.put(new TextEncoder().encode('consensus')),
    })
    // The three race for the three seats; nothing runs until the race is over: end it.
    await waitForTaskState(taskId, (t) => t.slots.every((slot) => slot.provider !== undefined), 60_000)
    const seated = await getTask(deployerClient(), { deployment, taskId })
    expect(seated.slots.every((slot) => slot.status === 'Claimed')).toBe(true)
    await endSeatRace(deployerClient() as never, deployment, taskId)

    // A fourth agent, started once the seats are final (it takes no seat), joins the dispute.
    agents.push(await startTestAgent({ client: auditor!, store, sources: [sourceId] }))
    await waitForTaskState(taskId, (t) => t.status === 'Auditing', 90_000)
    const auditorSeated = await waitForTaskState(taskId, (t) => t.slots[3]?.provider !== undefined, 60_000)
    expect(auditorSeated.slots[3]?.provider).toBe(auditor!.account.address)
    // Joining closes at the round's deadline: move the clock there rather than wait.
    const { joinDeadline } = await getAudit(deployerClient(), { deployment, taskId })
    await chainTimeTo(Math.floor((joinDeadline as Date).getTime() / 1000) + 1)

    const task = await waitForTaskState(
      taskId,
      (t) => t.status === 'Completed' || t.status === 'Failed',
      90_000,
    )
    expect(task.status).toBe('Completed')
    expect((await getAudit(deployerClient(), { deployment, taskId })).verdict).toBe('upheld')
    const reputation = await getReputation(deployerClient(), { deployment, provider: liar!.account.address })
    expect(reputation.outvoted).toBe(1)
    expect(reputation.slashedAmount).toBeGreaterThan(0n)
    for (const paid of [honestA!, honestB!, auditor!]) {
      const { balance } = await getWalletBalance(deployerClient(), {
        deployment,
        account: paid.account.address,
      })
      expect(balance).toBeGreaterThan(0n)
      expect(
        (await getReputation(deployerClient(), { deployment, provider: paid.account.address })).outvoted,
      ).toBe(0)
    }
    const { balance: liarBalance } = await getWalletBalance(deployerClient(), {
      deployment,
      account: liar!.account.address,
    })
    expect(liarBalance).toBe(0n)
    // The replicas waited for the dispute and journaled its verdict; the liar's seat was slashed.
    const [agentA, , liarAgent] = agents
    await until(
      async () => (await journalEntry(agentA!.dataDir, taskId))?.step === 'done',
      20_000,
      'the honest replica to journal done',
    )
    expect(await journalEntry(agentA!.dataDir, taskId)).toMatchObject({ step: 'done', verdict: 'upheld' })
    await until(
      async () => (await journalEntry(liarAgent!.dataDir, taskId))?.step === 'abandoned',
      20_000,
      'the liar to journal abandoned',
    )
    expect(agentA!.lines.some((line) => String(line.msg).startsWith('the replicas’ results differ'))).toBe(
      true,
    )
  } finally {
    await Promise.all(agents.map((agent) => agent.stop()))
  }
})
