import { afterAll, describe, expect, test } from 'vitest'
import {
  publishTestImageSource,
  startTestAgent,
  submitTestTask,
  testProviderClient,
  testStore,
  until,
  waitForTaskState,
} from '../harness.js'

describe('agent: a task it cannot prepare yet', () => {
  const stops: (() => Promise<void>)[] = []
  afterAll(async () => {
    for (const stop of stops) await stop()
  })

  test('is postponed (not retried on every scan, nothing claimed) and taken once its input is there', async () => {
    const { store } = await testStore()
    const sourceId = await publishTestImageSource({
      store,
      command: ['sh', '-c', 'wc -c < "$GRIDFORGE_INPUT_DIR"/input > "$GRIDFORGE_OUTPUT_DIR"/count'],
    })
    const provider = await testProviderClient([sourceId])
    const agent = await startTestAgent({ client: provider, store, sources: [sourceId] })
    stops.push(() => agent.stop())

    // The input's CID, computed by an empty scratch store: the agent's store does not have the bytes.
    const bytes = new TextEncoder().encode('not there yet')
    const input = await (await testStore()).store.put(bytes)
    const { taskId } = await submitTestTask({ sourceId, input })
    const postponements = () =>
      agent.lines.filter((line) => line.msg === 'task postponed' && line.taskId === String(taskId))
    await until(() => postponements().length > 0, 30_000, 'a postponement')
    // Rescans every 2 s, postponed for two of them: a handful of tries in 9 s, not hundreds.
    await new Promise((resolve) => setTimeout(resolve, 9_000))
    expect(postponements().length).toBeGreaterThanOrEqual(2)
    expect(postponements().length).toBeLessThanOrEqual(4)
    expect(agent.lines.filter((line) => line.msg === 'task failed')).toEqual([])
    expect((await waitForTaskState(taskId, () => true)).status).toBe('Open')

    // The bytes arrive in the agent's store: the next try takes the task.
    expect(await store.put(bytes)).toBe(input)
    const task = await waitForTaskState(taskId, (t) => t.status === 'Completed')
    expect(task.slots[0]?.provider).toBe(provider.account.address)
  })
})
