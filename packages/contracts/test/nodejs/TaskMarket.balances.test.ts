import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { network } from 'hardhat'
import { type Address, getAddress } from 'viem'
import { grid, type Wallet } from './helpers/fixture.js'
import {
  assertLedgerUnchanged,
  assertSettlement,
  atTime,
  auditRound,
  BPS,
  blockTime,
  checkSums,
  claim,
  commit,
  DEFAULT_MARKET_PARAMS,
  digestOf,
  ledger,
  type Market,
  releaseNotDrawn,
  reveal,
  saltOf,
  settlementModel,
  splitPayment,
  submitAndRelease,
  submitHeld,
  submitOnSource,
  submitOpaque,
  submitResult,
  TaskStatus,
  taskTerms,
  useMarketFixture,
} from './helpers/market.js'

const connection = await network.create()
const { viem, networkHelpers } = connection

// Every scenario ends with the DESIGN.md §2.5 invariants (and the per-account sums behind them).
const load = useMarketFixture(connection)
const { time } = networkHelpers
const { revertWithCustomError, revertWithCustomErrorWithArgs } = viem.assertions

/** earned() of each of `stakers`. */
async function earnedBy(m: Market, stakers: readonly Address[]) {
  const earned = new Map<Address, bigint>()
  for (const s of stakers) earned.set(getAddress(s), await m.staking.read.earned([s]))
  return earned
}

