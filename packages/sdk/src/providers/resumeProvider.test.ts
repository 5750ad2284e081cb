import { describe, expect, it } from 'vitest'
import { deployment, fundedClient } from '../../test/chain.js'
import { ContractRevertedError } from '../errors/contract.js'
import { stake } from '../staking/stake.js'
import { getProvider } from './getProvider.js'
import { pauseProvider } from './pauseProvider.js'
import { registerProvider } from './registerProvider.js'
import { resumeProvider } from './resumeProvider.js'

const cid = 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku'

describe('resumeProvider', () => {
  it('resumes a paused provider, and refuses an active one', async () => {
    const client = await fundedClient({ grid: '100' })
    await stake(client, { deployment: deployment(), amount: '100', permit: true })
    await registerProvider(client, {
      deployment: deployment(),
      capabilities: { gpuCount: 0, vramMiB: 0, computeCapability: 0, cpuCores: 2, memoryMiB: 4_096 },
      profile: cid,
    })
    const active = await resumeProvider(client, { deployment: deployment() }).catch((error: unknown) => error)
    expect(active).toBeInstanceOf(ContractRevertedError)
    expect((active as ContractRevertedError).hint).toBe('the provider is already active')
    await pauseProvider(client, { deployment: deployment() })
    const result = await resumeProvider(client, { deployment: deployment() })
    expect(result.provider).toBe(client.account.address)
    expect((await getProvider(client, { deployment: deployment() })).paused).toBe(false)
  })

  it('refuses an unregistered account', async () => {
    const client = await fundedClient({ grid: '0' })
    const error = await resumeProvider(client, { deployment: deployment() }).catch((error: unknown) => error)
    expect((error as ContractRevertedError).errorName).toBe('ProviderRegistryNotRegistered')
  })
})
