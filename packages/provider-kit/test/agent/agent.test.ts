import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { getReceipt, getTaskResult } from '@gridforge/sdk'
import { getBytes } from '@gridforge/sdk/storage'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
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
  waitForTaskState,
} from '../harness.js'

describe('agent: a task from submission to a verified receipt', () => {
  let context: Awaited<ReturnType<typeof setup>>
  const setup = async () => {
    const { store } = await testStore()
    const sourceId = await publishTestImageSource({
      store,
      command: [
        'sh',
        '-c',
        'wc -c "$GRIDFORGE_INPUT_DIR"/input > "$GRIDFORGE_OUTPUT_DIR"/count; echo "ran $GRIDFORGE_TASK_ID"',
      ],
    })
    const provider = await testProviderClient([sourceId])
    const agent = await startTestAgent({ client: provider, store, sources: [sourceId] })
    return { store, sourceId, provider, agent }
  }
  beforeAll(async () => {
    context = await setup()
  })
  afterAll(() => context?.agent.stop())

  test('claims, runs in a container, stores output and logs, submits, and the receipt verifies', async () => {
    const { store, sourceId, provider, agent } = context
    const input = await store.put(new TextEncoder().encode('hello gridforge'))
    const { taskId } = await submitTestTask({ sourceId, input })
    const task = await waitForTaskState(taskId, (t) => t.status === 'Completed')
    expect(task.slots[0]?.provider).toBe(provider.account.address)
    expect(await resultSubmissions(taskId)).toEqual([provider.account.address])

    const result = await getTaskResult(deployerClient(), { deployment: testDeployment(), taskId })
    const count = new TextDecoder().decode(
      await getBytes(store, result.resultCID as string, { path: 'count' }),
    )
    expect(count.trim()).toBe(`15 /input/input`)

    const [receipt] = await getReceipt(deployerClient(), { deployment: testDeployment(), taskId, store })
    expect(receipt?.status).toBe('verified')
    const logs = new TextDecoder().decode(await getBytes(store, receipt?.receipt?.logsCID as string))
    expect(logs).toBe(`ran ${taskId}\n`)

    const journal = await openJournal(join(agent.dataDir, 'journal'))
    const entry = await journal.get(taskId)
    expect(entry?.step).toBe('done')
    expect(
      JSON.parse(await readFile(join(agent.dataDir, 'journal', `${taskId}.json`), 'utf8')).run.outcome,
    ).toBe('exited')
  })
})
