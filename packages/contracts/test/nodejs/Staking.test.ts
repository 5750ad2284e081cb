import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { network } from 'hardhat'
import { type Address, keccak256, maxUint128, parseEther, toHex, zeroAddress } from 'viem'
import {
  assertAddress,
  deployGridforge,
  type Gridforge,
  grid,
  sealOf,
  type Wallet,
} from './helpers/fixture.js'

const connection = await network.create()
const { viem, networkHelpers } = connection

const DAY = 24 * 60 * 60
const UNBONDING_PERIOD = 7 * DAY
/** Default market parameters (LocalGridforge): the staker share of a 10 GRID fixed-price task. */
const TASK_PAYMENT = grid(10)
const TASK_FEE = (TASK_PAYMENT * 500n) / 10_000n // 0.5 GRID
const STAKER_FEES = (TASK_FEE * 1_200n) / 10_000n // 0.06 GRID
const COLLATERAL = (TASK_PAYMENT * 5_000n) / 10_000n // 5 GRID (not audited)
/** The result digest the tests' k = 1 results carry. */
const RESULT_DIGEST = keccak256(toHex('result'))

/** Approves and stakes `amount` as `wallet`; returns the transaction hash. */
async function stake(gf: Gridforge, wallet: Wallet, amount: bigint) {
  await gf.token.write.approve([gf.staking.address, amount], { account: wallet.account })
  return gf.staking.write.stake([amount], { account: wallet.account })
}

/**
 * A published source and a registered, subscribed provider (stake 1000 GRID) to run tasks with. The source is
 * not deterministic: its k = 1 results are not audited, so they settle (and unlock the collateral) at submission.
 */
async function withProvider(gf: Gridforge) {
  const sourceId = await gf.publishSource(gf.owner, { requirements: { deterministic: false } })
  const provider = gf.providerWallets[0]!
  await gf.registerProvider(provider, { sourceIds: [sourceId] })
  return { sourceId, provider }
}

/** Runs one k = 1 fixed-price task (10 GRID) to completion: 0.06 GRID of fees accrue to stakers. */
async function runTask(gf: Gridforge, sourceId: number, provider: Wallet, client: Wallet = gf.clients[0]!) {
  const taskId = await gf.submitTask(
    client,
    await gf.defaultTaskParams(sourceId, { maxPayment: TASK_PAYMENT }),
  )
  await gf.market.write.claimTask([taskId], { account: provider.account })
  await gf.market.write.submitResult(
    [taskId, sealOf(taskId, RESULT_DIGEST), 'bafyresult', 'bafyreceipt', 60],
    {
      account: provider.account,
    },
  )
  return taskId
}

/** Lets the tests call market-only functions as the real market address. */
async function impersonateMarket(gf: Gridforge): Promise<Address> {
  await networkHelpers.impersonateAccount(gf.market.address)
  await networkHelpers.setBalance(gf.market.address, parseEther('10'))
  return gf.market.address
}

