import { join } from 'node:path'
import { expect, test } from 'vitest'
import { testClient } from '../../../sdk/test/chain.js'
import { openJournal } from '../../src/agent/journal.js'
import {
  publishTestImageSource,
  resultSubmissions,
  startTestAgent,
  submitTestTask,
  testProviderClient,
  testStore,
  until,
  waitForTaskState,
} from '../harness.js'

test("a container killed before the task's runtime limit (the agent's own deadline) is not submitted, and another agent completes the reopened slot", async () => {
  const { store } = await testStore()
  // maxRuntimeSec 60: a claim is due 60 s + the market's 5 min grace after it is made.
  const sourceId = await publishTestImageSource({
    store,
    maxRuntimeSec: 60,
    command: ['sh', '-c', 'sleep 6; echo done > "$GRIDFORGE_OUTPUT_DIR"/out'],
  })
  const slow = await testProviderClient([sourceId])
  const fast = await testProviderClient([sourceId])
  // Keeping 357 of the 360 s for submitting leaves the container 3 s: it is killed at its deadline, well before
  // the task's 60 s limit. That is the agent's doing, not the workload's: no failure to report (see failedRun.test.ts).
  const first = await startTestAgent({ client: slow, store, sources: [sourceId], submitMarginSec: 357 })
  const { taskId } = await submitTestTask({ sourceId, input: await store.put(new TextEncoder().encode('x')) })

  const journal = await openJournal(join(first.dataDir, 'journal'))
  await until(async () => (await journal.get(taskId))?.step === 'abandoned', 60_000, 'the timeout')
  const entry = await journal.get(taskId)
  expect(entry?.run?.outcome).toBe('timeout')
  expect(entry?.reason).toMatch(/timeout.*nothing submitted/)
  await first.stop()
  expect(await resultSubmissions(taskId)).toEqual([])
  expect((await waitForTaskState(taskId, () => true)).slots[0]?.provider).toBe(slow.account.address)

  // After the claim's deadline, another agent reopens the slot and completes it.
  await testClient().increaseTime({ seconds: 400 })
  await testClient().mine({ blocks: 1 })
  const second = await startTestAgent({ client: fast, store, sources: [sourceId] })
  try {
    const task = await waitForTaskState(taskId, (t) => t.status === 'Completed', 60_000)
    expect(task.slots[0]?.provider).toBe(fast.account.address)
    expect(await resultSubmissions(taskId)).toEqual([fast.account.address])
  } finally {
    await second.stop()
  }
})
