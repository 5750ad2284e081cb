import { describe, expect, it } from 'vitest'
import { deployment, fundedClient } from '../../test/chain.js'
import { ContractRevertedError } from '../errors/contract.js'
import type { InvalidParametersError } from '../errors/validation.js'
import { stake } from '../staking/stake.js'
import { getProvider } from './getProvider.js'
import { registerProvider } from './registerProvider.js'
import { updateCapabilities } from './updateCapabilities.js'

const profile = 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku'
const newProfile = 'bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi'

describe('updateCapabilities', () => {
  it("replaces a provider's capabilities and profile", async () => {
    const client = await fundedClient({ grid: '100' })
    await stake(client, { deployment: deployment(), amount: '100', permit: true })
    await registerProvider(client, {
      deployment: deployment(),
      capabilities: { gpuCount: 1, vramMiB: 8_192, computeCapability: 75, cpuCores: 4, memoryMiB: 16_384 },
      profile,
    })
    const capabilities = {
      gpuCount: 4,
      vramMiB: 81_920,
      computeCapability: 90,
      cpuCores: 64,
      memoryMiB: 524_288,
    }
    const result = await updateCapabilities(client, {
      deployment: deployment(),
      capabilities,
      profile: newProfile,
    })
    expect(result).toMatchObject({ provider: client.account.address, capabilities, profile: newProfile })
    expect((await getProvider(client, { deployment: deployment() })).capabilities).toEqual(capabilities)
  })

  it('turns an update by an unregistered account into a typed revert', async () => {
    const client = await fundedClient({ grid: '0' })
    const error = await updateCapabilities(client, {
      deployment: deployment(),
      capabilities: { gpuCount: 0, vramMiB: 0, computeCapability: 0, cpuCores: 1, memoryMiB: 1 },
      profile,
    }).catch((error: unknown) => error)
    expect(error).toBeInstanceOf(ContractRevertedError)
    expect((error as ContractRevertedError).errorName).toBe('ProviderRegistryNotRegistered')
    expect((error as ContractRevertedError).hint).toBe(
      'this account is not a registered provider: register first',
    )
  })

  it('names bad capabilities before sending', async () => {
    const client = await fundedClient({ grid: '0' })
    const error = await updateCapabilities(client, {
      deployment: deployment(),
      capabilities: { gpuCount: 1, vramMiB: 1, computeCapability: 1.5, cpuCores: 70_000, memoryMiB: 1 },
      profile: 'ipfs://nope',
    }).catch((error: unknown) => error)
    expect((error as InvalidParametersError).fields.map((field) => field.path)).toEqual([
      'capabilities.computeCapability',
      'capabilities.cpuCores',
      'profile',
    ])
  })
})
