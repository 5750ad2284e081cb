import { describe, expect, it } from 'vitest'
import { deployment, fundedClient } from '../../test/chain.js'
import { InvalidParametersError } from '../errors/validation.js'
import { stake } from '../staking/stake.js'
import { getProvider } from './getProvider.js'
import { registerProvider } from './registerProvider.js'

const cid = 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku'

describe('getProvider', () => {
  it("reads anyone's profile, as it is now or was at an earlier block", async () => {
    const client = await fundedClient({ grid: '100' })
    const reader = await fundedClient({ grid: '0' })
    const staked = await stake(client, { deployment: deployment(), amount: '100', permit: true })
    const capabilities = {
      gpuCount: 8,
      vramMiB: 81_920,
      computeCapability: 90,
      cpuCores: 128,
      memoryMiB: 1_048_576,
    }
    const registered = await registerProvider(client, {
      deployment: deployment(),
      capabilities,
      profile: cid,
    })
    const block = await client.getBlock({ blockNumber: registered.blockNumber })
    expect(await getProvider(reader, { deployment: deployment(), provider: client.account.address })).toEqual(
      {
        provider: client.account.address,
        registered: true,
        paused: false,
        registeredAt: new Date(Number(block.timestamp) * 1000),
        capabilities,
        reputation: {
          claimed: 0,
          completed: 0,
          failed: 0,
          outvoted: 0,
          totalRuntimeSec: 0,
          slashedAmount: 0n,
          successBps: 0,
          failedRuns: 0,
        },
      },
    )
    const before = await getProvider(reader, {
      deployment: deployment(),
      provider: client.account.address,
      blockNumber: staked.blockNumber,
    })
    expect(before).toMatchObject({
      registered: false,
      registeredAt: undefined,
      capabilities: { gpuCount: 0, vramMiB: 0, computeCapability: 0, cpuCores: 0, memoryMiB: 0 },
    })
  })

  it("defaults to the client's account and refuses malformed addresses", async () => {
    const client = await fundedClient({ grid: '0' })
    expect((await getProvider(client, { deployment: deployment() })).provider).toBe(client.account.address)
    const error = await getProvider(client, { deployment: deployment(), provider: '0xabc' as never }).catch(
      (error: unknown) => error,
    )
    expect(error).toBeInstanceOf(InvalidParametersError)
    expect((error as InvalidParametersError).fields[0]?.path).toBe('provider')
  })
})
