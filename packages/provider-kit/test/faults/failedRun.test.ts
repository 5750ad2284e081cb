import { join } from 'node:path'
import { getReceipt, getStake } from '@gridforge/sdk'
import { getBytes } from '@gridforge/sdk/storage'
import { expect, test } from 'vitest'
import { deployerClient } from '../../../sdk/test/chain.js'
import { openJournal } from '../../src/agent/journal.js'
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

test('containers that fail by their own doing are reported with their logs and paid the failure terms: a non-zero exit, a missing command, a timeout at the task limit', {
  timeout: 120_000,
}, async () => {
  const { store } = await testStore()
  const failureFeeBps = 2_500
  const sources = {
    exits: await publishTestImageSource({
      store,
      failureFeeBps,
      command: ['sh', '-c', 'echo "no input I like" >&2; exit 3'],
    }),
    missing: await publishTestImageSource({ store, failureFeeBps, command: ['/no/such/executable'] }),
    // Killed at the task's runtime limit (the agent's margin leaves it the whole limit).
    sleeps: await publishTestImageSource({
      store,
      failureFeeBps,
      maxRuntimeSec: 3,
      command: ['sleep', '60'],
    }),
  }
  const ids = Object.values(sources)
  const provider = await testProviderClient(ids)
  const agent = await startTestAgent({ client: provider, store, sources: ids })
  try {
    const journal = await openJournal(join(agent.dataDir, 'journal'))
    const expected = {
      exits: { kind: 'exited', exitCode: 3 },
      missing: { kind: 'exited', exitCode: 127 },
      sleeps: { kind: 'timedOut' },
    } as const
    const tasks: Record<string, bigint> = {}
    for (const [name, sourceId] of Object.entries(sources))
      tasks[name] = (
        await submitTestTask({ sourceId, input: await store.put(new TextEncoder().encode(name)) })
      ).taskId
    for (const [name, failure] of Object.entries(expected)) {
      const taskId = tasks[name] as bigint
      const task = await waitForTaskState(taskId, (t) => t.status === 'Completed', 60_000)
      expect(task, name).toMatchObject({ failed: true, failure })
      expect(task.slots[0]?.status, name).toBe('Submitted')
      expect(await resultSubmissions(taskId)).toEqual([provider.account.address])
      await until(async () => (await journal.get(taskId))?.step === 'done', 10_000, `${name} journaled done`)
      expect((await journal.get(taskId))?.failure, name).toEqual(failure)

      // The receipt verifies: its output is the logs handed in; an exit code is the one on chain.
      const [receipt] = await getReceipt(deployerClient(), { deployment: testDeployment(), taskId, store })
      expect(receipt?.status, name).toBe('verified')
      expect(receipt?.receipt?.outputCID).toBe(receipt?.receipt?.logsCID)
    }
    const logs = await getBytes(store, (await journal.get(tasks.exits as bigint))?.run?.logsCID as string)
    expect(new TextDecoder().decode(logs)).toBe('no input I like\n')
    // Never slashed: every collateral is unlocked.
    const stake = await getStake(deployerClient(), {
      deployment: testDeployment(),
      account: provider.account.address,
    })
    expect(stake.locked).toBe(0n)
  } finally {
    await agent.stop()
  }
})