describe('TaskMarket balances and fees', () => {
  it('splits the fee exactly as the brief says: provider, rebate, creator (accrued to the source), stakers, treasury', async () => {
    const m = await load()
    const { market, staking, token, client, creator } = m
    const alice = m.provs[0]!
    const newOwner = m.others[2]!
    // The non-deterministic source: the result settles at submission (no audit hold).
    const sourceId = m.opaqueSourceId

    // A discount tier: 500 GRID staked gives 20 % of the fee back. The client stakes for it.
    await staking.write.setDiscountTiers([[{ minStake: grid(500), discountBps: 2_000 }]])
    await token.write.approve([staking.address, grid(500)], { account: client.account })
    await staking.write.stake([grid(500)], { account: client.account })
    assert.equal(await staking.read.feeDiscountBps([client.account.address]), 2_000)

    const taskId = await submitOpaque(m, { maxPayment: grid(100) })
    const task = await market.read.getTask([taskId])
    assert.equal(task.feeBps, 500)
    assert.equal(task.discountBps, 2_000)
    assert.equal(task.creatorFeeBps, 1_000)

    // The source changes hands before the task settles: the fee accrues to the source, and whoever owns it
    // when claiming gets it.
    await m.sources.write.transfer([sourceId, newOwner.account.address], { account: creator.account })
    await claim(m, alice, taskId)

    const stakers = [...m.provs.map((w) => w.account.address), client.account.address]
    const totalStaked = await staking.read.totalStaked()
    assert.equal(totalStaked, grid(4_500))
    const earnedBefore = await earnedBy(m, stakers)
    for (const e of earnedBefore.values()) assert.equal(e, 0n)

    await submitResult(m, alice, taskId)

    // payment 100: fee 5 (5 %); rebate 1 (20 % of the fee); net 4; creator 0.4 (10 % of net);
    // stakers 0.48 (12 % of net); treasury the rest, 3.12; provider 95.
    const expected = splitPayment(grid(100), {
      feeBps: 500,
      discountBps: 2_000,
      creatorFeeBps: 1_000,
      stakerShareBps: 1_200,
    })
    assert.deepEqual(expected, {
      payment: grid(100),
      fee: grid(5),
      toProvider: grid(95),
      rebate: grid(1),
      net: grid(4),
      creator: grid('0.4'),
      stakers: grid('0.48'),
      treasury: grid('3.12'),
    })
    assert.equal(await market.read.balanceOf([alice.account.address]), grid(95))
    assert.equal(await market.read.balanceOf([client.account.address]), grid(1))
    assert.equal(await market.read.creatorFeesOf([sourceId]), grid('0.4'))
    assert.equal(await market.read.balanceOf([newOwner.account.address]), 0n)
    assert.equal(await market.read.balanceOf([creator.account.address]), 0n)
    assert.equal(await market.read.pendingStakerFees(), grid('0.48'))
    assert.equal(await market.read.treasuryAccrued(), grid('3.12'))
    await checkSums(m)

    // The former owner cannot claim; the current owner moves the fees into its internal balance.
    await revertWithCustomErrorWithArgs(
      market.write.claimCreatorFees([sourceId], { account: creator.account }),
      market,
      'TaskMarketNotSourceOwner',
      [sourceId, creator.account.address],
    )
    const claimHash = await market.write.claimCreatorFees([sourceId], { account: newOwner.account })
    await viem.assertions.emitWithArgs(claimHash, market, 'CreatorFeesClaimed', [
      sourceId,
      newOwner.account.address,
      grid('0.4'),
    ])
    assert.equal(await market.read.creatorFeesOf([sourceId]), 0n)
    assert.equal(await market.read.balanceOf([newOwner.account.address]), grid('0.4'))
    await checkSums(m)

    // Stakers: earned() already counts the pending fees, pro rata to stake (locked collateral included).
    const earned = await earnedBy(m, stakers)
    let sum = 0n
    for (const s of stakers) {
      const mine = earned.get(getAddress(s))!
      const { staked } = await staking.read.stakeOf([s])
      const exact = (grid('0.48') * staked) / totalStaked
      assert.ok(
        mine <= exact && exact - mine <= staked / 10n ** 18n + 1n,
        `earned of ${s}: ${mine} vs ${exact}`,
      )
      sum += mine
    }
    assert.ok(sum <= grid('0.48') && grid('0.48') - sum <= totalStaked / 10n ** 18n + BigInt(stakers.length))

    // The client claims its share; Staking pulls the stakers' fees from the market on the way.
    const clientTokens = await token.read.balanceOf([client.account.address])
    const rewardsHash = await staking.write.claimRewards({ account: client.account })
    await viem.assertions.emitWithArgs(rewardsHash, market, 'StakerFeesReleased', [grid('0.48')])
    assert.equal(
      await token.read.balanceOf([client.account.address]),
      clientTokens + earned.get(getAddress(client.account.address))!,
    )
    assert.equal(await market.read.pendingStakerFees(), 0n)
    for (const s of stakers.slice(0, 4))
      assert.equal(await staking.read.earned([s]), earned.get(getAddress(s)))

    // The treasury's part, paid out by anyone.
    const treasuryTokens = await token.read.balanceOf([m.treasury])
    const hash = await market.write.withdrawTreasury({ account: m.others[3]!.account })
    await viem.assertions.emitWithArgs(hash, market, 'TreasuryWithdrawn', [m.treasury, grid('3.12')])
    assert.equal(await token.read.balanceOf([m.treasury]), treasuryTokens + grid('3.12'))

    // Everyone pulls their internal balance.
    for (const [wallet, amount] of [
      [alice, grid(95)],
      [client, grid(1)],
      [newOwner, grid('0.4')],
    ] as const) {
      const before = await token.read.balanceOf([wallet.account.address])
      await market.write.withdraw([amount], { account: wallet.account })
      assert.equal(await token.read.balanceOf([wallet.account.address]), before + amount)
    }
    assert.equal(await m.totalBalances(), 0n)
    assert.equal(await token.read.balanceOf([market.address]), 0n)
    await checkSums(m)
  })

  it('rounding: the treasury takes the remainder and the parts add up to the payment', async () => {
    const m = await load()
    await m.staking.write.setDiscountTiers([[{ minStake: 1n, discountBps: 3_333 }]])
    await m.token.write.approve([m.staking.address, 7n], { account: m.client.account })
    await m.staking.write.stake([7n], { account: m.client.account })
    const alice = m.provs[0]!
    const taskId = await submitOpaque(m, { maxPayment: grid(10), pricePerSecond: 123_456_789_012_347n })
    await claim(m, alice, taskId)
    const claimedAt = (await m.market.read.getSlots([taskId]))[0]!.claimedAt
    const terms = await taskTerms(m, taskId)
    const before = await ledger(m, [m.client, alice, m.creator])
    await atTime(m, claimedAt + 777)
    await submitResult(m, alice, taskId, 777)
    const after = await ledger(m, [m.client, alice, m.creator])
    const model = settlementModel(terms, DEFAULT_MARKET_PARAMS, [
      { provider: alice.account.address, kind: 'paid', runtimeSec: 777 },
    ])
    assertSettlement(before, after, model)
    const split = splitPayment(123_456_789_012_347n * 777n, {
      feeBps: 500,
      discountBps: 3_333,
      creatorFeeBps: 1_000,
      stakerShareBps: 1_200,
    })
    assert.equal(
      split.toProvider + split.rebate + split.creator + split.stakers + split.treasury,
      split.payment,
      'nothing lost to rounding',
    )
    assert.equal(after.treasuryAccrued - before.treasuryAccrued, split.treasury)
    await checkSums(m)
  })

  it('slashed collateral goes to the client by slashToClientBps, the rest to the treasury (0 % and 100 %)', async () => {
    const m = await load()
    const [alice, bob] = m.provs as [Wallet, Wallet]
    for (const [wallet, slashToClientBps] of [
      [alice, 10_000],
      [bob, 0],
    ] as const) {
      await m.market.write.setParams([{ ...DEFAULT_MARKET_PARAMS, slashToClientBps }])
      const taskId = await submitOpaque(m, { maxPayment: grid(30) })
      const { dueAt } = await claim(m, wallet, taskId)
      const terms = await taskTerms(m, taskId)
      const before = await ledger(m, [m.client, wallet, m.creator])
      await atTime(m, dueAt + 1)
      const hash = await m.market.write.reopenSlot([taskId, 0])
      const after = await ledger(m, [m.client, wallet, m.creator])
      const toClient = (grid(15) * BigInt(slashToClientBps)) / BPS
      assertSettlement(
        before,
        after,
        settlementModel(
          terms,
          { stakerShareBps: DEFAULT_MARKET_PARAMS.stakerShareBps, slashToClientBps },
          [{ provider: wallet.account.address, kind: 'slashed' }],
          false,
        ),
      )
      await viem.assertions.emitWithArgs(hash, m.market, 'ProviderSlashed', [
        taskId,
        wallet.account.address,
        0,
        grid(15),
        toClient,
        false,
      ])
      await checkSums(m)
    }
  })

  it('collateral is max(minCollateral, maxPayment × collateralBps), fixed at submission', async () => {
    const m = await load()
    await m.market.write.setParams([{ ...DEFAULT_MARKET_PARAMS, minCollateral: grid(8) }])
    const small = await submitOpaque(m, { maxPayment: grid(10) })
    const large = await submitOpaque(m, { maxPayment: grid(40) })
    // an audited result's bond, (1 − p) / p × maxPayment at p = 10 %, is above both
    const audited = await submitOnSource(m, { maxPayment: grid(1) })
    assert.equal((await m.market.read.getTask([small])).collateral, grid(8))
    assert.equal((await m.market.read.getTask([large])).collateral, grid(20))
    assert.equal((await m.market.read.getTask([audited])).collateral, grid(9))
    await m.market.write.setParams([DEFAULT_MARKET_PARAMS])
    const hash = await m.market.write.claimTask([small], { account: m.provs[0]!.account })
    await viem.assertions.emitWithArgs(hash, m.market, 'TaskClaimed', [
      small,
      m.provs[0]!.account.address,
      0,
      (n: number) => n > 0,
      grid(8),
    ])
    assert.equal((await m.staking.read.stakeOf([m.provs[0]!.account.address])).locked, grid(8))
    await submitResult(m, m.provs[0]!, small)
    assert.equal((await m.staking.read.stakeOf([m.provs[0]!.account.address])).locked, 0n)
    await checkSums(m)
  })

  describe('creator fees', () => {
    it('accrue to the source and follow it: the new owner claims what accrued before and after the transfer', async () => {
      const m = await load()
      const { market, token, creator } = m
      const [alice, bob] = m.provs as [Wallet, Wallet]
      const newOwner = m.others[2]!
      // The non-deterministic source: results settle at submission.
      const sourceId = m.opaqueSourceId

      // before the transfer: payment 100, fee 5, creator 0.5 (10 %)
      const before = await submitOpaque(m, { maxPayment: grid(100) })
      await claim(m, alice, before)
      await submitResult(m, alice, before)
      assert.equal(await market.read.creatorFeesOf([sourceId]), grid('0.5'))
      assert.equal(
        await market.read.balanceOf([creator.account.address]),
        0n,
        'nothing credited at settlement',
      )

      await m.sources.write.transfer([sourceId, newOwner.account.address], { account: creator.account })
      await revertWithCustomErrorWithArgs(
        market.write.claimCreatorFees([sourceId], { account: creator.account }),
        market,
        'TaskMarketNotSourceOwner',
        [sourceId, creator.account.address],
      )

      // after the transfer: payment 40, fee 2, creator 0.2
      const after = await submitOpaque(m, { maxPayment: grid(40) })
      await claim(m, bob, after)
      await submitResult(m, bob, after)
      assert.equal(await market.read.creatorFeesOf([sourceId]), grid('0.7'))
      assert.equal(await market.read.balanceOf([newOwner.account.address]), 0n)

      const { result } = await market.simulate.claimCreatorFees([sourceId], {
        account: newOwner.account.address,
      })
      assert.equal(result, grid('0.7'))
      const marketTokens = await token.read.balanceOf([market.address])
      const owedBefore = await m.liabilities()
      const hash = await market.write.claimCreatorFees([sourceId], { account: newOwner.account })
      await viem.assertions.emitWithArgs(hash, market, 'CreatorFeesClaimed', [
        sourceId,
        newOwner.account.address,
        grid('0.7'),
      ])
      const [event] = await m.getEvents(hash, market, 'CreatorFeesClaimed')
      assert.equal(event!.sourceId, sourceId)
      assert.equal(getAddress(event!.owner), getAddress(newOwner.account.address))
      assert.equal(await market.read.creatorFeesOf([sourceId]), 0n)
      assert.equal(await market.read.balanceOf([newOwner.account.address]), grid('0.7'))
      assert.equal(await market.read.balanceOf([creator.account.address]), 0n)
      // an internal move: no token leaves the market, fees become balance one for one
      assert.equal(await token.read.balanceOf([market.address]), marketTokens)
      const owedAfter = await m.liabilities()
      assert.equal(owedAfter.balances - owedBefore.balances, grid('0.7'))
      assert.equal(owedBefore.creatorFees - owedAfter.creatorFees, grid('0.7'))
      assert.equal(owedAfter.total, owedBefore.total)
      const receipt = await m.publicClient.waitForTransactionReceipt({ hash })
      assert.equal(
        receipt.logs.filter((log) => getAddress(log.address) === getAddress(token.address)).length,
        0,
        'no token transfer',
      )

      // nothing is claimed twice
      await revertWithCustomError(
        market.write.claimCreatorFees([sourceId], { account: newOwner.account }),
        market,
        'TaskMarketNothingToWithdraw',
      )
      // the owner withdraws them like any balance
      const tokens = await token.read.balanceOf([newOwner.account.address])
      await market.write.withdraw([grid('0.7')], { account: newOwner.account })
      assert.equal(await token.read.balanceOf([newOwner.account.address]), tokens + grid('0.7'))
      await checkSums(m)
    })

    it('claimCreatorFees: per source, current owner only, something to claim, known sources only', async () => {
      const m = await load()
      const { market, creator } = m
      const [alice, , , dave] = m.provs as [Wallet, Wallet, Wallet, Wallet]
      const otherCreator = m.others[1]!
      const stranger = m.others[3]!
      // Non-deterministic sources, so that the k = 1 results below settle at submission.
      const sourceId = m.opaqueSourceId
      const opaque = { deterministic: false }
      const source2 = await m.publishSource(otherCreator, { creatorFeeBps: 5_000, requirements: opaque })
      const free = await m.publishSource(otherCreator, { creatorFeeBps: 0, requirements: opaque })
      await m.providers.write.subscribe([[source2, free]], { account: dave.account })

      // nothing accrued yet: the owner has nothing to claim
      await revertWithCustomError(
        market.write.claimCreatorFees([sourceId], { account: creator.account }),
        market,
        'TaskMarketNothingToWithdraw',
      )

      // a task on source 2: payment 10, fee 0.5, creator 0.25 (50 %); source 1 gets nothing
      const t2 = await m.submitTask(m.client, await m.defaultTaskParams(source2, { maxPayment: grid(10) }))
      await claim(m, dave, t2)
      await submitResult(m, dave, t2)
      // a task on source 1: creator 0.05 (10 %)
      const t1 = await submitOpaque(m, { maxPayment: grid(10) })
      await claim(m, alice, t1)
      await submitResult(m, alice, t1)
      // a task on a source without creator fee: nothing accrues
      const t3 = await m.submitTask(m.client, await m.defaultTaskParams(free, { maxPayment: grid(10) }))
      await claim(m, dave, t3)
      await submitResult(m, dave, t3)
      assert.equal(await market.read.creatorFeesOf([source2]), grid('0.25'))
      assert.equal(await market.read.creatorFeesOf([sourceId]), grid('0.05'))
      assert.equal(await market.read.creatorFeesOf([free]), 0n)
      await revertWithCustomError(
        market.write.claimCreatorFees([free], { account: otherCreator.account }),
        market,
        'TaskMarketNothingToWithdraw',
      )

      // owners of one source cannot claim another's; strangers claim nothing
      await revertWithCustomErrorWithArgs(
        market.write.claimCreatorFees([source2], { account: creator.account }),
        market,
        'TaskMarketNotSourceOwner',
        [source2, creator.account.address],
      )
      await revertWithCustomErrorWithArgs(
        market.write.claimCreatorFees([sourceId], { account: otherCreator.account }),
        market,
        'TaskMarketNotSourceOwner',
        [sourceId, otherCreator.account.address],
      )
      for (const id of [sourceId, source2]) {
        await revertWithCustomErrorWithArgs(
          market.write.claimCreatorFees([id], { account: stranger.account }),
          market,
          'TaskMarketNotSourceOwner',
          [id, stranger.account.address],
        )
      }
      // unknown sources (including id 0) revert in the registry
      for (const unknown of [0, free + 1]) {
        await revertWithCustomErrorWithArgs(
          market.write.claimCreatorFees([unknown], { account: stranger.account }),
          m.sources,
          'SourceRegistryUnknownSource',
          [unknown],
        )
      }

      // a deactivated source still pays its owner what it earned
      await m.sources.write.deactivate([source2], { account: otherCreator.account })
      await viem.assertions.emitWithArgs(
        market.write.claimCreatorFees([source2], { account: otherCreator.account }),
        market,
        'CreatorFeesClaimed',
        [source2, otherCreator.account.address, grid('0.25')],
      )
      await viem.assertions.emitWithArgs(
        market.write.claimCreatorFees([sourceId], { account: creator.account }),
        market,
        'CreatorFeesClaimed',
        [sourceId, creator.account.address, grid('0.05')],
      )
      assert.equal(await market.read.balanceOf([otherCreator.account.address]), grid('0.25'))
      assert.equal(await market.read.balanceOf([creator.account.address]), grid('0.05'))
      assert.equal(await m.totalCreatorFees(), 0n)
      await checkSums(m)
    })
  })

  describe('nothing is ever paid twice', () => {
    it('a completed k = 1 task: every further call reverts and no balance moves', async () => {
      const m = await load()
      const [alice, bob] = m.provs as [Wallet, Wallet]
      const taskId = await submitOpaque(m, { maxPayment: grid(10) })
      await claim(m, alice, taskId)
      await submitResult(m, alice, taskId)
      // and one of a deterministic source, held, then released without an audit
      const released = await submitOnSource(m, { maxPayment: grid(10) })
      await claim(m, bob, released)
      await submitAndRelease(m, bob, released)
      const tracked = [m.client, alice, bob, m.creator, m.treasury, m.market.address, m.staking.address]
      const before = await ledger(m, tracked)
      for (const [id, wallet] of [
        [released, bob],
        [taskId, alice],
      ] as const) {
        const wrongStatus: [bigint, number] = [id, TaskStatus.Completed]
        await revertWithCustomErrorWithArgs(
          submitResult(m, wallet, id),
          m.market,
          'TaskMarketWrongStatus',
          wrongStatus,
        )
        await revertWithCustomErrorWithArgs(
          m.market.write.releaseResult([id]),
          m.market,
          'TaskMarketWrongStatus',
          wrongStatus,
        )
        await revertWithCustomErrorWithArgs(
          m.market.write.joinAudit([id], { account: m.provs[2]!.account }),
          m.market,
          'TaskMarketWrongStatus',
          wrongStatus,
        )
        await revertWithCustomErrorWithArgs(
          m.market.write.finalizeTask([id]),
          m.market,
          'TaskMarketWrongStatus',
          wrongStatus,
        )
      }
      const wrong: [bigint, number] = [taskId, TaskStatus.Completed]
      await revertWithCustomErrorWithArgs(
        m.market.write.claimTask([taskId], { account: bob.account }),
        m.market,
        'TaskMarketWrongStatus',
        wrong,
      )
      await revertWithCustomErrorWithArgs(
        m.market.write.cancelTask([taskId], { account: m.client.account }),
        m.market,
        'TaskMarketWrongStatus',
        wrong,
      )
      await revertWithCustomErrorWithArgs(
        m.market.write.reopenSlot([taskId, 0]),
        m.market,
        'TaskMarketWrongStatus',
        wrong,
      )
      await revertWithCustomErrorWithArgs(
        m.market.write.finalizeTask([taskId]),
        m.market,
        'TaskMarketWrongStatus',
        wrong,
      )
      await time.increase(2 * 24 * 60 * 60)
      await revertWithCustomErrorWithArgs(
        m.market.write.expireTask([taskId]),
        m.market,
        'TaskMarketWrongStatus',
        wrong,
      )
      assertLedgerUnchanged(before, await ledger(m, tracked))
      await checkSums(m)
    })

    it('a consensus task: finalize, reveal, expire and reopen after settlement change nothing', async () => {
      const m = await load()
      const [alice, bob, carol] = m.provs as [Wallet, Wallet, Wallet]
      const taskId = await submitOnSource(m, { maxPayment: grid(10), replicas: 3 })
      for (const w of [alice, bob, carol]) await claim(m, w, taskId)
      for (const w of [alice, bob, carol])
        await commit(m, w, taskId, digestOf('d'), saltOf(w.account.address))
      await reveal(m, alice, taskId, digestOf('d'), saltOf(alice.account.address))
      await reveal(m, bob, taskId, digestOf('d'), saltOf(bob.account.address))
      const deadline = (await m.market.read.getTask([taskId])).revealDeadline
      await time.increaseTo(deadline + 1)
      await m.market.write.finalizeTask([taskId]) // carol slashed, alice and bob paid
      const tracked = [m.client, alice, bob, carol, m.creator, m.treasury]
      const before = await ledger(m, tracked)
      const wrong: [bigint, number] = [taskId, TaskStatus.Completed]
      await revertWithCustomErrorWithArgs(
        m.market.write.finalizeTask([taskId]),
        m.market,
        'TaskMarketWrongStatus',
        wrong,
      )
      await revertWithCustomErrorWithArgs(
        reveal(m, carol, taskId, digestOf('d'), saltOf(carol.account.address)),
        m.market,
        'TaskMarketWrongStatus',
        wrong,
      )
      await revertWithCustomErrorWithArgs(
        m.market.write.reopenSlot([taskId, 2]),
        m.market,
        'TaskMarketWrongStatus',
        wrong,
      )
      await time.increase(2 * 24 * 60 * 60)
      await revertWithCustomErrorWithArgs(
        m.market.write.expireTask([taskId]),
        m.market,
        'TaskMarketWrongStatus',
        wrong,
      )
      assertLedgerUnchanged(before, await ledger(m, tracked))
      await checkSums(m)
    })

    it('expired, cancelled and reopened states cannot be settled again', async () => {
      const m = await load()
      const [alice, bob] = m.provs as [Wallet, Wallet]
      const now = await time.latest()
      const expiring = await submitOnSource(m, { deadline: now + 10_000 })
      const cancelled = await submitOnSource(m)
      const reopened = await submitOnSource(m, { replicas: 2 })
      await claim(m, alice, expiring)
      await m.market.write.cancelTask([cancelled], { account: m.client.account })
      const { dueAt } = await claim(m, bob, reopened)
      await time.increaseTo(Math.max(now + 10_001, dueAt + 1))
      await m.market.write.expireTask([expiring]) // alice overdue: slashed
      await m.market.write.reopenSlot([reopened, 0]) // bob slashed once

      const tracked = [m.client, alice, bob, m.creator, m.treasury]
      const before = await ledger(m, tracked)
      await revertWithCustomErrorWithArgs(
        m.market.write.expireTask([expiring]),
        m.market,
        'TaskMarketWrongStatus',
        [expiring, TaskStatus.Expired],
      )
      await revertWithCustomErrorWithArgs(
        m.market.write.reopenSlot([expiring, 0]),
        m.market,
        'TaskMarketWrongStatus',
        [expiring, TaskStatus.Expired],
      )
      await revertWithCustomErrorWithArgs(
        m.market.write.cancelTask([cancelled], { account: m.client.account }),
        m.market,
        'TaskMarketWrongStatus',
        [cancelled, TaskStatus.Cancelled],
      )
      await revertWithCustomErrorWithArgs(
        m.market.write.expireTask([cancelled]),
        m.market,
        'TaskMarketWrongStatus',
        [cancelled, TaskStatus.Cancelled],
      )
      await revertWithCustomErrorWithArgs(
        m.market.write.reopenSlot([reopened, 0]),
        m.market,
        'TaskMarketSlotNotClaimed',
        [reopened, 0],
      )
      assertLedgerUnchanged(before, await ledger(m, tracked))
      assert.equal((await m.providers.read.getReputation([bob.account.address])).failed, 1)
      await checkSums(m)
    })

    it('withdrawals, treasury payouts and rewards are paid once', async () => {
      const m = await load()
      const alice = m.provs[0]!
      const taskId = await submitOpaque(m, { maxPayment: grid(10) })
      await claim(m, alice, taskId)
      await submitResult(m, alice, taskId)
      await m.market.write.withdraw([grid('9.5')], { account: alice.account })
      await revertWithCustomErrorWithArgs(
        m.market.write.withdraw([1n], { account: alice.account }),
        m.market,
        'TaskMarketInsufficientBalance',
        [alice.account.address, 0n, 1n],
      )
      await m.market.write.withdrawTreasury()
      await revertWithCustomError(m.market.write.withdrawTreasury(), m.market, 'TaskMarketNothingToWithdraw')
      await m.staking.write.claimRewards({ account: alice.account })
      await revertWithCustomErrorWithArgs(
        m.staking.write.claimRewards({ account: alice.account }),
        m.staking,
        'StakingNoRewards',
        [alice.account.address],
      )
      await checkSums(m)
    })
  })

  it('the invariants hold through a long mixed history, and everything can be drained at the end', async () => {
    const m = await load()
    const { market, staking, token } = m
    const [alice, bob, carol, dave] = m.provs as [Wallet, Wallet, Wallet, Wallet]
    const [c1, c2, c3] = m.clients as [Wallet, Wallet, Wallet]
    await staking.write.setDiscountTiers([
      [
        { minStake: grid(100), discountBps: 1_000 },
        { minStake: grid(1_000), discountBps: 3_000 },
      ],
    ])
    const step = async () => checkSums(m)

    await m.deposit(c1, grid(200))
    await step()
    await token.write.approve([staking.address, grid(1_000)], { account: c2.account })
    await staking.write.stake([grid(1_000)], { account: c2.account })
    await step()
    // A non-deterministic source: its k = 1 results settle at submission.
    const source2 = await m.publishSource(m.others[1]!, {
      creatorFeeBps: 5_000,
      requirements: { deterministic: false },
    })
    await m.providers.write.subscribe([[source2]], { account: dave.account })

    // k = 1 metered on the deterministic source, by c1 (from balance): held, then released without an audit
    const t1 = await m.submitTask(
      c1,
      await m.defaultTaskParams(m.sourceId, { maxPayment: grid(50), pricePerSecond: grid('0.1') }),
    )
    await step()
    await claim(m, alice, t1)
    await time.increase(123)
    await submitHeld(m, alice, t1, digestOf('t1'), 10_000)
    await step()
    await releaseNotDrawn(m, t1)
    await step()

    // k = 3 with one outvoted, by c2 (discount 30 %): the results differ, so dave's audit decides
    const t2 = await m.submitTask(
      c2,
      await m.defaultTaskParams(m.sourceId, { maxPayment: grid(33), replicas: 3 }),
    )
    for (const w of [alice, bob, carol]) await claim(m, w, t2)
    await step()
    await commit(m, alice, t2, digestOf('ok'), saltOf('1'))
    await commit(m, bob, t2, digestOf('ko'), saltOf('2'))
    await commit(m, carol, t2, digestOf('ok'), saltOf('3'))
    await step()
    await reveal(m, alice, t2, digestOf('ok'), saltOf('1'))
    await reveal(m, bob, t2, digestOf('ko'), saltOf('2'))
    await reveal(m, carol, t2, digestOf('ok'), saltOf('3'))
    assert.equal((await market.read.getTask([t2])).status, TaskStatus.Auditing)
    await step()
    await auditRound(m, t2, [[dave, digestOf('ok')]])
    assert.equal((await market.read.getTask([t2])).status, TaskStatus.Completed)
    await step()

    // Stakers' fees are released mid-way by an unbond request
    await staking.write.requestUnbond([grid(10)], { account: bob.account })
    await step()

    // k = 1 no-show, reopened, then completed by dave on the other source
    const t3 = await m.submitTask(c3, await m.defaultTaskParams(m.sourceId, { maxPayment: grid(7) }))
    const { dueAt } = await claim(m, bob, t3)
    await time.increaseTo(dueAt + 1)
    await market.write.reopenSlot([t3, 0])
    await step()
    await claim(m, carol, t3)
    await submitAndRelease(m, carol, t3)
    await step()
    const t4 = await m.submitTask(c3, await m.defaultTaskParams(source2, { maxPayment: grid(9) }))
    await claim(m, dave, t4)
    await submitResult(m, dave, t4)
    await step()

    // a batch, a cancel and an expiry
    const now = await time.latest()
    const batch = [
      await m.defaultTaskParams(m.sourceId, { maxPayment: grid(1) }),
      await m.defaultTaskParams(m.sourceId, { maxPayment: grid(2), replicas: 2, deadline: now + 5_000 }),
    ]
    await token.write.approve([market.address, grid(5)], { account: c1.account })
    const hash = await market.write.submitTasks([batch], { account: c1.account })
    const [firstId] = (await m.getEvents(hash, market, 'TaskSubmitted')).map((e) => e.taskId)
    await step()
    await market.write.cancelTask([firstId!], { account: c1.account })
    await claim(m, alice, firstId! + 1n)
    await commit(m, alice, firstId! + 1n, digestOf('z'), saltOf('z'))
    await time.increaseTo(now + 5_001)
    await market.write.expireTask([firstId! + 1n])
    await step()

    // k = 2 failing consensus with a missed reveal
    const t5 = await m.submitTask(
      c2,
      await m.defaultTaskParams(m.sourceId, { maxPayment: grid(11), replicas: 2 }),
    )
    await claim(m, carol, t5)
    await claim(m, dave, t5)
    await commit(m, carol, t5, digestOf('q'), saltOf('q'))
    const last = await commit(m, dave, t5, digestOf('q'), saltOf('qq'))
    await reveal(m, carol, t5, digestOf('q'), saltOf('q'))
    await time.increaseTo((await blockTime(m, last)) + DEFAULT_MARKET_PARAMS.revealWindow + 1)
    await market.write.finalizeTask([t5])
    assert.equal((await market.read.getTask([t5])).status, TaskStatus.Failed)
    await step()

    // Drain: every source's creator fees, every internal balance, the treasury and every staker's rewards.
    const wallets = await viem.getWalletClients()
    for (const [sourceId, owner] of [
      [m.sourceId, m.creator],
      [source2, m.others[1]!],
    ] as const) {
      const fees = await market.read.creatorFeesOf([sourceId])
      assert.ok(fees > 0n, `source ${sourceId} earned creator fees`)
      await market.write.claimCreatorFees([sourceId], { account: owner.account })
    }
    await step()
    for (const w of wallets) {
      const balance = await market.read.balanceOf([w.account.address])
      if (balance > 0n) await market.write.withdraw([balance], { account: w.account })
      if ((await staking.read.earned([w.account.address])) > 0n) {
        await staking.write.claimRewards({ account: w.account })
      }
    }
    await market.write.withdrawTreasury()
    await step()
    assert.equal(await m.totalBalances(), 0n)
    assert.equal(await m.totalEscrow(), 0n)
    assert.equal(await m.totalCreatorFees(), 0n)
    assert.equal(await market.read.treasuryAccrued(), 0n)
    assert.equal(await market.read.pendingStakerFees(), 0n)
    assert.equal(
      await token.read.balanceOf([market.address]),
      0n,
      'the market holds nothing once everything is paid',
    )
    // only division dust may stay in the rewards reserve
    assert.ok((await staking.read.rewardsReserve()) < 10n ** 6n)
  })
})
