/**
 * Issue 14, item 5: the terms a task was submitted under do not move; stake that earned something (the right
 * to work, a fee discount) stays staked while it matters. Each test is an attack that worked before the fix.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { network } from 'hardhat'
import { grid, type Wallet } from './helpers/fixture.js'
import {
  BPS,
  claim,
  DEFAULT_MARKET_PARAMS,
  marketParams,
  SOURCE_CREATOR_FEE_BPS,
  submitAndRelease,
  submitOnSource,
  submitOpaque,
  submitResult,
  useMarketFixture,
} from './helpers/market.js'

const connection = await network.create()
const { viem, networkHelpers } = connection
const load = useMarketFixture(connection)

describe('terms fixed at submission', () => {
  it('an owner change of shares and windows does not reach tasks already submitted', async () => {
    const m = await load()
    const [alice, bob] = m.provs as [Wallet, Wallet]
    const paid = await submitOpaque(m)
    const noShow = await submitOpaque(m)
    const before = await marketParams(m)
    // The change the review demonstrated: compensation to 0, reveal window and grace to the minimum.
    await m.market.write.setParams(
      [{ ...before, stakerShareBps: 0, slashToClientBps: 0, revealWindow: 60, claimGrace: 60 }],
      { account: m.owner.account },
    )
    assert.deepEqual(await m.market.read.termsOf([paid]), before)

    // The claim is due under the old grace.
    const claimed = await claim(m, bob, noShow)
    const claimedAt = BigInt(await networkHelpers.time.latest())
    assert.equal(BigInt(claimed.dueAt), claimedAt + 3_600n + BigInt(DEFAULT_MARKET_PARAMS.claimGrace))

    // Stakers keep their share of the fee of the earlier task.
    await claim(m, alice, paid)
    const pendingBefore = await m.market.read.pendingStakerFees()
    await submitResult(m, alice, paid)
    const fee = (grid(10) * BigInt(DEFAULT_MARKET_PARAMS.protocolFeeBps)) / BPS
    const net = fee
    const toCreator = (net * BigInt(SOURCE_CREATOR_FEE_BPS)) / BPS
    assert.equal(
      (await m.market.read.pendingStakerFees()) - pendingBefore,
      (net * BigInt(DEFAULT_MARKET_PARAMS.stakerShareBps)) / BPS,
    )
    assert.ok(toCreator > 0n)

    // The client of the no-show is compensated at the old rate.
    const clientBefore = await m.market.read.balanceOf([m.client.account.address])
    await networkHelpers.time.increaseTo(claimed.dueAt + 1)
    await m.market.write.reopenSlot([noShow, 0])
    const collateral = (await m.market.read.getTask([noShow])).collateral
    assert.equal(
      (await m.market.read.balanceOf([m.client.account.address])) - clientBefore,
      (collateral * BigInt(DEFAULT_MARKET_PARAMS.slashToClientBps)) / BPS,
    )
    // A task submitted now takes the new terms.
    const later = await submitOpaque(m)
    assert.equal((await m.market.read.termsOf([later])).slashToClientBps, 0)
  })
})

describe('collateral fixed at submission', () => {
  it('a task locks, unlocks and slashes the collateral its submission set, whatever the owner changes after', async () => {
    const m = await load()
    const [alice, bob] = m.provs as [Wallet, Wallet]
    // The collateral is not stored: it follows from the task's terms and the parameters of its version.
    const plain = await submitOpaque(m)
    const audited = await submitOnSource(m)
    const noShow = await submitOpaque(m)
    const before = await Promise.all(
      [plain, audited, noShow].map(async (id) => (await m.market.read.getTask([id])).collateral),
    )
    assert.deepEqual(
      before,
      [grid(10) / 2n, grid(90), grid(10) / 2n],
      '50 % of maxPayment; the bond at p = 10 %',
    )
    const params = await marketParams(m)
    await m.market.write.setParams(
      [{ ...params, collateralBps: 20_000, minCollateral: grid(1_000), auditBps: 5_000 }],
      { account: m.owner.account },
    )
    const after = await Promise.all(
      [plain, audited, noShow].map(async (id) => (await m.market.read.getTask([id])).collateral),
    )
    assert.deepEqual(after, before)

    const locked = async (wallet: Wallet) => (await m.staking.read.stakeOf([wallet.account.address])).locked
    await claim(m, alice, plain)
    await claim(m, bob, audited)
    await claim(m, bob, noShow)
    assert.equal(await locked(alice), before[0])
    assert.equal(await locked(bob), (before[1] ?? 0n) + (before[2] ?? 0n))
    await submitResult(m, alice, plain)
    assert.equal(await locked(alice), 0n, 'the whole collateral unlocked')
    await submitAndRelease(m, bob, audited)
    assert.equal(await locked(bob), before[2])
    // A no-show forfeits what its version says (50 % of maxPayment, here all of it), under the old terms.
    const dueAt = (await m.market.read.getSlots([noShow]))[0]?.dueAt ?? 0
    await networkHelpers.time.increaseTo(dueAt + 1)
    const staked = (await m.staking.read.stakeOf([bob.account.address])).staked
    await m.market.write.reopenSlot([noShow, 0])
    assert.equal(await locked(bob), 0n)
    assert.equal(staked - (await m.staking.read.stakeOf([bob.account.address])).staked, before[2])
  })
})

describe('stake floors', () => {
  it('an active provider cannot unbond below the minimum stake; paused it can, and resuming needs it again', async () => {
    const m = await load()
    const [alice] = m.provs as [Wallet]
    const min = await m.providers.read.minProviderStake()
    const staked = (await m.staking.read.stakeOf([alice.account.address])).staked
    await viem.assertions.revertWithCustomErrorWithArgs(
      m.staking.write.requestUnbond([staked - min + 1n], { account: alice.account }),
      m.staking,
      'StakingBelowFloor',
      [alice.account.address, min - 1n, min],
    )
    await m.staking.write.requestUnbond([staked - min], { account: alice.account })
    await m.providers.write.pause({ account: alice.account })
    await m.staking.write.requestUnbond([min], { account: alice.account })
    await viem.assertions.revertWithCustomErrorWithArgs(
      m.providers.write.resume({ account: alice.account }),
      m.providers,
      'ProviderRegistryInsufficientStake',
      [alice.account.address, 0n, min],
    )
  })

  it('a slash that leaves less than the minimum pauses the provider: it cannot claim again until it tops up', async () => {
    const m = await load()
    const [alice] = m.provs as [Wallet]
    const min = await m.providers.read.minProviderStake()
    // Alice keeps the minimum plus one collateral; the no-show slash takes the collateral and more is needed.
    const taskId = await submitOpaque(m)
    const collateral = (await m.market.read.getTask([taskId])).collateral
    const staked = (await m.staking.read.stakeOf([alice.account.address])).staked
    await m.staking.write.requestUnbond([staked - min - collateral + 1n], { account: alice.account })
    const claimed = await claim(m, alice, taskId)
    await networkHelpers.time.increaseTo(claimed.dueAt + 1)
    const hash = await m.market.write.reopenSlot([taskId, 0])
    const [paused] = await m.getEvents(hash, m.providers, 'ProviderPaused')
    assert.equal(paused?.provider.toLowerCase(), alice.account.address.toLowerCase())
    await viem.assertions.revertWithCustomErrorWithArgs(
      m.market.write.claimTask([taskId], { account: alice.account }),
      m.providers,
      'ProviderRegistryPaused',
      [alice.account.address],
    )
  })

  it('a fee discount pins its tier’s stake until the discounted task settles', async () => {
    const m = await load()
    const gamer = m.clients[1] as Wallet
    const tier = grid(5_000)
    await m.staking.write.setDiscountTiers([[{ minStake: tier, discountBps: 2_000 }]], {
      account: m.owner.account,
    })
    await m.token.write.approve([m.staking.address, tier], { account: gamer.account })
    await m.staking.write.stake([tier], { account: gamer.account })
    const taskId = await submitOpaque(m, {}, gamer)
    assert.equal((await m.market.read.getTask([taskId])).discountBps, 2_000)
    assert.equal(await m.staking.read.stakeFloorOf([gamer.account.address]), tier)
    // The attack: stake, submit with the discount, unbond before the task settles.
    await viem.assertions.revertWithCustomErrorWithArgs(
      m.staking.write.requestUnbond([1n], { account: gamer.account }),
      m.staking,
      'StakingBelowFloor',
      [gamer.account.address, tier - 1n, tier],
    )
    await claim(m, m.provs[0] as Wallet, taskId)
    await submitResult(m, m.provs[0] as Wallet, taskId)
    assert.equal(await m.staking.read.stakeFloorOf([gamer.account.address]), 0n)
    await m.staking.write.requestUnbond([tier], { account: gamer.account })
  })
})
