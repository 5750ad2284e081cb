import { appendFile } from 'node:fs/promises'
import { join } from 'node:path'
import { getReputation, getWalletBalance } from '@gridforge/sdk'
import { expect, test } from 'vitest'
import { deployerClient } from '../../../sdk/test/chain.js'
import type { ContainerRuntime } from '../../src/runtime/ContainerRuntime.js'
import { dockerRuntime } from '../../src/runtime/dockerRuntime.js'
import {
  publishTestImageSource,
  startTestAgent,
  submitTestTask,
  testDeployment,
  testProviderClient,
  testStore,
  waitForTaskState,
} from '../harness.js'

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

test('k = 3 consensus: the agent whose output differs is outvoted and slashed, the two others are paid', async () => {
  const { store } = await testStore()
  const sourceId = await publishTestImageSource({
    store,
    deterministic: true,
    command: ['sh', '-c', 'cat "$GRIDFORGE_INPUT_DIR"/input | tr a-z A-Z > "$GRIDFORGE_OUTPUT_DIR"/out'],
  })
  const [honestA, honestB, liar] = await Promise.all([0, 1, 2].map(() => testProviderClient([sourceId])))
  const agents = await Promise.all([
    startTestAgent({ client: honestA!, store, sources: [sourceId] }),
    startTestAgent({ client: honestB!, store, sources: [sourceId] }),
    startTestAgent({ client: liar!, store, sources: [sourceId], runtime: tamperingRuntime(dockerRuntime()) }),
  ])
  try {
    const { taskId } = await submitTestTask({
      sourceId,
      replicas: 3,
      input: await store.put(new TextEncoder().encode('consensus')),
    })
    const task = await waitForTaskState(
      taskId,
      (t) => t.status === 'Completed' || t.status === 'Failed',
      90_000,
    )
    expect(task.status).toBe('Completed')
    const deployment = testDeployment()
    const reputation = await getReputation(deployerClient(), { deployment, provider: liar!.account.address })
    expect(reputation.outvoted).toBe(1)
    expect(reputation.slashedAmount).toBeGreaterThan(0n)
    for (const honest of [honestA!, honestB!]) {
      const { balance } = await getWalletBalance(deployerClient(), {
        deployment,
        account: honest.account.address,
      })
      expect(balance).toBeGreaterThan(0n)
      expect(
        (await getReputation(deployerClient(), { deployment, provider: honest.account.address })).outvoted,
      ).toBe(0)
    }
    const { balance: liarBalance } = await getWalletBalance(deployerClient(), {
      deployment,
      account: liar!.account.address,
    })
    expect(liarBalance).toBe(0n)
  } finally {
    await Promise.all(agents.map((agent) => agent.stop()))
  }
})
