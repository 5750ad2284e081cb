import { getPriceFloor } from '@gridforge/sdk'
import { afterAll, describe, expect, test } from 'vitest'
import { fundedClient } from '../../../sdk/test/chain.js'
import { startTestAgent, testDeployment, testProviderClient, testStore } from '../harness.js'

describe('agent: publishes its price floor', () => {
  const stops: (() => Promise<void>)[] = []
  afterAll(async () => {
    for (const stop of stops) await stop()
  })

  test("publishes the policy's minPricePerGpuSecond at start when the chain holds another, and only then", async () => {
    const { store } = await testStore()
    const provider = await testProviderClient([])
    const deployment = testDeployment()
    expect(await getPriceFloor(provider, { deployment })).toBe(0n)

    const first = await startTestAgent({
      client: provider,
      store,
      sources: [],
      policy: { minPricePerGpuSecond: 10n ** 12n },
    })
    await first.stop()
    expect(await getPriceFloor(provider, { deployment })).toBe(10n ** 12n)
    const published = first.lines.filter((line) => line.msg === 'published price floor')
    expect(published).toHaveLength(1)
    expect(published[0]).toMatchObject({ minPricePerGpuSecond: '1000000000000', previous: '0' })

    // A restart with the same policy sends nothing.
    const again = await startTestAgent({
      client: provider,
      store,
      sources: [],
      policy: { minPricePerGpuSecond: 10n ** 12n },
    })
    await again.stop()
    expect(again.lines.filter((line) => line.msg === 'published price floor')).toEqual([])

    // A new policy is published once; a policy without a floor publishes 0 (any price).
    const lowered = await startTestAgent({ client: provider, store, sources: [], policy: {} })
    stops.push(() => lowered.stop())
    expect(lowered.lines.filter((line) => line.msg === 'published price floor')).toMatchObject([
      { minPricePerGpuSecond: '0', previous: '1000000000000' },
    ])
    expect(await getPriceFloor(provider, { deployment })).toBe(0n)
  })

  test('an unregistered account starts without publishing, and is told to register', async () => {
    const { store } = await testStore()
    const client = await fundedClient({ grid: '0' })
    const agent = await startTestAgent({ client, store, sources: [], policy: { minPricePerGpuSecond: 5n } })
    stops.push(() => agent.stop())
    expect(
      agent.lines.find(
        (line) => line.msg === 'price floor not published: this account is not a registered provider',
      ),
    ).toMatchObject({
      hint: 'register it first (gridforge-provider register)',
    })
    expect(agent.lines.some((line) => line.msg === 'agent started')).toBe(true)
    expect(await getPriceFloor(client, { deployment: testDeployment() })).toBe(0n)
  })
})
