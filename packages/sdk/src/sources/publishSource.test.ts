import { describe, expect, it } from 'vitest'
import { deployment, fundedClient } from '../../test/chain.js'
import { ContractRevertedError } from '../errors/contract.js'
import { InvalidParametersError } from '../errors/validation.js'
import { getSource } from './getSource.js'
import { publishSource } from './publishSource.js'

const metadata = 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku'
const digest = `0x${'ab'.repeat(32)}` as const

describe('publishSource', () => {
  it('publishes with defaults and returns the new id and owner', async () => {
    const client = await fundedClient({ grid: '0' })
    const result = await publishSource(client, { deployment: deployment(), imageDigest: digest, metadata })
    expect(result.sourceId).toBeGreaterThan(0)
    expect(result.owner).toBe(client.account.address)
    expect(result.hash).toMatch(/^0x[0-9a-f]{64}$/)
    const source = await getSource(client, { deployment: deployment(), sourceId: result.sourceId })
    expect(source).toMatchObject({
      owner: client.account.address,
      active: true,
      imageDigest: digest,
      metadata,
      creatorFeeBps: 0,
      predecessor: undefined,
      failureFeeBps: 0,
      validator: undefined,
      requirements: {
        minGpus: 0,
        minVramMiB: 0,
        minComputeCapability: 0,
        maxRuntimeSec: 3600,
        deterministic: false,
      },
    })
  })

  it('takes sha256: digests, durations, a creator fee and a predecessor it owns', async () => {
    const client = await fundedClient({ grid: '0' })
    const first = await publishSource(client, { deployment: deployment(), imageDigest: digest, metadata })
    const { sourceId } = await publishSource(client, {
      deployment: deployment(),
      imageDigest: `sha256:${'CD'.repeat(32)}`,
      metadata,
      requirements: {
        minGpus: 2,
        minVramMiB: 24_576,
        minComputeCapability: 89,
        maxRuntimeSec: '2h',
        deterministic: true,
      },
      creatorFeeBps: 5_000,
      predecessor: first.sourceId,
    })
    const source = await getSource(client, { deployment: deployment(), sourceId })
    expect(source.imageDigest).toBe(`0x${'cd'.repeat(32)}`)
    expect(source.requirements).toEqual({
      minGpus: 2,
      minVramMiB: 24_576,
      minComputeCapability: 89,
      maxRuntimeSec: 7_200,
      deterministic: true,
    })
    expect(source.creatorFeeBps).toBe(5_000)
    expect(source.predecessor).toBe(first.sourceId)
  })

  it('names every bad field before sending anything', async () => {
    const client = await fundedClient({ grid: '0' })
    const error = await publishSource(client, {
      deployment: deployment(),
      imageDigest: `0x${'00'.repeat(32)}`,
      metadata: 'not-a-cid',
      requirements: { maxRuntimeSec: '8d', minGpus: 256 },
      creatorFeeBps: 5_001,
      predecessor: -1,
      failureFeeBps: 10_001,
      validator: 2n ** 32n,
    }).catch((error: unknown) => error)
    expect(error).toBeInstanceOf(InvalidParametersError)
    expect((error as InvalidParametersError).fields.map((field) => field.path)).toEqual([
      'imageDigest',
      'metadata',
      'requirements.minGpus',
      'requirements.maxRuntimeSec',
      'creatorFeeBps',
      'predecessor',
      'failureFeeBps',
      'validator',
    ])
    expect((error as InvalidParametersError).fields[6]?.message).toBe(
      'expected a whole number from 0 to 10000',
    )
    expect((error as InvalidParametersError).fields[0]?.message).toContain('must not be zero')
    const malformed = await publishSource(client, {
      deployment: deployment(),
      imageDigest: 'sha256:abc' as never,
      metadata,
    }).catch((error: unknown) => error)
    expect((malformed as InvalidParametersError).fields).toEqual([
      {
        path: 'imageDigest',
        message: 'expected the image manifest digest: 0x or sha256: followed by 64 hex digits',
      },
    ])
    expect(await client.getTransactionCount({ address: client.account.address })).toBe(0)
  })

  it('takes a failure fee and a validator: a published deterministic source with no longer a runtime limit', async () => {
    const client = await fundedClient({ grid: '0' })
    const checker = await publishSource(client, {
      deployment: deployment(),
      imageDigest: digest,
      metadata,
      requirements: { maxRuntimeSec: '10m', deterministic: true },
    })
    const { sourceId } = await publishSource(client, {
      deployment: deployment(),
      imageDigest: digest,
      metadata,
      requirements: { maxRuntimeSec: '1h' },
      failureFeeBps: 2_500,
      validator: BigInt(checker.sourceId),
    })
    expect(await getSource(client, { deployment: deployment(), sourceId })).toMatchObject({
      failureFeeBps: 2_500,
      validator: checker.sourceId,
    })
    const whole = await publishSource(client, {
      deployment: deployment(),
      imageDigest: digest,
      metadata,
      failureFeeBps: 10_000,
    })
    expect(await getSource(client, { deployment: deployment(), sourceId: whole.sourceId })).toMatchObject({
      failureFeeBps: 10_000,
      validator: undefined,
    })
  })

  it('refuses a validator that is not deterministic, runs longer, or does not exist, with the contract error', async () => {
    const client = await fundedClient({ grid: '0' })
    const opaque = await publishSource(client, { deployment: deployment(), imageDigest: digest, metadata })
    const slow = await publishSource(client, {
      deployment: deployment(),
      imageDigest: digest,
      metadata,
      requirements: { maxRuntimeSec: '2h', deterministic: true },
    })
    for (const validator of [opaque.sourceId, slow.sourceId, 999_999]) {
      const error = await publishSource(client, {
        deployment: deployment(),
        imageDigest: digest,
        metadata,
        requirements: { maxRuntimeSec: '1h' },
        validator,
      }).catch((error: unknown) => error)
      expect(error).toBeInstanceOf(ContractRevertedError)
      expect((error as ContractRevertedError).errorName).toBe('SourceRegistryInvalidValidator')
      expect((error as ContractRevertedError).args).toEqual([validator])
      expect((error as ContractRevertedError).hint).toBe(
        `source ${validator} cannot validate this source: a validator must be a published, deterministic source whose maxRuntimeSec is no longer than this one's (check it with getSource), or 0 for none`,
      )
    }
  })

  it("refuses a new version of someone else's source with the contract error", async () => {
    const owner = await fundedClient({ grid: '0' })
    const other = await fundedClient({ grid: '0' })
    const { sourceId } = await publishSource(owner, {
      deployment: deployment(),
      imageDigest: digest,
      metadata,
    })
    const error = await publishSource(other, {
      deployment: deployment(),
      imageDigest: digest,
      metadata,
      predecessor: sourceId,
    }).catch((error: unknown) => error)
    expect(error).toBeInstanceOf(ContractRevertedError)
    expect((error as ContractRevertedError).errorName).toBe('SourceRegistryNotSourceOwner')
    expect((error as ContractRevertedError).args).toEqual([sourceId, other.account.address])
    expect((error as ContractRevertedError).hint).toContain(`does not own source ${sourceId}`)
  })

  it('refuses an unknown predecessor', async () => {
    const client = await fundedClient({ grid: '0' })
    const error = await publishSource(client, {
      deployment: deployment(),
      imageDigest: digest,
      metadata,
      predecessor: 4_000_000_000,
    }).catch((error: unknown) => error)
    expect((error as ContractRevertedError).errorName).toBe('SourceRegistryUnknownSource')
    expect((error as ContractRevertedError).hint).toBe(
      'source 4000000000 does not exist: check the id and the deployment',
    )
  })
})
