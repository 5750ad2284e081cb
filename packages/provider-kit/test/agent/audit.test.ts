/**
 * Audited single-replica results, end to end on the test chain (a block a
 * second) and real containers: a held result released and paid, a drawn one
 * audited by a second agent and upheld, and an agent restarted while its
 * result is held.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import {
  getAudit,
  getAuditDraw,
  getTaskResult,
  getWalletBalance,
  resultDigest,
  sealResult,
  setParams,
} from '@gridforge/sdk'
import { deriveResultKey, isSealedOutput, openOutput } from '@gridforge/sdk/results'
import { getBytes } from '@gridforge/sdk/storage'
import { beforeAll, describe, expect, test } from 'vitest'
import { deployerClient, fundedClient } from '../../../sdk/test/chain.js'
import type { JournalEntry } from '../../src/agent/journal.js'
import {
  publishTestImageSource,
  resultSubmissions,
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

const balanceOf = async (account: `0x${string}`) =>
  (await getWalletBalance(deployerClient(), { deployment: testDeployment(), account })).balance

/** A deterministic source (auditable single-replica tasks) that upper-cases its input. */
async function auditableSource() {
  const { store } = await testStore()
  const sourceId = await publishTestImageSource({
    store,
    deterministic: true,
    command: ['sh', '-c', 'tr a-z A-Z < "$GRIDFORGE_INPUT_DIR"/input > "$GRIDFORGE_OUTPUT_DIR"/out'],
  })
  return { store, sourceId }
}

