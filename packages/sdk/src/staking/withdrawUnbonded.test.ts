import { createTestClient, createWalletClient, erc20Abi, http, parseUnits, publicActions } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { hardhat } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Devnet, startDevnet } from '../../../contracts/scripts/devnet.js'
import { deployment, fundedClient } from '../../test/chain.js'
import { ContractRevertedError } from '../errors/contract.js'
import { getWalletBalance } from '../wallet/getWalletBalance.js'
import { getStake } from './getStake.js'
import { requestUnbond } from './requestUnbond.js'
import { stake } from './stake.js'
import { withdrawUnbonded } from './withdrawUnbonded.js'

describe('withdrawUnbonded', () => {
  it('refuses before the unbonding period ends, with the time in the hint', async () => {
    const client = await fundedClient({ grid: '10' })
    await stake(client, { deployment: deployment(), amount: '10', permit: true })
    const { readyAt } = await requestUnbond(client, { deployment: deployment(), amount: '4' })
    const error = await withdrawUnbonded(client, { deployment: deployment() }).catch(
      (error: unknown) => error,
    )
    expect(error).toBeInstanceOf(ContractRevertedError)
    const reverted = error as ContractRevertedError
    expect(reverted.errorName).toBe('StakingUnbondingNotReady')
    expect(reverted.args).toEqual([readyAt.getTime() / 1000])
    expect(reverted.hint).toBe(`the unbonded stake can be withdrawn after ${readyAt.toISOString()}`)
  })

  it('refuses when nothing is unbonding', async () => {
    const client = await fundedClient({ grid: '0' })
    const error = await withdrawUnbonded(client, { deployment: deployment() }).catch(
      (error: unknown) => error,
    )
    expect((error as ContractRevertedError).errorName).toBe('StakingNothingUnbonding')
    expect((error as ContractRevertedError).hint).toBe('nothing is unbonding: request an unbond first')
  })

  // Moving the clock by the unbonding period (7 days) would expire other test files' tasks on the shared
  // chain, so the withdrawal itself runs on a chain of its own.
  describe('after the unbonding period, on a private chain', () => {
    let devnet: Devnet | undefined
    beforeAll(async () => {
      devnet = await startDevnet()
    }, 120_000)
    afterAll(async () => {
      await devnet?.stop()
    })

    it('sends everything unbonding back to the account', async () => {
      if (devnet === undefined) throw new Error('the private devnet did not start')
      const transport = http(devnet.rpcUrl)
      const deployer = createWalletClient({
        account: privateKeyToAccount(devnet.privateKeys[0] as `0x${string}`),
        chain: hardhat,
        transport,
      }).extend(publicActions)
      const client = createWalletClient({
        account: privateKeyToAccount(generatePrivateKey()),
        chain: hardhat,
        transport,
      }).extend(publicActions)
      const testClient = createTestClient({ chain: hardhat, mode: 'hardhat', transport })
      await testClient.setBalance({ address: client.account.address, value: parseUnits('1', 18) })
      await deployer.waitForTransactionReceipt({
        hash: await deployer.writeContract({
          address: devnet.deployment.contracts.token,
          abi: erc20Abi,
          functionName: 'transfer',
          args: [client.account.address, parseUnits('100', 18)],
        }),
      })
      const { deployment } = devnet
      await stake(client, { deployment, amount: '100', permit: true })
      await requestUnbond(client, { deployment, amount: '60' })
      const { readyAt } = await requestUnbond(client, { deployment, amount: '10' })
      await testClient.setNextBlockTimestamp({ timestamp: BigInt(readyAt.getTime() / 1000) })
      const result = await withdrawUnbonded(client, { deployment })
      expect(result.amount).toBe(parseUnits('70', 18))
      expect(await getStake(client, { deployment })).toEqual({
        staked: parseUnits('30', 18),
        locked: 0n,
        available: parseUnits('30', 18),
        unbonding: 0n,
        unbondingReadyAt: undefined,
      })
      expect((await getWalletBalance(client, { deployment })).token).toBe(parseUnits('70', 18))
    })
  })
})
