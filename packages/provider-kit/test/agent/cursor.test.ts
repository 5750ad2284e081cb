import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import {
  publishTestImageSource,
  startTestAgent,
  submitTestTask,
  testProviderClient,
  testStore,
  waitForTaskState,
} from '../harness.js'

const cursorOf = async (dataDir: string) =>
  JSON.parse(await readFile(join(dataDir, 'cursor.json'), 'utf8')) as { block: string; tasks: string[] }

test('a restarted agent resumes from its journaled cursor and takes what was submitted while it was down', async () => {
  const { store } = await testStore()
  const sourceId = await publishTestImageSource({
    store,
    command: ['sh', '-c', 'wc -c < "$GRIDFORGE_INPUT_DIR"/input > "$GRIDFORGE_OUTPUT_DIR"/count'],
  })
  const provider = await testProviderClient([sourceId])
  const input = () => store.put(new TextEncoder().encode(`input ${Math.random()}`))

  const first = await startTestAgent({ client: provider, store, sources: [sourceId] })
  const { taskId: before } = await submitTestTask({ sourceId, input: await input() })
  await waitForTaskState(before, (task) => task.status === 'Completed')
  await first.stop()
  const cursor = await cursorOf(first.dataDir)
  expect(BigInt(cursor.block)).toBeGreaterThan(0n)

  const { taskId: whileDown } = await submitTestTask({ sourceId, input: await input() })
  const second = await startTestAgent({
    client: provider,
    store,
    sources: [sourceId],
    dataDir: first.dataDir,
  })
  try {
    // No backlog scan: it reads events from the block after its cursor.
    const started = second.lines.find((line) => line.msg === 'agent started')
    expect(started?.fromBlock).toBe(String(BigInt(cursor.block) + 1n))
    const task = await waitForTaskState(whileDown, (t) => t.status === 'Completed')
    expect(task.slots[0]?.provider).toBe(provider.account.address)
    expect(BigInt((await cursorOf(first.dataDir)).block)).toBeGreaterThan(BigInt(cursor.block))
  } finally {
    await second.stop()
  }
})
