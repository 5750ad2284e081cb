import { join } from 'node:path'
import { expect, test } from 'vitest'
import { openJournal } from '../../src/agent/journal.js'
import {
  publishTestImageSource,
  resultSubmissions,
  startTestAgent,
  submitTestTask,
  testProviderClient,
  testStore,
  waitForTaskState,
} from '../harness.js'

test('two agents race for a one-slot task: exactly one runs it', async () => {
  const { store } = await testStore()
  const sourceId = await publishTestImageSource({
    store,
    command: ['sh', '-c', 'echo ran > "$GRIDFORGE_OUTPUT_DIR"/out'],
  })
  const agents = await Promise.all(
    [0, 1].map(async () =>
      startTestAgent({ client: await testProviderClient([sourceId]), store, sources: [sourceId] }),
    ),
  )
  try {
    const { taskId } = await submitTestTask({
      sourceId,
      input: await store.put(new TextEncoder().encode('x')),
    })
    const task = await waitForTaskState(taskId, (t) => t.status === 'Completed', 60_000)
    const winner = agents.find((agent) => agent.address === task.slots[0]?.provider)
    const loser = agents.find((agent) => agent !== winner)
    expect(winner).toBeDefined()
    expect(await resultSubmissions(taskId)).toEqual([winner?.address])
    const runs = agents.flatMap((agent) =>
      agent.lines.filter((line) => line.msg === 'running' && line.taskId === String(taskId)),
    )
    expect(runs).toHaveLength(1)
    expect(runs[0]?.provider).toBe(winner?.address)
    const loserJournal = await openJournal(join(loser?.dataDir as string, 'journal'))
    expect(await loserJournal.get(taskId)).toBeUndefined()
  } finally {
    await Promise.all(agents.map((agent) => agent.stop()))
  }
})
