import { describe, expect, it } from 'vitest'
import { deployment, fundedClient } from '../../test/chain.js'
import { ContractRevertedError } from '../errors/contract.js'
import { InvalidParametersError } from '../errors/validation.js'
import { deactivateSource } from './deactivateSource.js'
import { getSource } from './getSource.js'
import { publishSource } from './publishSource.js'

const metadata = 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku'
const digest = `0x${'ab'.repeat(32)}` as const

describe('getSource', () => {
  it('reads a source as a friendly object, at the latest block or an earlier one', async () => {
    const client = await fundedClient({ grid: '0' })
    const published = await publishSource(client, {
      deployment: deployment(),
      imageDigest: digest,
      metadata,
      requirements: { minGpus: 1, minVramMiB: 8_192, maxRuntimeSec: 600 },
      creatorFeeBps: 250,
      failureFeeBps: 1_500,
    })
    await deactivateSource(client, { deployment: deployment(), sourceId: published.sourceId })
    const block = await client.getBlock({ blockNumber: published.blockNumber })
    const source = await getSource(client, { deployment: deployment(), sourceId: BigInt(published.sourceId) })
    expect(source).toEqual({
      sourceId: published.sourceId,
      owner: client.account.address,
      active: false,
      publishedAt: new Date(Number(block.timestamp) * 1000),
      imageDigest: digest,
      metadata,
      requirements: {
        minGpus: 1,
        minVramMiB: 8_192,
        minComputeCapability: 0,
        maxRuntimeSec: 600,
        deterministic: false,
      },
      creatorFeeBps: 250,
      predecessor: undefined,
      failureFeeBps: 1_500,
      validator: undefined,
    })
    const before = await getSource(client, {
      deployment: deployment(),
      sourceId: published.sourceId,
      blockNumber: published.blockNumber,
    })
    expect(before.active).toBe(true)
  })

  it('rejects an unknown id with the contract error and a bad id before any call', async () => {
    const client = await fundedClient({ grid: '0' })
    const unknown = await getSource(client, { deployment: deployment(), sourceId: 4_000_000_000 }).catch(
      (error: unknown) => error,
    )
    expect(unknown).toBeInstanceOf(ContractRevertedError)
    expect((unknown as ContractRevertedError).errorName).toBe('SourceRegistryUnknownSource')
    expect((unknown as ContractRevertedError).args).toEqual([4_000_000_000])
    const bad = await getSource(client, { deployment: deployment(), sourceId: 2 ** 32 }).catch(
      (error: unknown) => error,
    )
    expect(bad).toBeInstanceOf(InvalidParametersError)
    expect((bad as InvalidParametersError).fields[0]?.path).toBe('sourceId')
  })
})
