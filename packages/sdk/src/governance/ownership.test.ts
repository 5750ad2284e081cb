import { createWalletClient, http, publicActions, zeroAddress } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { hardhat } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Devnet, startDevnet } from '../../../contracts/scripts/devnet.js'
import { deployerClient, deployment, fundedClient } from '../../test/chain.js'
import { ContractRevertedError } from '../errors/contract.js'
import { InvalidParametersError } from '../errors/validation.js'
import { acceptOwnership } from './acceptOwnership.js'
import { getOwnership } from './getOwnership.js'
import { renounceOwnership } from './renounceOwnership.js'
import { transferOwnership } from './transferOwnership.js'

describe('ownership on the shared chain (nothing changes hands)', () => {
  it('reads the deployer as the owner of every ownable contract, with no transfer pending', async () => {
    const owner = deployerClient().account.address
    for (const contract of ['market', 'staking', 'providers'] as const) {
      expect(await getOwnership(deployerClient(), { deployment: deployment(), contract })).toEqual({
        owner,
        pendingOwner: zeroAddress,
      })
    }
  })

  it('turns a transfer by a non-owner into OwnableUnauthorizedAccount with a hint', async () => {
    const client = await fundedClient({ grid: '0' })
    const error = await transferOwnership(client, {
      deployment: deployment(),
      contract: 'market',
      newOwner: client.account.address,
    }).catch((error: unknown) => error)
    expect(error).toBeInstanceOf(ContractRevertedError)
    const reverted = error as ContractRevertedError
    expect(reverted.errorName).toBe('OwnableUnauthorizedAccount')
    expect(reverted.args).toEqual([client.account.address])
    expect(reverted.hint).toBe(
      `${client.account.address} is not the owner of this contract: send it from the owner (see getOwnership; in real deployments, a timelock proposal)`,
    )
    expect(await client.getTransactionCount({ address: client.account.address })).toBe(0)
  })

  it('refuses to renounce without confirm: true, before sending anything', async () => {
    const client = deployerClient()
    for (const confirm of [undefined, false, 'yes']) {
      const error = await renounceOwnership(client, {
        deployment: deployment(),
        contract: 'market',
        confirm: confirm as never,
      }).catch((error: unknown) => error)
      expect(error).toBeInstanceOf(InvalidParametersError)
      const { fields } = error as InvalidParametersError
      expect(fields.map((field) => field.path)).toEqual(['confirm'])
      expect(fields[0]?.message).toContain('without an owner forever')
    }
    expect((await getOwnership(client, { deployment: deployment(), contract: 'market' })).owner).toBe(
      client.account.address,
    )
  })

  it('names the contracts that have an owner when given another', async () => {
    const client = deployerClient()
    const calls = [
      () => getOwnership(client, { deployment: deployment(), contract: 'sources' as never }),
      () => acceptOwnership(client, { deployment: deployment(), contract: 'token' as never }),
      () =>
        renounceOwnership(client, { deployment: deployment(), contract: 'timelock' as never, confirm: true }),
      () =>
        transferOwnership(client, {
          deployment: deployment(),
          contract: 'Market' as never,
          newOwner: client.account.address,
        }),
    ]
    for (const call of calls) {
      const error = await call().catch((error: unknown) => error)
      expect(error).toBeInstanceOf(InvalidParametersError)
      expect((error as InvalidParametersError).fields).toEqual([
        {
          path: 'contract',
          message:
            "expected one of 'market', 'staking', 'providers' (sources, token and timelock have no owner)",
        },
      ])
    }
  })

  it('refuses a malformed or zero new owner', async () => {
    const client = deployerClient()
    for (const newOwner of ['0x1234', zeroAddress]) {
      const error = await transferOwnership(client, {
        deployment: deployment(),
        contract: 'staking',
        newOwner: newOwner as never,
      }).catch((error: unknown) => error)
      expect(error).toBeInstanceOf(InvalidParametersError)
      expect((error as InvalidParametersError).fields.map((field) => field.path)).toEqual(['newOwner'])
    }
  })
})

// Changing owners on the shared chain would break the owner-only tests of other files running
// meanwhile, so the transfers run on a private devnet.
describe('ownership on a private devnet', () => {
  let devnet: Devnet
  const client = (index: number) =>
    createWalletClient({
      account: privateKeyToAccount(devnet.privateKeys[index]!),
      chain: hardhat,
      transport: http(devnet.rpcUrl),
    }).extend(publicActions)

  beforeAll(async () => {
    devnet = await startDevnet()
  }, 180_000)
  afterAll(async () => {
    await devnet?.stop()
  })

  it('hands a contract over in two steps and back', async () => {
    const { deployment } = devnet
    const owner = client(0)
    const next = client(1)
    const stranger = client(2)
    const contract = 'providers'
    try {
      const started = await transferOwnership(owner, { deployment, contract, newOwner: next.account.address })
      expect(started).toMatchObject({ previousOwner: owner.account.address, newOwner: next.account.address })
      expect(started.hash).toMatch(/^0x[0-9a-f]{64}$/)
      expect(started.blockNumber).toBeGreaterThan(0n)
      expect(await getOwnership(owner, { deployment, contract })).toEqual({
        owner: owner.account.address,
        pendingOwner: next.account.address,
      })

      const error = await acceptOwnership(stranger, { deployment, contract }).catch((error: unknown) => error)
      expect((error as ContractRevertedError).errorName).toBe('OwnableUnauthorizedAccount')
      expect((error as ContractRevertedError).hint).toContain('is not the pending owner')

      const accepted = await acceptOwnership(next, { deployment, contract })
      expect(accepted).toMatchObject({ previousOwner: owner.account.address, newOwner: next.account.address })
      expect(await getOwnership(owner, { deployment, contract })).toEqual({
        owner: next.account.address,
        pendingOwner: zeroAddress,
      })
      // The other contracts are untouched.
      expect((await getOwnership(owner, { deployment, contract: 'market' })).owner).toBe(
        owner.account.address,
      )

      const refused = await transferOwnership(owner, {
        deployment,
        contract,
        newOwner: owner.account.address,
      }).catch((error: unknown) => error)
      expect((refused as ContractRevertedError).errorName).toBe('OwnableUnauthorizedAccount')
    } finally {
      const { owner: current } = await getOwnership(owner, { deployment, contract })
      if (current === next.account.address) {
        await transferOwnership(next, { deployment, contract, newOwner: owner.account.address })
        await acceptOwnership(owner, { deployment, contract })
      }
    }
    expect(await getOwnership(owner, { deployment, contract })).toEqual({
      owner: owner.account.address,
      pendingOwner: zeroAddress,
    })
  })

  it('renounces with confirm: true, dropping a pending transfer', async () => {
    const { deployment } = devnet
    const owner = client(0)
    await transferOwnership(owner, { deployment, contract: 'staking', newOwner: client(1).account.address })
    const renounced = await renounceOwnership(owner, { deployment, contract: 'staking', confirm: true })
    expect(renounced).toMatchObject({ previousOwner: owner.account.address, newOwner: zeroAddress })
    expect(await getOwnership(owner, { deployment, contract: 'staking' })).toEqual({
      owner: zeroAddress,
      pendingOwner: zeroAddress,
    })
    const error = await acceptOwnership(client(1), { deployment, contract: 'staking' }).catch(
      (error: unknown) => error,
    )
    expect((error as ContractRevertedError).errorName).toBe('OwnableUnauthorizedAccount')
  })
})
