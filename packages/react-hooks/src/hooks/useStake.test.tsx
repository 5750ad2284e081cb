import { ContractRevertedError, getRewards, getStake } from '@gridforge/sdk'
import { waitFor } from '@testing-library/react'
import { createTestClient, http, parseUnits } from 'viem'
import { hardhat } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Devnet, startDevnet } from '../../../contracts/scripts/devnet.js'
import {
  claim,
  type FixtureClient,
  publishSource,
  registerFixtureProvider,
  submit,
  submitFixtureTasks,
} from '../../../sdk/test/fixtures.js'
import { assertKnownDeployment, fundOnChain, testConfig } from '../../test/config.js'
import { renderWithConfig } from '../../test/render.js'
import { useClaimRewards } from './useClaimRewards.js'
import { useRewards } from './useRewards.js'
import { useStake } from './useStake.js'
import { useStakePosition } from './useStakePosition.js'
import { useTask } from './useTask.js'
import { useUnbond } from './useUnbond.js'
import { useWalletBalance } from './useWalletBalance.js'
import { useWithdrawUnbonded } from './useWithdrawUnbonded.js'

const grid = (amount: string) => parseUnits(amount, 18)

// Moving the clock by the unbonding period (7 days) would expire other files' tasks on the shared chain,
// and fees reach every staker of a chain: staking runs on a chain of its own, so amounts are exact.
let devnet: Devnet | undefined
beforeAll(async () => {
  devnet = await startDevnet()
  assertKnownDeployment(devnet)
}, 120_000)
afterAll(async () => {
  await devnet?.stop()
})

function chain() {
  if (devnet === undefined) throw new Error('the staking devnet did not start')
  return devnet
}

describe('useStake, useUnbond, useWithdrawUnbonded', () => {
  it('stakes, unbonds and, after the unbonding period, withdraws; the mounted position and balance follow', async () => {
    const { config, client, address } = await testConfig({ chain: chain(), grid: '100' })
    const { result } = renderWithConfig(
      () => ({
        position: useStakePosition(),
        wallet: useWalletBalance(),
        stake: useStake(),
        unbond: useUnbond(),
        withdrawUnbonded: useWithdrawUnbonded(),
      }),
      { config },
    )
    await waitFor(() =>
      expect(result.current.position.data).toEqual({
        staked: 0n,
        locked: 0n,
        available: 0n,
        unbonding: 0n,
        unbondingReadyAt: undefined,
      }),
    )
    expect(result.current.position.queryKey).toEqual([
      'gridforge',
      'stake',
      { chainId: 31337, market: chain().deployment.contracts.market, account: address },
    ])

    const staked = await result.current.stake.mutateAsync({ amount: '40', approve: true })
    expect(staked).toMatchObject({ amount: grid('40'), approveHash: expect.stringMatching(/^0x/) })
    await waitFor(() => {
      expect(result.current.position.data).toMatchObject({
        staked: grid('40'),
        available: grid('40'),
        unbonding: 0n,
      })
      expect(result.current.wallet.data?.token).toBe(grid('60'))
    })

    const unbonded = await result.current.unbond.mutateAsync({ amount: '15' })
    expect(unbonded).toMatchObject({
      amount: grid('15'),
      totalUnbonding: grid('15'),
      readyAt: expect.any(Date),
    })
    await waitFor(() =>
      expect(result.current.position.data).toEqual({
        staked: grid('25'),
        locked: 0n,
        available: grid('25'),
        unbonding: grid('15'),
        unbondingReadyAt: unbonded.readyAt,
      }),
    )
    expect(unbonded.readyAt.getTime() - Date.now()).toBeGreaterThan(6 * 86_400_000)

    // Too early: the contract's error, decoded, with the time in the hint.
    const early = await result.current.withdrawUnbonded.mutateAsync({}).catch((error: unknown) => error)
    expect(early).toBeInstanceOf(ContractRevertedError)
    expect(early).toMatchObject({ errorName: 'StakingUnbondingNotReady' })
    expect((early as ContractRevertedError).metaMessages).toEqual([
      `the unbonded stake can be withdrawn after ${unbonded.readyAt.toISOString()}`,
    ])

    const testClient = createTestClient({ chain: hardhat, mode: 'hardhat', transport: http(chain().rpcUrl) })
    await testClient.increaseTime({ seconds: 7 * 86_400 + 1 })
    await testClient.mine({ blocks: 1 })
    const withdrawn = await result.current.withdrawUnbonded.mutateAsync({})
    expect(withdrawn.amount).toBe(grid('15'))
    await waitFor(() => {
      expect(result.current.position.data).toEqual({
        staked: grid('25'),
        locked: 0n,
        available: grid('25'),
        unbonding: 0n,
        unbondingReadyAt: undefined,
      })
      expect(result.current.wallet.data?.token).toBe(grid('75'))
    })
    expect(await getStake(client, { deployment: chain().deployment })).toEqual(result.current.position.data)
  })
})