describe('audited results', () => {
  beforeAll(async () => {
    // The shortest joining window the market allows (default 2 minutes): a drawn result waits for it.
    await setParams(deployerClient(), { deployment: testDeployment(), auditJoinWindow: '1m' })
  })

  test('a held result no claim carries is released on its own once its draw is ready, and paid', {
    timeout: 150_000,
  }, async () => {
    const { store, sourceId } = await auditableSource()
    const provider = await testProviderClient([sourceId])
    // No other task comes: after releaseWaitSec the agent releases the result alone.
    const agent = await startTestAgent({ client: provider, store, sources: [sourceId], releaseWaitSec: 5 })
    try {
      const { taskId } = await submitTestTask({
        sourceId,
        input: await store.put(new TextEncoder().encode('held')),
      })
      await waitForTaskState(taskId, (t) => t.status === 'Held', 60_000)
      // Drawn (10 %): nobody else runs the source, so the audit lapses after its joining window and the
      // result is paid unaudited; the agent moves the round on itself.
      const task = await waitForTaskState(taskId, (t) => t.status === 'Completed', 120_000)
      expect(task.slots[0]?.provider).toBe(provider.account.address)
      expect(await resultSubmissions(taskId)).toEqual([provider.account.address])
      expect(await balanceOf(provider.account.address)).toBeGreaterThan(0n)
      const { verdict } = await getAudit(deployerClient(), { deployment: testDeployment(), taskId })
      expect(['not-drawn', 'lapsed']).toContain(verdict)
      await until(
        async () => (await journalEntry(agent.dataDir, taskId))?.step === 'done',
        10_000,
        'the journal to say done',
      )
      expect((await journalEntry(agent.dataDir, taskId))?.verdict).toBe(verdict)
      expect(agent.lines.some((line) => line.msg === 'result submitted' && line.held === true)).toBe(true)
    } finally {
      await agent.stop()
    }
  })

  test('a drawn result sealed to its client is audited by a second agent and upheld: both are paid, only the client reads the output', {
    timeout: 240_000,
  }, async () => {
    const { store, sourceId } = await auditableSource()
    const clients = await Promise.all([0, 1].map(() => testProviderClient([sourceId])))
    const agents = await Promise.all(
      clients.map((client) => startTestAgent({ client, store, sources: [sourceId] })),
    )
    try {
      const client = await fundedClient()
      const key = await deriveResultKey(client, { deployment: testDeployment() })
      const { taskId } = await submitTestTask({
        sourceId,
        input: await store.put(new TextEncoder().encode('audit me')),
        // Always drawn.
        auditBps: 10_000,
        resultKey: key.publicKey,
        client,
      })
      await waitForTaskState(taskId, (t) => t.status === 'Auditing', 60_000)
      const task = await waitForTaskState(
        taskId,
        (t) => t.status === 'Completed' || t.status === 'Failed',
        180_000,
      )
      expect(task.status).toBe('Completed')
      const audit = await getAudit(deployerClient(), { deployment: testDeployment(), taskId })
      expect(audit.verdict).toBe('upheld')
      const [providerSlot, auditorSlot] = task.slots
      const provider = providerSlot?.provider
      const auditor = auditorSlot?.provider
      expect(new Set([provider, auditor])).toEqual(new Set(clients.map((client) => client.account.address)))
      expect(auditorSlot?.status).toBe('Submitted')
      for (const account of [provider, auditor])
        expect(await balanceOf(account as `0x${string}`)).toBeGreaterThan(0n)

      const byAddress = new Map(agents.map((agent) => [agent.address, agent]))
      const providerAgent = byAddress.get(provider as `0x${string}`)
      const auditorAgent = byAddress.get(auditor as `0x${string}`)
      await until(
        async () =>
          (await journalEntry(providerAgent?.dataDir as string, taskId))?.step === 'done' &&
          (await journalEntry(auditorAgent?.dataDir as string, taskId))?.step === 'done',
        20_000,
        'both journals to say done',
      )
      expect(await journalEntry(providerAgent?.dataDir as string, taskId)).toMatchObject({
        step: 'done',
        verdict: 'upheld',
      })
      expect(await journalEntry(auditorAgent?.dataDir as string, taskId)).toMatchObject({
        step: 'done',
        slot: 1,
        audit: { round: 1 },
        verdict: 'upheld',
      })
      expect(auditorAgent?.lines.some((line) => line.msg === 'joined an audit')).toBe(true)
      expect(providerAgent?.lines.some((line) => line.msg === 'result drawn for an audit')).toBe(true)

      // The provider handed in the output sealed to the client: the chain has the seal, the CID an envelope.
      const result = await getTaskResult(deployerClient(), { deployment: testDeployment(), taskId })
      const [handedIn, audited] = result.results
      const envelope = handedIn?.resultCID as string
      expect(await isSealedOutput(store, { cid: envelope })).toBe(true)
      expect(new TextDecoder().decode(await getBytes(store, envelope))).not.toContain('AUDIT ME')
      // Only the client's key opens it; the seal on chain is of the plain output, which the auditor found too.
      const opened = await openOutput(store, { cid: envelope, secretKey: key.secretKey })
      expect(new TextDecoder().decode(await getBytes(store, opened.cid, { path: 'out' }))).toBe('AUDIT ME')
      const seal = sealResult({ taskId, digest: resultDigest(opened.cid) })
      expect(handedIn?.resultDigest).toBe(seal)
      expect(audited?.resultDigest).toBe(seal)
      const stranger = await deriveResultKey(await fundedClient(), { deployment: testDeployment() })
      await expect(openOutput(store, { cid: envelope, secretKey: stranger.secretKey })).rejects.toThrow()
    } finally {
      await Promise.all(agents.map((agent) => agent.stop()))
    }
  })

  test("the agent's next claim carries the release of its held result: no transaction of its own", {
    timeout: 150_000,
  }, async () => {
    const { store, sourceId } = await auditableSource()
    const provider = await testProviderClient([sourceId])
    // Long enough for the second task to come: the first result's release waits for its claim.
    const agent = await startTestAgent({ client: provider, store, sources: [sourceId], releaseWaitSec: 600 })
    try {
      const held = await submitTestTask({
        sourceId,
        input: await store.put(new TextEncoder().encode('first')),
      })
      await waitForTaskState(held.taskId, (t) => t.status === 'Held', 60_000)
      // The draw reads the hash of the block after the submission (a block a second): ready two blocks on.
      await until(
        async () =>
          (await getAuditDraw(deployerClient(), { deployment: testDeployment(), taskId: held.taskId })).ready,
        10_000,
        'the draw to be ready',
      )
      const next = await submitTestTask({
        sourceId,
        input: await store.put(new TextEncoder().encode('second')),
      })
      await waitForTaskState(next.taskId, (t) => t.status !== 'Open', 60_000)
      const claimed = agent.lines.find(
        (line) => line.msg === 'claimed' && line.taskId === String(next.taskId),
      )
      expect((claimed?.released as unknown[] | undefined)?.map(String)).toEqual([String(held.taskId)])
      // Released by that claim: settled and paid (not drawn), or drawn into an audit round (1 in 10).
      const { status } = await waitForTaskState(held.taskId, (t) => t.status !== 'Held', 10_000)
      expect(['Completed', 'Auditing']).toContain(status)
      await until(
        async () =>
          ['done', 'auditing'].includes((await journalEntry(agent.dataDir, held.taskId))?.step ?? ''),
        30_000,
        'the journal to follow the release',
      )
      expect(agent.lines.some((line) => line.msg === 'result released')).toBe(false)
    } finally {
      await agent.stop()
    }
  })

  test('an agent stopped while its result is held releases it when it starts again', {
    timeout: 150_000,
  }, async () => {
    const { store, sourceId } = await auditableSource()
    const provider = await testProviderClient([sourceId])
    const first = await startTestAgent({ client: provider, store, sources: [sourceId] })
    const { taskId } = await submitTestTask({
      sourceId,
      input: await store.put(new TextEncoder().encode('restart')),
    })
    let stopped = false
    try {
      // The result is held for two blocks (about two seconds): stop the agent as soon as it journals that.
      await until(
        async () => (await journalEntry(first.dataDir, taskId))?.step === 'held',
        60_000,
        'the journal to say held',
        20,
      )
      await first.stop()
      stopped = true
    } finally {
      if (!stopped) await first.stop()
    }
    const journaled = await journalEntry(first.dataDir, taskId)
    expect(journaled).toMatchObject({ step: 'held' })
    expect(journaled?.submittedBlock).toMatch(/^\d+$/)

    const second = await startTestAgent({
      client: provider,
      store,
      sources: [sourceId],
      dataDir: first.dataDir,
      releaseWaitSec: 0,
    })
    try {
      expect(second.lines.some((line) => line.msg === 'resuming task' && line.step === 'held')).toBe(true)
      const task = await waitForTaskState(taskId, (t) => t.status === 'Completed', 120_000)
      expect(task.slots[0]?.provider).toBe(provider.account.address)
      expect(await balanceOf(provider.account.address)).toBeGreaterThan(0n)
      await until(
        async () => (await journalEntry(first.dataDir, taskId))?.step === 'done',
        10_000,
        'the journal to say done',
      )
      expect(await resultSubmissions(taskId)).toEqual([provider.account.address])
    } finally {
      await second.stop()
    }
  })
})