describe('Staking', () => {
  describe('deployment', () => {
    it('is wired to the asset and the market with the default period', async () => {
      const { staking, token, market, owner } = await networkHelpers.loadFixture(deployGridforge)
      assertAddress(await staking.read.asset(), token.address)
      assertAddress(await staking.read.market(), market.address)
      assert.equal(await staking.read.unbondingPeriod(), UNBONDING_PERIOD)
      assertAddress(await staking.read.owner(), owner)
      assert.equal(await staking.read.MAX_DISCOUNT_TIERS(), 8n)
      assert.ok((await staking.read.MAX_DISCOUNT_BPS()) <= 10_000)
      assert.ok((await staking.read.MIN_UNBONDING_PERIOD()) <= UNBONDING_PERIOD)
      assert.ok((await staking.read.MAX_UNBONDING_PERIOD()) >= UNBONDING_PERIOD)
      assert.deepEqual(await staking.read.discountTiers(), [])
      assert.equal(await staking.read.totalStaked(), 0n)
      assert.equal(await staking.read.rewardPerToken(), 0n)
    })

    it('rejects a zero asset or market and an out-of-bounds unbonding period', async () => {
      const { staking, token, market, owner } = await networkHelpers.loadFixture(deployGridforge)
      const [min, max] = [
        await staking.read.MIN_UNBONDING_PERIOD(),
        await staking.read.MAX_UNBONDING_PERIOD(),
      ]
      await viem.assertions.revertWithCustomError(
        viem.deployContract('Staking', [
          zeroAddress,
          market.address,
          owner.account.address,
          UNBONDING_PERIOD,
        ]),
        staking,
        'StakingZeroAddress',
      )
      await viem.assertions.revertWithCustomError(
        viem.deployContract('Staking', [token.address, zeroAddress, owner.account.address, UNBONDING_PERIOD]),
        staking,
        'StakingZeroAddress',
      )
      await viem.assertions.revertWithCustomErrorWithArgs(
        viem.deployContract('Staking', [token.address, market.address, owner.account.address, min - 1]),
        staking,
        'StakingUnbondingPeriodOutOfBounds',
        [min - 1, min, max],
      )
    })

    it('is deployed by the market, which it names as its immutable market; the initial owner owns it', async () => {
      const { staking, market, owner, others } = await networkHelpers.loadFixture(deployGridforge)
      assertAddress(await market.read.staking(), staking.address)
      assertAddress(await staking.read.market(), market.address)
      assertAddress(await staking.read.owner(), owner)
      assertAddress(await staking.read.pendingOwner(), zeroAddress)
      // the market never owns it, and nothing can re-point it: the only other market entry is the lease market,
      // which the owner names once (LeaseMarket.test.ts)
      assert.notEqual((await staking.read.owner()).toLowerCase(), market.address.toLowerCase())
      assert.deepEqual(
        staking.abi
          .filter((item) => item.type === 'function' && /market/i.test(item.name) && item.name !== 'market')
          .map((item) => (item as { name: string }).name)
          .sort(),
        ['leaseMarket', 'setLeaseMarket'],
      )
      // a new owner cannot change the market either
      await staking.write.transferOwnership([others[0]!.account.address])
      await staking.write.acceptOwnership({ account: others[0]!.account })
      assertAddress(await staking.read.market(), market.address)
    })
  })

  describe('stake', () => {
    it('pulls the tokens and records the stake', async () => {
      const gf = await networkHelpers.loadFixture(deployGridforge)
      const { staking, token, others } = gf
      const alice = others[0]!
      const before = await token.read.balanceOf([alice.account.address])
      const hash = await stake(gf, alice, grid(300))
      await viem.assertions.emitWithArgs(hash, staking, 'Staked', [alice.account.address, grid(300)])
      await viem.assertions.emitWithArgs(hash, token, 'Transfer', [
        alice.account.address,
        staking.address,
        grid(300),
      ])
      assert.equal(await token.read.balanceOf([alice.account.address]), before - grid(300))
      assert.deepEqual(await staking.read.stakeOf([alice.account.address]), {
        staked: grid(300),
        locked: 0n,
        unbonding: 0n,
        unbondingReadyAt: 0,
      })
      assert.equal(await staking.read.availableOf([alice.account.address]), grid(300))
      assert.equal(await staking.read.totalStaked(), grid(300))
      await stake(gf, alice, grid(200))
      assert.equal((await staking.read.stakeOf([alice.account.address])).staked, grid(500))
      assert.equal(await staking.read.totalStaked(), grid(500))
      await gf.checkInvariants()
    })

    it('rejects zero, amounts above 128 bits, and missing approval', async () => {
      const { staking, token, others } = await networkHelpers.loadFixture(deployGridforge)
      const alice = others[0]!
      await viem.assertions.revertWithCustomError(
        staking.write.stake([0n], { account: alice.account }),
        staking,
        'StakingZeroAmount',
      )
      await viem.assertions.revertWithCustomErrorWithArgs(
        staking.write.stake([maxUint128 + 1n], { account: alice.account }),
        staking,
        'StakingAmountTooLarge',
        [maxUint128 + 1n],
      )
      await viem.assertions.revertWithCustomErrorWithArgs(
        staking.write.stake([grid(1)], { account: alice.account }),
        token,
        'ERC20InsufficientAllowance',
        [staking.address, 0n, grid(1)],
      )
    })

    it('stakeWithPermit stakes from an EIP-2612 signature without an approval', async () => {
      const gf = await networkHelpers.loadFixture(deployGridforge)
      const { staking, token, others, signPermit } = gf
      const alice = others[0]!
      const permit = await signPermit(alice, staking.address, grid(50))
      await viem.assertions.emitWithArgs(
        staking.write.stakeWithPermit([permit.value, permit.deadline, permit.v, permit.r, permit.s], {
          account: alice.account,
        }),
        staking,
        'Staked',
        [alice.account.address, grid(50)],
      )
      assert.equal((await staking.read.stakeOf([alice.account.address])).staked, grid(50))
      assert.equal(await token.read.nonces([alice.account.address]), 1n)
      assert.equal(await token.read.allowance([alice.account.address, staking.address]), 0n)
      await gf.checkInvariants()
    })

    it('stakeWithPermit still works when someone front-ran the permit', async () => {
      const { staking, token, others, signPermit } = await networkHelpers.loadFixture(deployGridforge)
      const [alice, mallory] = [others[0]!, others[1]!]
      const permit = await signPermit(alice, staking.address, grid(50))
      await token.write.permit(
        [alice.account.address, staking.address, permit.value, permit.deadline, permit.v, permit.r, permit.s],
        { account: mallory.account },
      )
      await staking.write.stakeWithPermit([permit.value, permit.deadline, permit.v, permit.r, permit.s], {
        account: alice.account,
      })
      assert.equal((await staking.read.stakeOf([alice.account.address])).staked, grid(50))
    })

    it('stakeWithPermit with an invalid permit and no allowance reverts', async () => {
      const { staking, token, others, signPermit } = await networkHelpers.loadFixture(deployGridforge)
      const alice = others[0]!
      const permit = await signPermit(alice, staking.address, grid(50))
      // Signed for 50, used for 60: the permit fails, and there is no allowance to fall back on.
      await viem.assertions.revertWithCustomErrorWithArgs(
        staking.write.stakeWithPermit([grid(60), permit.deadline, permit.v, permit.r, permit.s], {
          account: alice.account,
        }),
        token,
        'ERC20InsufficientAllowance',
        [staking.address, 0n, grid(60)],
      )
    })
  })

  describe('unbonding', () => {
    it('requestUnbond moves available stake to unbonding until the period ends', async () => {
      const gf = await networkHelpers.loadFixture(deployGridforge)
      const { staking, others } = gf
      const alice = others[0]!
      await stake(gf, alice, grid(100))
      const hash = await staking.write.requestUnbond([grid(40)], { account: alice.account })
      const readyAt = (await networkHelpers.time.latest()) + UNBONDING_PERIOD
      await viem.assertions.emitWithArgs(hash, staking, 'UnbondRequested', [
        alice.account.address,
        grid(40),
        grid(40),
        readyAt,
      ])
      assert.deepEqual(await staking.read.stakeOf([alice.account.address]), {
        staked: grid(60),
        locked: 0n,
        unbonding: grid(40),
        unbondingReadyAt: readyAt,
      })
      assert.equal(await staking.read.availableOf([alice.account.address]), grid(60))
      assert.equal(await staking.read.totalStaked(), grid(60))
      assert.equal(await staking.read.totalUnbonding(), grid(40))
      await gf.checkInvariants()
    })

    it('a second request adds to the first and restarts the period', async () => {
      const gf = await networkHelpers.loadFixture(deployGridforge)
      const { staking, others } = gf
      const [alice, bob] = [others[0]!, others[1]!]
      // Bob's unbonding shows that the event reports Alice's own total.
      await stake(gf, bob, grid(5))
      await staking.write.requestUnbond([grid(5)], { account: bob.account })
      await stake(gf, alice, grid(100))
      await staking.write.requestUnbond([grid(40)], { account: alice.account })
      const firstReadyAt = (await networkHelpers.time.latest()) + UNBONDING_PERIOD
      await networkHelpers.time.increase(3 * DAY)
      const hash = await staking.write.requestUnbond([grid(10)], { account: alice.account })
      const readyAt = (await networkHelpers.time.latest()) + UNBONDING_PERIOD
      assert.ok(readyAt > firstReadyAt)
      await viem.assertions.emitWithArgs(hash, staking, 'UnbondRequested', [
        alice.account.address,
        grid(10),
        grid(50),
        readyAt,
      ])
      const info = await staking.read.stakeOf([alice.account.address])
      assert.equal(info.unbonding, grid(50))
      assert.equal(info.unbondingReadyAt, readyAt)
      assert.equal(await staking.read.totalUnbonding(), grid(55))
      await gf.checkInvariants()

      // The first request's date no longer applies.
      await networkHelpers.time.increaseTo(firstReadyAt + 1)
      await viem.assertions.revertWithCustomErrorWithArgs(
        staking.write.withdrawUnbonded({ account: alice.account }),
        staking,
        'StakingUnbondingNotReady',
        [readyAt],
      )
    })

    it('requestUnbond rejects zero and more than the available stake', async () => {
      const gf = await networkHelpers.loadFixture(deployGridforge)
      const { staking, others } = gf
      const alice = others[0]!
      await viem.assertions.revertWithCustomError(
        staking.write.requestUnbond([0n], { account: alice.account }),
        staking,
        'StakingZeroAmount',
      )
      await stake(gf, alice, grid(100))
      await viem.assertions.revertWithCustomErrorWithArgs(
        staking.write.requestUnbond([grid(101)], { account: alice.account }),
        staking,
        'StakingInsufficientAvailable',
        [alice.account.address, grid(100), grid(101)],
      )
    })

    it('locked collateral cannot be unbonded', async () => {
      const gf = await networkHelpers.loadFixture(deployGridforge)
      const { staking, market } = gf
      const { sourceId, provider } = await withProvider(gf)
      const taskId = await gf.submitTask(gf.clients[0]!, await gf.defaultTaskParams(sourceId))
      await market.write.claimTask([taskId], { account: provider.account })
      const info = await staking.read.stakeOf([provider.account.address])
      assert.equal(info.locked, COLLATERAL)
      const available = info.staked - COLLATERAL
      assert.equal(await staking.read.availableOf([provider.account.address]), available)
      await viem.assertions.revertWithCustomErrorWithArgs(
        staking.write.requestUnbond([info.staked], { account: provider.account }),
        staking,
        'StakingInsufficientAvailable',
        [provider.account.address, available, info.staked],
      )
      // An active provider keeps the minimum stake: it pauses before unbonding the rest.
      await gf.providers.write.pause({ account: provider.account })
      await staking.write.requestUnbond([available], { account: provider.account })
      assert.equal(await staking.read.availableOf([provider.account.address]), 0n)
      await gf.checkInvariants()
    })

    it('withdrawUnbonded pays out only after the period', async () => {
      const gf = await networkHelpers.loadFixture(deployGridforge)
      const { staking, token, others } = gf
      const alice = others[0]!
      await viem.assertions.revertWithCustomErrorWithArgs(
        staking.write.withdrawUnbonded({ account: alice.account }),
        staking,
        'StakingNothingUnbonding',
        [alice.account.address],
      )
      await stake(gf, alice, grid(100))
      await staking.write.requestUnbond([grid(30)], { account: alice.account })
      const readyAt = (await staking.read.stakeOf([alice.account.address])).unbondingReadyAt

      await networkHelpers.time.setNextBlockTimestamp(readyAt - 1)
      await viem.assertions.revertWithCustomErrorWithArgs(
        staking.write.withdrawUnbonded({ account: alice.account }),
        staking,
        'StakingUnbondingNotReady',
        [readyAt],
      )

      await networkHelpers.time.increaseTo(readyAt)
      const { result } = await staking.simulate.withdrawUnbonded({ account: alice.account.address })
      assert.equal(result, grid(30))
      const before = await token.read.balanceOf([alice.account.address])
      await viem.assertions.emitWithArgs(
        staking.write.withdrawUnbonded({ account: alice.account }),
        staking,
        'UnbondedWithdrawn',
        [alice.account.address, grid(30)],
      )
      assert.equal(await token.read.balanceOf([alice.account.address]), before + grid(30))
      assert.deepEqual(await staking.read.stakeOf([alice.account.address]), {
        staked: grid(70),
        locked: 0n,
        unbonding: 0n,
        unbondingReadyAt: 0,
      })
      assert.equal(await staking.read.totalUnbonding(), 0n)
      await viem.assertions.revertWithCustomErrorWithArgs(
        staking.write.withdrawUnbonded({ account: alice.account }),
        staking,
        'StakingNothingUnbonding',
        [alice.account.address],
      )
      await gf.checkInvariants()
    })
  })

  describe('revenue share', () => {
    it('earned() counts fees still pending in the market, split by stake', async () => {
      const gf = await networkHelpers.loadFixture(deployGridforge)
      const { staking, market, others } = gf
      const [alice, bob] = [others[0]!, others[1]!]
      const { sourceId, provider } = await withProvider(gf) // provider stakes 1000
      await stake(gf, alice, grid(1_000))
      await stake(gf, bob, grid(3_000))

      await runTask(gf, sourceId, provider)
      assert.equal(await market.read.pendingStakerFees(), STAKER_FEES)
      // 5000 staked in all (the provider's locked-then-unlocked collateral included).
      const perThousand = STAKER_FEES / 5n
      assert.equal(await staking.read.earned([alice.account.address]), perThousand)
      assert.equal(await staking.read.earned([bob.account.address]), 3n * perThousand)
      assert.equal(await staking.read.earned([provider.account.address]), perThousand)
      await gf.checkInvariants()
    })

    it('claimRewards pulls pending fees, pays the caller and keeps the rest for the others', async () => {
      const gf = await networkHelpers.loadFixture(deployGridforge)
      const { staking, market, token, others } = gf
      const [alice, bob] = [others[0]!, others[1]!]
      const { sourceId, provider } = await withProvider(gf)
      await stake(gf, alice, grid(1_000))
      await stake(gf, bob, grid(3_000))
      await runTask(gf, sourceId, provider)

      const perThousand = STAKER_FEES / 5n
      const rewardPerToken = (STAKER_FEES * 10n ** 18n) / grid(5_000)
      const { result } = await staking.simulate.claimRewards({ account: alice.account.address })
      assert.equal(result, perThousand)
      const before = await token.read.balanceOf([alice.account.address])
      const hash = await staking.write.claimRewards({ account: alice.account })
      await viem.assertions.emitWithArgs(hash, market, 'StakerFeesReleased', [STAKER_FEES])
      await viem.assertions.emitWithArgs(hash, staking, 'RewardsAdded', [STAKER_FEES, rewardPerToken])
      await viem.assertions.emitWithArgs(hash, staking, 'RewardsClaimed', [
        alice.account.address,
        perThousand,
      ])
      assert.equal(await token.read.balanceOf([alice.account.address]), before + perThousand)
      assert.equal(await market.read.pendingStakerFees(), 0n)
      assert.equal(await staking.read.rewardPerToken(), rewardPerToken)
      assert.equal(await staking.read.rewardsReserve(), STAKER_FEES - perThousand)
      assert.equal(await staking.read.earned([alice.account.address]), 0n)
      assert.equal(await staking.read.earned([bob.account.address]), 3n * perThousand)

      await viem.assertions.revertWithCustomErrorWithArgs(
        staking.write.claimRewards({ account: alice.account }),
        staking,
        'StakingNoRewards',
        [alice.account.address],
      )
      await viem.assertions.emitWithArgs(
        staking.write.claimRewards({ account: bob.account }),
        staking,
        'RewardsClaimed',
        [bob.account.address, 3n * perThousand],
      )
      await staking.write.claimRewards({ account: provider.account })
      assert.equal(await staking.read.rewardsReserve(), 0n)
      await gf.checkInvariants()
    })

    it('an account that stakes after fees accrued does not share them', async () => {
      const gf = await networkHelpers.loadFixture(deployGridforge)
      const { staking, others } = gf
      const [alice, carol] = [others[0]!, others[2]!]
      const { sourceId, provider } = await withProvider(gf)
      await stake(gf, alice, grid(1_000))
      await runTask(gf, sourceId, provider)
      const aliceEarned = await staking.read.earned([alice.account.address])
      assert.equal(aliceEarned, STAKER_FEES / 2n)

      // Carol's stake first moves the pending fees into the accumulator, over the old stake only.
      const hash = await stake(gf, carol, grid(10_000))
      await viem.assertions.emitWithArgs(hash, staking, 'RewardsAdded', [
        STAKER_FEES,
        (STAKER_FEES * 10n ** 18n) / grid(2_000),
      ])
      assert.equal(await staking.read.earned([carol.account.address]), 0n)
      assert.equal(await staking.read.earned([alice.account.address]), aliceEarned)
      await viem.assertions.revertWithCustomErrorWithArgs(
        staking.write.claimRewards({ account: carol.account }),
        staking,
        'StakingNoRewards',
        [carol.account.address],
      )

      // Fees accrued after her stake are shared with her: 12000 staked in all (provider, Alice, Carol).
      await runTask(gf, sourceId, provider)
      assert.equal(await staking.read.earned([carol.account.address]), (STAKER_FEES * 10n) / 12n)
      await gf.checkInvariants()
    })

    it('unbonding tokens earn nothing', async () => {
      const gf = await networkHelpers.loadFixture(deployGridforge)
      const { staking, others } = gf
      const alice = others[0]!
      const { sourceId, provider } = await withProvider(gf)
      await stake(gf, alice, grid(1_000))
      await runTask(gf, sourceId, provider)
      const earnedBefore = await staking.read.earned([alice.account.address])
      await staking.write.requestUnbond([grid(1_000)], { account: alice.account })
      // Rewards earned while staked are kept.
      assert.equal(await staking.read.earned([alice.account.address]), earnedBefore)
      await runTask(gf, sourceId, provider)
      assert.equal(await staking.read.earned([alice.account.address]), earnedBefore)
      assert.equal(await staking.read.earned([provider.account.address]), STAKER_FEES / 2n + STAKER_FEES)
      await staking.write.claimRewards({ account: alice.account })
      await gf.checkInvariants()
    })
  })

  describe('collateral', () => {
    it('the market locks on claim and unlocks on completion', async () => {
      const gf = await networkHelpers.loadFixture(deployGridforge)
      const { staking, market } = gf
      const { sourceId, provider } = await withProvider(gf)
      const taskId = await gf.submitTask(gf.clients[0]!, await gf.defaultTaskParams(sourceId))
      await viem.assertions.emitWithArgs(
        market.write.claimTask([taskId], { account: provider.account }),
        staking,
        'CollateralLocked',
        [provider.account.address, COLLATERAL],
      )
      assert.equal((await staking.read.stakeOf([provider.account.address])).locked, COLLATERAL)
      await viem.assertions.emitWithArgs(
        market.write.submitResult([taskId, sealOf(taskId, RESULT_DIGEST), 'bafyresult', 'bafyreceipt', 60], {
          account: provider.account,
        }),
        staking,
        'CollateralUnlocked',
        [provider.account.address, COLLATERAL],
      )
      assert.equal((await staking.read.stakeOf([provider.account.address])).locked, 0n)
      await gf.checkInvariants()
    })

    it('a claim needs enough available stake', async () => {
      const gf = await networkHelpers.loadFixture(deployGridforge)
      const { staking, market } = gf
      const { sourceId, provider } = await withProvider(gf)
      // Below the collateral but above the provider minimum (lowered to 1 wei for the test).
      await gf.providers.write.setMinProviderStake([1n], { account: gf.owner.account })
      await staking.write.requestUnbond([grid(1_000) - 1n], { account: provider.account })
      const taskId = await gf.submitTask(gf.clients[0]!, await gf.defaultTaskParams(sourceId))
      await viem.assertions.revertWithCustomErrorWithArgs(
        market.write.claimTask([taskId], { account: provider.account }),
        staking,
        'StakingInsufficientAvailable',
        [provider.account.address, 1n, COLLATERAL],
      )
    })

    it('the market slashes a no-show, settling its rewards first', async () => {
      const gf = await networkHelpers.loadFixture(deployGridforge)
      const { staking, market, token, others } = gf
      const alice = others[0]!
      const { sourceId, provider } = await withProvider(gf)
      await stake(gf, alice, grid(1_000))
      await runTask(gf, sourceId, provider)
      await staking.write.claimRewards({ account: alice.account }) // moves the fees into the accumulator
      const providerEarned = await staking.read.earned([provider.account.address])
      assert.equal(providerEarned, STAKER_FEES / 2n)

      const taskId = await gf.submitTask(gf.clients[0]!, await gf.defaultTaskParams(sourceId))
      await market.write.claimTask([taskId], { account: provider.account })
      const [slot] = await market.read.getSlots([taskId])
      await networkHelpers.time.increaseTo(slot!.dueAt + 1)

      const staked = (await staking.read.stakeOf([provider.account.address])).staked
      const totalStaked = await staking.read.totalStaked()
      const hash = await market.write.reopenSlot([taskId, 0], { account: alice.account })
      await viem.assertions.emitWithArgs(hash, staking, 'Slashed', [provider.account.address, COLLATERAL])
      await viem.assertions.emitWithArgs(hash, token, 'Transfer', [
        staking.address,
        market.address,
        COLLATERAL,
      ])
      assert.deepEqual(await staking.read.stakeOf([provider.account.address]), {
        staked: staked - COLLATERAL,
        locked: 0n,
        unbonding: 0n,
        unbondingReadyAt: 0,
      })
      assert.equal(await staking.read.totalStaked(), totalStaked - COLLATERAL)
      assert.equal(await staking.read.earned([provider.account.address]), providerEarned)
      await gf.checkInvariants()
    })

    it('a slash leaves every staker the share of fees that accrued before it', async () => {
      // The fees of a settlement wait in the market; a slash must count them over the stake as it was, not
      // hand the slashed provider's share to the others.
      const gf = await networkHelpers.loadFixture(deployGridforge)
      const { staking, market, others } = gf
      const alice = others[0]!
      const { sourceId, provider } = await withProvider(gf)
      await stake(gf, alice, grid(1_000))
      await runTask(gf, sourceId, provider) // STAKER_FEES pending in the market, half each
      const taskId = await gf.submitTask(gf.clients[0]!, await gf.defaultTaskParams(sourceId))
      await market.write.claimTask([taskId], { account: provider.account })
      const [slot] = await market.read.getSlots([taskId])
      await networkHelpers.time.increaseTo(slot!.dueAt + 1)
      assert.equal(await staking.read.earned([provider.account.address]), STAKER_FEES / 2n)
      assert.equal(await staking.read.earned([alice.account.address]), STAKER_FEES / 2n)

      await market.write.reopenSlot([taskId, 0], { account: alice.account })
      assert.equal(await staking.read.earned([provider.account.address]), STAKER_FEES / 2n)
      assert.equal(await staking.read.earned([alice.account.address]), STAKER_FEES / 2n)
      await staking.write.claimRewards({ account: provider.account })
      await staking.write.claimRewards({ account: alice.account })
      assert.equal(await staking.read.rewardsReserve(), 0n)
      await gf.checkInvariants()
    })

    it("fees earned by a provider slashed to zero stake are its own, not the next staker's", async () => {
      const gf = await networkHelpers.loadFixture(deployGridforge)
      const { staking, market, token, others } = gf
      const carol = others[2]!
      const { sourceId, provider } = await withProvider(gf)
      // The provider is the only staker and keeps exactly one collateral staked (no provider minimum here).
      await gf.providers.write.setMinProviderStake([0n], { account: gf.owner.account })
      await staking.write.requestUnbond([grid(1_000) - COLLATERAL], { account: provider.account })
      await runTask(gf, sourceId, provider) // all of STAKER_FEES is its, pending in the market
      // It claims again and does not show up: slashed to zero.
      const taskId = await gf.submitTask(gf.clients[0]!, await gf.defaultTaskParams(sourceId))
      await market.write.claimTask([taskId], { account: provider.account })
      const [slot] = await market.read.getSlots([taskId])
      await networkHelpers.time.increaseTo(slot!.dueAt + 1)
      await market.write.reopenSlot([taskId, 0], { account: carol.account })
      assert.equal(await staking.read.totalStaked(), 0n)

      // Carol stakes afterwards: none of the earlier fees are hers.
      await stake(gf, carol, grid(500))
      assert.equal(await staking.read.earned([carol.account.address]), 0n)
      assert.equal(await staking.read.earned([provider.account.address]), STAKER_FEES)
      const before = await token.read.balanceOf([provider.account.address])
      await staking.write.claimRewards({ account: provider.account })
      assert.equal(await token.read.balanceOf([provider.account.address]), before + STAKER_FEES)
      await gf.checkInvariants()
    })

    it('lock, unlock and slash are market only', async () => {
      const { staking, owner, others } = await networkHelpers.loadFixture(deployGridforge)
      for (const caller of [owner, others[0]!]) {
        const account = caller.account
        const target = others[1]!.account.address
        for (const call of [staking.write.lock, staking.write.unlock, staking.write.slash]) {
          await viem.assertions.revertWithCustomErrorWithArgs(
            call([target, 1n], { account }),
            staking,
            'StakingNotMarket',
            [account.address],
          )
        }
      }
    })

    it('lock, unlock and slash move collateral when called by the market', async () => {
      const gf = await networkHelpers.loadFixture(deployGridforge)
      const { staking, token, others } = gf
      const alice = others[0]!
      const target = alice.account.address
      await stake(gf, alice, grid(100))
      const market = await impersonateMarket(gf)

      await viem.assertions.revertWithCustomErrorWithArgs(
        staking.write.lock([target, grid(101)], { account: market }),
        staking,
        'StakingInsufficientAvailable',
        [target, grid(100), grid(101)],
      )
      await viem.assertions.emitWithArgs(
        staking.write.lock([target, grid(60)], { account: market }),
        staking,
        'CollateralLocked',
        [target, grid(60)],
      )
      assert.equal(await staking.read.availableOf([target]), grid(40))
      await viem.assertions.emitWithArgs(
        staking.write.unlock([target, grid(20)], { account: market }),
        staking,
        'CollateralUnlocked',
        [target, grid(20)],
      )
      assert.equal(await staking.read.availableOf([target]), grid(60))
      const before = await token.read.balanceOf([market])
      await viem.assertions.emitWithArgs(
        staking.write.slash([target, grid(25)], { account: market }),
        staking,
        'Slashed',
        [target, grid(25)],
      )
      assert.equal(await token.read.balanceOf([market]), before + grid(25))
      assert.deepEqual(await staking.read.stakeOf([target]), {
        staked: grid(75),
        locked: grid(15),
        unbonding: 0n,
        unbondingReadyAt: 0,
      })
      assert.equal(await staking.read.totalStaked(), grid(75))
      await networkHelpers.stopImpersonatingAccount(market)
    })
  })

  describe('discount tiers', () => {
    const tiers = [
      { minStake: grid(1_000), discountBps: 1_000 },
      { minStake: grid(10_000), discountBps: 2_500 },
      { minStake: grid(50_000), discountBps: 2_500 },
    ]

    it('setDiscountTiers stores the tiers and feeDiscountBps follows the stake', async () => {
      const gf = await networkHelpers.loadFixture(deployGridforge)
      const { staking, others } = gf
      const alice = others[0]!
      await viem.assertions.emitWithArgs(
        staking.write.setDiscountTiers([tiers]),
        staking,
        'DiscountTiersUpdated',
        [tiers],
      )
      assert.deepEqual(await staking.read.discountTiers(), tiers)

      assert.equal(await staking.read.feeDiscountBps([alice.account.address]), 0)
      await stake(gf, alice, grid(1_000) - 1n)
      assert.equal(await staking.read.feeDiscountBps([alice.account.address]), 0)
      await stake(gf, alice, 1n)
      assert.equal(await staking.read.feeDiscountBps([alice.account.address]), 1_000)
      await stake(gf, alice, grid(9_000))
      assert.equal(await staking.read.feeDiscountBps([alice.account.address]), 2_500)
      await stake(gf, alice, grid(80_000))
      assert.equal(await staking.read.feeDiscountBps([alice.account.address]), 2_500)

      // Unbonding stake does not count.
      await staking.write.requestUnbond([grid(85_000)], { account: alice.account })
      assert.equal(await staking.read.feeDiscountBps([alice.account.address]), 1_000)

      // An empty list removes every discount.
      await viem.assertions.emitWithArgs(
        staking.write.setDiscountTiers([[]]),
        staking,
        'DiscountTiersUpdated',
        [[]],
      )
      assert.deepEqual(await staking.read.discountTiers(), [])
      assert.equal(await staking.read.feeDiscountBps([alice.account.address]), 0)
    })

    it('the market fixes the client discount at submission', async () => {
      const gf = await networkHelpers.loadFixture(deployGridforge)
      const { staking, market } = gf
      const client = gf.clients[0]!
      const { sourceId } = await withProvider(gf)
      await staking.write.setDiscountTiers([tiers])
      await stake(gf, client, grid(10_000))
      const taskId = await gf.submitTask(client, await gf.defaultTaskParams(sourceId))
      assert.equal((await market.read.getTask([taskId])).discountBps, 2_500)
      await staking.write.setDiscountTiers([[]])
      assert.equal((await market.read.getTask([taskId])).discountBps, 2_500)
    })

    it('accepts MAX_DISCOUNT_TIERS tiers up to MAX_DISCOUNT_BPS, rejects more', async () => {
      const { staking } = await networkHelpers.loadFixture(deployGridforge)
      const max = Number(await staking.read.MAX_DISCOUNT_TIERS())
      const maxBps = await staking.read.MAX_DISCOUNT_BPS()
      const many = Array.from({ length: max + 1 }, (_, i) => ({
        minStake: grid(1_000 * (i + 1)),
        discountBps: Math.min(maxBps, 100 * (i + 1)),
      }))
      many[max - 1]!.discountBps = maxBps
      await staking.write.setDiscountTiers([many.slice(0, max)])
      assert.equal((await staking.read.discountTiers()).length, max)
      await viem.assertions.revertWithCustomErrorWithArgs(
        staking.write.setDiscountTiers([many]),
        staking,
        'StakingTooManyTiers',
        [BigInt(max + 1), BigInt(max)],
      )
    })

    it('rejects unsorted tiers, decreasing discounts and discounts above MAX_DISCOUNT_BPS', async () => {
      const { staking } = await networkHelpers.loadFixture(deployGridforge)
      const maxBps = await staking.read.MAX_DISCOUNT_BPS()
      const cases: { tiers: { minStake: bigint; discountBps: number }[]; index: bigint }[] = [
        // minStake not strictly increasing
        { tiers: [tiers[0]!, { minStake: grid(1_000), discountBps: 2_000 }], index: 1n },
        { tiers: [tiers[1]!, tiers[0]!], index: 1n },
        // discount decreasing
        { tiers: [tiers[1]!, { minStake: grid(20_000), discountBps: 2_000 }], index: 1n },
        // discount above the bound
        { tiers: [{ minStake: grid(1), discountBps: maxBps + 1 }], index: 0n },
        { tiers: [tiers[0]!, { minStake: grid(20_000), discountBps: maxBps + 1 }], index: 1n },
      ]
      for (const { tiers: bad, index } of cases) {
        await viem.assertions.revertWithCustomErrorWithArgs(
          staking.write.setDiscountTiers([bad]),
          staking,
          'StakingInvalidTier',
          [index],
        )
      }
    })
  })

  describe('owner', () => {
    it('setUnbondingPeriod accepts the bounds and rejects values beyond them', async () => {
      const { staking } = await networkHelpers.loadFixture(deployGridforge)
      const [min, max] = [
        await staking.read.MIN_UNBONDING_PERIOD(),
        await staking.read.MAX_UNBONDING_PERIOD(),
      ]
      for (const period of [min, max]) {
        await viem.assertions.emitWithArgs(
          staking.write.setUnbondingPeriod([period]),
          staking,
          'UnbondingPeriodUpdated',
          [period],
        )
        assert.equal(await staking.read.unbondingPeriod(), period)
      }
      for (const period of [min - 1, max + 1]) {
        await viem.assertions.revertWithCustomErrorWithArgs(
          staking.write.setUnbondingPeriod([period]),
          staking,
          'StakingUnbondingPeriodOutOfBounds',
          [period, min, max],
        )
      }
    })

    it('a new unbonding period applies to later requests', async () => {
      const gf = await networkHelpers.loadFixture(deployGridforge)
      const { staking, others } = gf
      const alice = others[0]!
      await stake(gf, alice, grid(10))
      await staking.write.setUnbondingPeriod([DAY])
      await staking.write.requestUnbond([grid(10)], { account: alice.account })
      assert.equal(
        (await staking.read.stakeOf([alice.account.address])).unbondingReadyAt,
        (await networkHelpers.time.latest()) + DAY,
      )
    })

    it('setters are owner only', async () => {
      const { staking, others } = await networkHelpers.loadFixture(deployGridforge)
      const account = others[0]!.account
      const calls = [
        () => staking.write.setUnbondingPeriod([DAY], { account }),
        () => staking.write.setDiscountTiers([[]], { account }),
      ]
      for (const call of calls) {
        await viem.assertions.revertWithCustomErrorWithArgs(call(), staking, 'OwnableUnauthorizedAccount', [
          account.address,
        ])
      }
    })

    it('transfers ownership in two steps', async () => {
      const { staking, owner, others } = await networkHelpers.loadFixture(deployGridforge)
      const next = others[0]!
      await viem.assertions.emitWithArgs(
        staking.write.transferOwnership([next.account.address]),
        staking,
        'OwnershipTransferStarted',
        [owner.account.address, next.account.address],
      )
      assertAddress(await staking.read.owner(), owner)
      assertAddress(await staking.read.pendingOwner(), next)
      await viem.assertions.revertWithCustomErrorWithArgs(
        staking.write.acceptOwnership({ account: others[1]!.account }),
        staking,
        'OwnableUnauthorizedAccount',
        [others[1]!.account.address],
      )
      await viem.assertions.emitWithArgs(
        staking.write.acceptOwnership({ account: next.account }),
        staking,
        'OwnershipTransferred',
        [owner.account.address, next.account.address],
      )
      assertAddress(await staking.read.owner(), next)
      await viem.assertions.revertWithCustomErrorWithArgs(
        staking.write.setUnbondingPeriod([DAY]),
        staking,
        'OwnableUnauthorizedAccount',
        [owner.account.address],
      )
      await staking.write.setUnbondingPeriod([DAY], { account: next.account })
      assert.equal(await staking.read.unbondingPeriod(), DAY)
    })
  })
})
