import { describe, expect, it } from 'vitest'
import { deployment, fundedClient } from '../../test/chain.js'
import { InvalidParametersError } from '../errors/validation.js'
import { publishSource } from '../sources/publishSource.js'
import { stake } from '../staking/stake.js'
import { isSubscribed } from './isSubscribed.js'
import { registerProvider } from './registerProvider.js'
import { subscribeSources } from './subscribeSources.js'
import { unsubscribeSources } from './unsubscribeSources.js'

const cid = 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku'

describe('unsubscribeSources', () => {
  it('leaves the pools and returns only the ids actually left', async () => {
    const client = await fundedClient({ grid: '100' })
    await stake(client, { deployment: deployment(), amount: '100', permit: true })
    await registerProvider(client, {
      deployment: deployment(),
      capabilities: { gpuCount: 0, vramMiB: 0, computeCapability: 0, cpuCores: 2, memoryMiB: 4_096 },
      profile: cid,
    })
    const publish = async () =>
      (
        await publishSource(client, {
          deployment: deployment(),
          imageDigest: `0x${'66'.repeat(32)}`,
          metadata: cid,
        })
      ).sourceId
    const [first, second, other] = [await publish(), await publish(), await publish()]
    await subscribeSources(client, { deployment: deployment(), sourceIds: [first, second] })
    const result = await unsubscribeSources(client, { deployment: deployment(), sourceIds: [first, other] })
    expect(result.unsubscribed).toEqual([first])
    expect(await isSubscribed(client, { deployment: deployment(), sourceId: first })).toBe(false)
    expect(await isSubscribed(client, { deployment: deployment(), sourceId: second })).toBe(true)
  })

  it('is a no-op for an account with no subscriptions, and refuses bad lists', async () => {
    const client = await fundedClient({ grid: '0' })
    const result = await unsubscribeSources(client, { deployment: deployment(), sourceIds: [1, 2] })
    expect(result.unsubscribed).toEqual([])
    const error = await unsubscribeSources(client, {
      deployment: deployment(),
      sourceIds: 'all' as never,
    }).catch((error: unknown) => error)
    expect(error).toBeInstanceOf(InvalidParametersError)
    expect((error as InvalidParametersError).fields).toEqual([
      { path: 'sourceIds', message: 'expected a list of source ids' },
    ])
  })
})
