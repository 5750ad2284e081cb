import { describe, expect, it } from 'vitest'
import { deployment, fundedClient } from '../../test/chain.js'
import type { InvalidParametersError } from '../errors/validation.js'
import { publishSource } from '../sources/publishSource.js'
import { stake } from '../staking/stake.js'
import { isSubscribed } from './isSubscribed.js'
import { registerProvider } from './registerProvider.js'
import { subscribeSources } from './subscribeSources.js'

const cid = 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku'

describe('isSubscribed', () => {
  it("tells whether a provider is in a source's pool", async () => {
    const client = await fundedClient({ grid: '100' })
    const reader = await fundedClient({ grid: '0' })
    await stake(client, { deployment: deployment(), amount: '100', permit: true })
    await registerProvider(client, {
      deployment: deployment(),
      capabilities: { gpuCount: 0, vramMiB: 0, computeCapability: 0, cpuCores: 2, memoryMiB: 4_096 },
      profile: cid,
    })
    const { sourceId } = await publishSource(client, {
      deployment: deployment(),
      imageDigest: `0x${'77'.repeat(32)}`,
      metadata: cid,
    })
    const provider = client.account.address
    expect(await isSubscribed(reader, { deployment: deployment(), provider, sourceId })).toBe(false)
    const { blockNumber } = await subscribeSources(client, {
      deployment: deployment(),
      sourceIds: [sourceId],
    })
    expect(await isSubscribed(reader, { deployment: deployment(), provider, sourceId })).toBe(true)
    expect(await isSubscribed(client, { deployment: deployment(), sourceId })).toBe(true)
    expect(
      await isSubscribed(reader, {
        deployment: deployment(),
        provider,
        sourceId,
        blockNumber: blockNumber - 1n,
      }),
    ).toBe(false)
  })

  it('names bad parameters', async () => {
    const client = await fundedClient({ grid: '0' })
    const error = await isSubscribed(client, {
      deployment: deployment(),
      provider: 'p' as never,
      sourceId: 1.5,
    }).catch((error: unknown) => error)
    expect((error as InvalidParametersError).fields.map((field) => field.path)).toEqual([
      'provider',
      'sourceId',
    ])
  })
})
