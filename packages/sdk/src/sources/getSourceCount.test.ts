import { describe, expect, it } from 'vitest'
import { deployment, fundedClient } from '../../test/chain.js'
import { getSourceCount } from './getSourceCount.js'
import { publishSource } from './publishSource.js'

describe('getSourceCount', () => {
  it('is the highest id, at the latest block or an earlier one', async () => {
    const client = await fundedClient({ grid: '0' })
    const { sourceId, blockNumber } = await publishSource(client, {
      deployment: deployment(),
      imageDigest: `0x${'44'.repeat(32)}`,
      metadata: 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku',
    })
    expect(await getSourceCount(client, { deployment: deployment(), blockNumber })).toBe(sourceId)
    expect(await getSourceCount(client, { deployment: deployment() })).toBeGreaterThanOrEqual(sourceId)
    expect(
      await getSourceCount(client, { deployment: deployment(), blockNumber: blockNumber - 1n }),
    ).toBeLessThan(sourceId)
  })
})
