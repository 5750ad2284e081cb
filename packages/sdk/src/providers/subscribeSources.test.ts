import { describe, expect, it } from 'vitest'
import { deployment, fundedClient } from '../../test/chain.js'
import { ContractRevertedError } from '../errors/contract.js'
import { InvalidParametersError } from '../errors/validation.js'
import { publishSource } from '../sources/publishSource.js'
import { stake } from '../staking/stake.js'
import { isSubscribed } from './isSubscribed.js'
import { registerProvider } from './registerProvider.js'
import { subscribeSources } from './subscribeSources.js'

const cid = 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku'

async function registeredProvider() {
  const client = await fundedClient({ grid: '100' })
  await stake(client, { deployment: deployment(), amount: '100', permit: true })
  await registerProvider(client, {
    deployment: deployment(),
    capabilities: { gpuCount: 1, vramMiB: 8_192, computeCapability: 80, cpuCores: 4, memoryMiB: 16_384 },
    profile: cid,
  })
  return client
}

async function newSource(client: Awaited<ReturnType<typeof fundedClient>>) {
  const { sourceId } = await publishSource(client, {
    deployment: deployment(),
    imageDigest: `0x${'55'.repeat(32)}`,
    metadata: cid,
  })
  return sourceId
}

describe('subscribeSources', () => {
  it('joins the pools and returns only the ids newly joined', async () => {
    const client = await registeredProvider()
    const first = await newSource(client)
    const second = await newSource(client)
    const result = await subscribeSources(client, {
      deployment: deployment(),
      sourceIds: [first, BigInt(second)],
    })
    expect(result.subscribed).toEqual([first, second])
    expect(await isSubscribed(client, { deployment: deployment(), sourceId: second })).toBe(true)
    const again = await subscribeSources(client, { deployment: deployment(), sourceIds: [second, first] })
    expect(again.subscribed).toEqual([])
  })

  it('turns unknown sources and unregistered accounts into typed reverts', async () => {
    const client = await registeredProvider()
    const unknown = await subscribeSources(client, {
      deployment: deployment(),
      sourceIds: [4_000_000_000],
    }).catch((error: unknown) => error)
    expect(unknown).toBeInstanceOf(ContractRevertedError)
    expect((unknown as ContractRevertedError).errorName).toBe('ProviderRegistryUnknownSource')
    expect((unknown as ContractRevertedError).hint).toBe('source 4000000000 does not exist')
    const stranger = await fundedClient({ grid: '0' })
    const sourceId = await newSource(stranger)
    const unregistered = await subscribeSources(stranger, {
      deployment: deployment(),
      sourceIds: [sourceId],
    }).catch((error: unknown) => error)
    expect((unregistered as ContractRevertedError).errorName).toBe('ProviderRegistryNotRegistered')
  })

  it('refuses empty, oversized and malformed lists before sending', async () => {
    const client = await fundedClient({ grid: '0' })
    for (const sourceIds of [[], Array.from({ length: 101 }, (_, index) => index + 1), [1, -2]]) {
      const error = await subscribeSources(client, { deployment: deployment(), sourceIds }).catch(
        (error: unknown) => error,
      )
      expect(error).toBeInstanceOf(InvalidParametersError)
      expect((error as InvalidParametersError).fields[0]?.path).toMatch(/^sourceIds/)
    }
    const tooMany = await subscribeSources(client, {
      deployment: deployment(),
      sourceIds: Array.from({ length: 101 }, (_, index) => index + 1),
    }).catch((error: unknown) => error)
    expect((tooMany as InvalidParametersError).fields[0]?.message).toBe(
      'at most 100 ids per call: split the list',
    )
    expect(await client.getTransactionCount({ address: client.account.address })).toBe(0)
  })
})
