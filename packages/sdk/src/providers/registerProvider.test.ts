import { describe, expect, it } from 'vitest'
import { deployment, fundedClient } from '../../test/chain.js'
import { ContractRevertedError } from '../errors/contract.js'
import { InvalidParametersError } from '../errors/validation.js'
import { stake } from '../staking/stake.js'
import { getProvider } from './getProvider.js'
import { registerProvider } from './registerProvider.js'

const profile = 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku'
const capabilities = { gpuCount: 2, vramMiB: 24_576, computeCapability: 89, cpuCores: 16, memoryMiB: 65_536 }

describe('registerProvider', () => {
  it('registers a staked account with its capabilities', async () => {
    const client = await fundedClient({ grid: '100' })
    await stake(client, { deployment: deployment(), amount: '100', permit: true })
    const result = await registerProvider(client, { deployment: deployment(), capabilities, profile })
    expect(result).toMatchObject({ provider: client.account.address, capabilities, profile })
    const provider = await getProvider(client, { deployment: deployment() })
    expect(provider).toMatchObject({ registered: true, paused: false, capabilities })
  })

  it('turns registering without enough stake into a typed revert that says how much more', async () => {
    const client = await fundedClient({ grid: '100' })
    await stake(client, { deployment: deployment(), amount: '40', permit: true })
    const error = await registerProvider(client, { deployment: deployment(), capabilities, profile }).catch(
      (error: unknown) => error,
    )
    expect(error).toBeInstanceOf(ContractRevertedError)
    const reverted = error as ContractRevertedError
    expect(reverted.errorName).toBe('ProviderRegistryInsufficientStake')
    expect(reverted.args).toEqual([client.account.address, 40n * 10n ** 18n, 100n * 10n ** 18n])
    expect(reverted.hint).toBe('available stake 40 GRID < 100 GRID required: stake 60 GRID more first')
  })

  it('refuses a second registration', async () => {
    const client = await fundedClient({ grid: '100' })
    await stake(client, { deployment: deployment(), amount: '100', permit: true })
    await registerProvider(client, { deployment: deployment(), capabilities, profile })
    const error = await registerProvider(client, { deployment: deployment(), capabilities, profile }).catch(
      (error: unknown) => error,
    )
    expect((error as ContractRevertedError).errorName).toBe('ProviderRegistryAlreadyRegistered')
    expect((error as ContractRevertedError).hint).toContain('use updateCapabilities')
  })

  it('names bad capabilities and profile before sending', async () => {
    const client = await fundedClient({ grid: '0' })
    const error = await registerProvider(client, {
      deployment: deployment(),
      capabilities: { gpuCount: 300, vramMiB: -1, computeCapability: 89, cpuCores: 0, memoryMiB: 0 },
      profile: '',
    }).catch((error: unknown) => error)
    expect(error).toBeInstanceOf(InvalidParametersError)
    expect((error as InvalidParametersError).fields.map((field) => field.path)).toEqual([
      'capabilities.gpuCount',
      'capabilities.vramMiB',
      'capabilities.cpuCores',
      'capabilities.memoryMiB',
      'profile',
    ])
    const missing = await registerProvider(client, { deployment: deployment(), profile } as never).catch(
      (error: unknown) => error,
    )
    expect((missing as InvalidParametersError).fields[0]?.path).toBe('capabilities')
    expect(await client.getTransactionCount({ address: client.account.address })).toBe(0)
  })
})
