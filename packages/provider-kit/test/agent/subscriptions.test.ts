import { subscribeSources } from '@gridforge/sdk'
import { afterAll, describe, expect, test } from 'vitest'
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

describe('agent: on-chain subscriptions decide when the policy names no sources', () => {
  const stops: (() => Promise<void>)[] = []
  afterAll(async () => {
    for (const stop of stops) await stop()
  })

  test('leaves tasks of a source it is not subscribed to, and takes them once it subscribes', async () => {
    const { store } = await testStore()
    const sourceId = await publishTestImageSource({
      store,
      command: ['sh', '-c', 'wc -c < "$GRIDFORGE_INPUT_DIR"/input > "$GRIDFORGE_OUTPUT_DIR"/count'],
    })
    const provider = await testProviderClient([])
    const agent = await startTestAgent({
      client: provider,
      store,
      sources: [],
      policy: { sources: undefined },
    })
    stops.push(() => agent.stop())

    const input = await store.put(new TextEncoder().encode('subscribe me'))
    const { taskId } = await submitTestTask({ sourceId, input })
    // Two rescans (every 2 s): the task stays open, nothing is claimed.
    await new Promise((resolve) => setTimeout(resolve, 4_500))
    expect((await waitForTaskState(taskId, () => true)).status).toBe('Open')

    // Subscribing while the agent runs: the next scan reads the subscription again and takes the task.
    await subscribeSources(provider, { deployment: testDeployment(), sourceIds: [sourceId] })
    const task = await waitForTaskState(taskId, (t) => t.status === 'Completed')
    expect(task.slots[0]?.provider).toBe(provider.account.address)
    expect(await resultSubmissions(taskId)).toEqual([provider.account.address])
  })

  test('a claim the market refuses (not subscribed) is refused once, not tried again on every scan', async () => {
    const { store } = await testStore()
    const sourceId = await publishTestImageSource({
      store,
      command: ['sh', '-c', 'wc -c < "$GRIDFORGE_INPUT_DIR"/input > "$GRIDFORGE_OUTPUT_DIR"/count'],
    })
    const provider = await testProviderClient([])
    // The policy names the source, so the agent does not read the subscription and tries to claim.
    const agent = await startTestAgent({ client: provider, store, sources: [sourceId] })
    stops.push(() => agent.stop())

    const input = await store.put(new TextEncoder().encode('refused'))
    const { taskId } = await submitTestTask({ sourceId, input })
    await until(() => agent.lines.some((line) => line.msg === 'task refused'), 30_000)
    // Three rescans later: still one refusal, no other attempt, nothing claimed.
    await new Promise((resolve) => setTimeout(resolve, 6_500))
    const refusals = agent.lines.filter(
      (line) => line.msg === 'task refused' && line.taskId === String(taskId),
    )
    expect(refusals).toHaveLength(1)
    expect(String(refusals[0]?.reason)).toContain('ProviderRegistryNotSubscribed')
    expect(agent.lines.filter((line) => line.msg === 'task failed')).toEqual([])
    expect((await waitForTaskState(taskId, () => true)).status).toBe('Open')
  })
})
