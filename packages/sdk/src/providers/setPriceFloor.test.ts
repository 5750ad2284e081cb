import { parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import { deployment, fundedClient } from '../../test/chain.js'
import { ContractRevertedError } from '../errors/contract.js'
import { InvalidParametersError } from '../errors/validation.js'
import { stake } from '../staking/stake.js'
import { getPriceFloor } from './getPriceFloor.js'
import { registerProvider } from './registerProvider.js'
import { setPriceFloor } from './setPriceFloor.js'

const cid = 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku'

describe('setPriceFloor / getPriceFloor', () => {
  it('publishes the floor in base units per GPU-second; anyone reads it, now or at an earlier block', async () => {
    const client = await fundedClient({ grid: '100' })
    const reader = await fundedClient({ grid: '0' })
    await stake(client, { deployment: deployment(), amount: '100', permit: true })
    const registered = await registerProvider(client, {
      deployment: deployment(),
      capabilities: { gpuCount: 1, vramMiB: 24_576, computeCapability: 89, cpuCores: 8, memoryMiB: 65_536 },
      profile: cid,
    })
    const provider = client.account.address
    expect(await getPriceFloor(reader, { deployment: deployment(), provider })).toBe(0n)

    const result = await setPriceFloor(client, { deployment: deployment(), minPricePerGpuSecond: '0.000001' })
    expect(result).toMatchObject({ provider, minPricePerGpuSecond: parseUnits('0.000001', 18) })
    expect(await getPriceFloor(reader, { deployment: deployment(), provider })).toBe(10n ** 12n)
    // The client's own account is the default provider.
    expect(await getPriceFloor(client, { deployment: deployment() })).toBe(10n ** 12n)
    expect(
      await getPriceFloor(reader, {
        deployment: deployment(),
        provider,
        blockNumber: registered.blockNumber,
      }),
    ).toBe(0n)

    // Base units pass as they are.
    await setPriceFloor(client, { deployment: deployment(), minPricePerGpuSecond: 7n })
    expect(await getPriceFloor(reader, { deployment: deployment(), provider })).toBe(7n)
  })

  it('refuses an unregistered account with what to do, and malformed amounts before any transaction', async () => {
    const client = await fundedClient({ grid: '0' })
    const error = await setPriceFloor(client, { deployment: deployment(), minPricePerGpuSecond: '1' }).catch(
      (error: unknown) => error,
    )
    expect(error).toBeInstanceOf(ContractRevertedError)
    expect((error as ContractRevertedError).errorName).toBe('ProviderRegistryNotRegistered')
    expect((error as ContractRevertedError).hint).toBe(
      'this account is not a registered provider: register first',
    )

    const invalid = await setPriceFloor(client, {
      deployment: deployment(),
      minPricePerGpuSecond: '-1',
    }).catch((error: unknown) => error)
    expect(invalid).toBeInstanceOf(InvalidParametersError)
    expect((invalid as InvalidParametersError).fields[0]?.path).toBe('minPricePerGpuSecond')
  })
})