describe('useRewards, useClaimRewards', () => {
  it("shows a staker's share of the fees once a task settles, and claims it", async () => {
    const { deployment } = chain()
    const staker = await testConfig({ chain: chain(), grid: '100' })
    const owner = (await fundOnChain(chain(), { grid: '0' })) as unknown as FixtureClient
    const provider = (await fundOnChain(chain(), { grid: '1000' })) as unknown as FixtureClient
    const payer = (await fundOnChain(chain(), { grid: '100' })) as unknown as FixtureClient
    const sourceId = await publishSource(owner, deployment)
    await registerFixtureProvider(provider, deployment, [sourceId])
    const {
      taskIds: [taskId = 0n],
    } = await submitFixtureTasks(payer, deployment, { sourceId, maxPayment: '50' })

    const { result } = renderWithConfig(
      () => ({
        // A live task: its settlement refetches balances, stake, rewards and stats.
        task: useTask({ taskId }),
        rewards: useRewards(),
        wallet: useWalletBalance(),
        stake: useStake(),
        claimRewards: useClaimRewards(),
      }),
      { config: staker.config },
    )
    await result.current.stake.mutateAsync({ amount: '100', approve: true })
    await waitFor(() => {
      expect(result.current.task.data?.status).toBe('Open')
      expect(result.current.rewards.data).toBe(0n)
      expect(result.current.wallet.data?.token).toBe(0n)
    })
    expect(result.current.rewards.queryKey).toEqual([
      'gridforge',
      'rewards',
      { chainId: 31337, market: deployment.contracts.market, account: staker.address },
    ])

    await claim(provider, deployment, taskId)
    await submit(provider, deployment, taskId)
    await waitFor(() => expect(result.current.task.data?.status).toBe('Completed'))
    // Fees still held by the market count: no release step is needed to see (or claim) them.
    await waitFor(() => expect(result.current.rewards.data).toBeGreaterThan(0n))
    const rewards = result.current.rewards.data ?? 0n
    expect(rewards).toBe(await getRewards(staker.client, { deployment }))
    // 5% fee on 50 GRID, 12% of it to stakers, shared by stake: this staker's 100 of the 300 staked
    // (the provider's 200 and this one's 100; the other test's 25 too, on this chain).
    const fee = (grid('50') * 500n) / 10_000n
    const toStakers = (fee * 1_200n) / 10_000n
    expect(rewards).toBeLessThanOrEqual(toStakers / 3n)
    expect(rewards).toBeGreaterThan(toStakers / 4n)

    const claimed = await result.current.claimRewards.mutateAsync({})
    expect(claimed.amount).toBe(rewards)
    await waitFor(() => {
      expect(result.current.rewards.data).toBe(0n)
      expect(result.current.wallet.data?.token).toBe(rewards)
    })
  })
})
