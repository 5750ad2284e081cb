import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { network } from 'hardhat'
import { getAddress, zeroAddress, zeroHash } from 'viem'
import {
  DEFAULT_CAPABILITIES,
  DEFAULT_INPUT_CID,
  DEFAULT_PROFILE_CID,
  DEFAULT_SOURCE_REQUIREMENTS,
  grid,
  RESULT_KEY,
  sealOf,
  type TaskParams,
} from './helpers/fixture.js'
import {
  AuditVerdict,
  addressOf,
  assertSettlement,
  atTime,
  blockTime,
  claim,
  commit,
  DEFAULT_MARKET_PARAMS,
  digestOf,
  ledger,
  RECEIPT_CID,
  RESULT_CID,
  RESULT_DIGEST,
  releaseNotDrawn,
  SlotStatus,
  SOURCE_CREATOR_FEE_BPS,
  SOURCE_MAX_RUNTIME_SEC,
  saltOf,
  settlementModel,
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

const DAY = 24 * 60 * 60

describe('TaskMarket lifecycle', () => {
  it('is deployed and wired as the Ignition module says', async () => {
    const m = await load()
    const { market } = m
    assert.equal(await market.read.MAX_REPLICAS(), 7)
    assert.equal(await market.read.MAX_TASK_DURATION(), 30 * DAY)
    assert.equal(getAddress(await market.read.asset()), getAddress(m.token.address))
    assert.equal(getAddress(await market.read.sources()), getAddress(m.sources.address))
    assert.equal(getAddress(await market.read.providers()), getAddress(m.providers.address))
    assert.equal(getAddress(await market.read.staking()), getAddress(m.staking.address))
    assert.equal(getAddress(await market.read.treasury()), getAddress(m.treasury))
    assert.equal(getAddress(await market.read.owner()), addressOf(m.owner))
    assert.deepEqual(await market.read.params(), DEFAULT_MARKET_PARAMS)
    assert.equal(await market.read.taskCount(), 0n)
    assert.equal(await m.totalEscrow(), 0n)
    assert.equal(await market.read.creatorFeesOf([m.sourceId]), 0n)
    assert.equal(await market.read.treasuryAccrued(), 0n)
    assert.equal(await market.read.pendingStakerFees(), 0n)
    // Staking and ProviderRegistry are the market's own: deployed by its constructor, owned by the initial owner
    assert.equal(getAddress(await m.staking.read.market()), getAddress(market.address))
    assert.equal(getAddress(await m.providers.read.market()), getAddress(market.address))
    assert.equal(getAddress(await m.staking.read.owner()), addressOf(m.owner))
    assert.equal(getAddress(await m.providers.read.owner()), addressOf(m.owner))
    // not audited: maxPayment × collateralBps (50 %)
    assert.equal(await market.read.collateralFor([grid(10), 0]), grid(5))
    // audited with p = 10 %: max(50 %, (1 − p) / p = 9, 3) × maxPayment
    assert.equal(await market.read.collateralFor([grid(10), DEFAULT_MARKET_PARAMS.auditBps]), grid(90))
    // the audits module the market delegates to is deployed code
    const audits = await market.read.auditsModule()
    assert.notEqual(getAddress(audits), getAddress(zeroAddress))
    assert.ok(((await m.publicClient.getCode({ address: audits })) ?? '0x').length > 2, 'TaskAudits has code')
  })

  it('the constructor deploys Staking and ProviderRegistry with itself as their immutable market, owned by the initial owner', async () => {
    const m = await load()
    const initialOwner = m.others[5]!
    // deployed by account 0 for another owner, with its own unbonding period and minimum stake
    const audits = await viem.deployContract('TaskAudits', [])
    const deployed = await viem.deployContract('TaskMarket', [
      m.token.address,
      m.sources.address,
      m.treasury,
      initialOwner.account.address,
      DEFAULT_MARKET_PARAMS,
      3 * DAY,
      grid(42),
      audits.address,
    ])
    assert.equal(getAddress(await deployed.read.auditsModule()), getAddress(audits.address))
    const staking = await viem.getContractAt('Staking', await deployed.read.staking())
    const providers = await viem.getContractAt('ProviderRegistry', await deployed.read.providers())
    assert.notEqual(getAddress(staking.address), getAddress(m.staking.address), 'a new Staking')
    assert.notEqual(getAddress(providers.address), getAddress(m.providers.address), 'a new ProviderRegistry')
    for (const contract of [deployed, staking, providers]) {
      assert.equal(getAddress(await contract.read.owner()), addressOf(initialOwner))
      assert.equal(getAddress(await contract.read.pendingOwner()), getAddress(zeroAddress))
    }
    assert.equal(getAddress(await staking.read.market()), getAddress(deployed.address))
    assert.equal(getAddress(await providers.read.market()), getAddress(deployed.address))
    assert.equal(getAddress(await staking.read.asset()), getAddress(m.token.address))
    assert.equal(await staking.read.unbondingPeriod(), 3 * DAY)
    assert.equal(await providers.read.minProviderStake(), grid(42))
    // no setter can re-point them (Staking's lease market is named once, never re-pointed: LeaseMarket.test.ts)
    for (const abi of [staking.abi, providers.abi]) {
      assert.equal(
        abi.some(
          (item) =>
            item.type === 'function' &&
            item.name.toLowerCase().includes('market') &&
            !['market', 'leaseMarket', 'setLeaseMarket'].includes(item.name),
        ),
        false,
      )
    }
    // the new ProviderRegistry reads the new Staking: a provider staked there registers and claims on the new market
    // (a task of the non-deterministic source: not audited, so the collateral is 50 % of the payment)
    const alice = m.provs[0]!
    await m.token.write.approve([staking.address, grid(42)], { account: alice.account })
    await staking.write.stake([grid(42)], { account: alice.account })
    await providers.write.register([DEFAULT_CAPABILITIES, DEFAULT_PROFILE_CID], { account: alice.account })
    await providers.write.subscribe([[m.opaqueSourceId]], { account: alice.account })
    const params = await m.defaultTaskParams(m.opaqueSourceId, { maxPayment: grid(10) })
    await m.token.write.approve([deployed.address, grid(10)], { account: m.client.account })
    await deployed.write.submitTask([params], { account: m.client.account })
    await deployed.write.claimTask([1n], { account: alice.account })
    assert.equal((await staking.read.stakeOf([alice.account.address])).locked, grid(5))
    assert.equal((await providers.read.getReputation([alice.account.address])).claimed, 1)
    // only that market locks collateral: not the deployer, not the owner
    await viem.assertions.revertWithCustomErrorWithArgs(
      staking.write.lock([alice.account.address, 1n]),
      staking,
      'StakingNotMarket',
      [getAddress(m.owner.account.address)],
    )
    await viem.assertions.revertWithCustomErrorWithArgs(
      staking.write.lock([alice.account.address, 1n], { account: initialOwner.account }),
      staking,
      'StakingNotMarket',
      [getAddress(initialOwner.account.address)],
    )
  })

  it('k = 1, fixed price: submit → claim → submitResult settles in one transaction', async () => {
    // A non-deterministic source: its results cannot be audited, so nothing is held.
    const m = await load()
    const { market, client, creator } = m
    const sourceId = m.opaqueSourceId
    const [alice] = m.provs as [typeof client]
    const params = await m.defaultTaskParams(sourceId, {
      maxPayment: grid(40),
      minCompleted: 0,
      minSuccessBps: 0,
    })
    const escrow = grid(40)

    // submit: the whole escrow is pulled with transferFrom (nothing deposited yet)
    await m.token.write.approve([market.address, escrow], { account: client.account })
    const clientTokens = await m.token.read.balanceOf([client.account.address])
    const submitHash = await market.write.submitTask([params], { account: client.account })
    await viem.assertions.emitWithArgs(submitHash, market, 'TaskSubmitted', [
      1n,
      client.account.address,
      sourceId,
      DEFAULT_INPUT_CID,
      RESULT_KEY, // the client's key, which providers encrypt the output to: in the event only
      escrow,
    ])
    await viem.assertions.emitWithArgs(submitHash, market, 'Deposited', [client.account.address, escrow])
    assert.equal(await m.token.read.balanceOf([client.account.address]), clientTokens - escrow)
    assert.equal(await market.read.taskCount(), 1n)
    assert.equal(await m.totalEscrow(), escrow)
    assert.equal(await market.read.balanceOf([client.account.address]), 0n)

    const task = await market.read.getTask([1n])
    assert.equal(getAddress(task.client), addressOf(client))
    assert.equal(task.sourceId, sourceId)
    assert.equal(task.replicas, 1)
    assert.equal(task.status, TaskStatus.Open)
    assert.equal(task.openSlots, 0b1)
    assert.equal(task.committed, 0)
    assert.equal(task.revealed, 0)
    assert.equal(task.feeBps, DEFAULT_MARKET_PARAMS.protocolFeeBps)
    assert.equal(task.maxPayment, grid(40))
    assert.equal(task.pricePerSecond, 0n)
    assert.equal(task.deadline, params.deadline)
    assert.equal(task.creatorFeeBps, SOURCE_CREATOR_FEE_BPS)
    assert.equal(task.discountBps, 0)
    assert.equal(task.collateral, grid(20))
    assert.equal(task.requirements.minGpus, DEFAULT_SOURCE_REQUIREMENTS.minGpus)
    assert.equal(task.requirements.minVramMiB, DEFAULT_SOURCE_REQUIREMENTS.minVramMiB)
    assert.equal(task.requirements.minComputeCapability, DEFAULT_SOURCE_REQUIREMENTS.minComputeCapability)
    assert.equal(task.requirements.maxRuntimeSec, SOURCE_MAX_RUNTIME_SEC)
    assert.equal(task.requirements.deterministic, false)
    assert.equal(task.revealDeadline, 0)
    assert.equal(task.failed, false)
    assert.equal(task.auditBps, 0, 'not auditable')
    const [freeSlot] = await market.read.getSlots([1n])
    assert.equal(freeSlot!.status, SlotStatus.Free)

    // claim
    const claimHash = await market.write.claimTask([1n], { account: alice.account })
    const claimedAt = await blockTime(m, claimHash)
    const dueAt = claimedAt + SOURCE_MAX_RUNTIME_SEC + DEFAULT_MARKET_PARAMS.claimGrace
    await viem.assertions.emitWithArgs(claimHash, market, 'TaskClaimed', [
      1n,
      alice.account.address,
      0,
      dueAt,
      grid(20),
    ])
    await viem.assertions.emitWithArgs(claimHash, m.staking, 'CollateralLocked', [
      alice.account.address,
      grid(20),
    ])
    assert.equal((await market.read.getTask([1n])).status, TaskStatus.Claimed)
    assert.equal((await market.read.getTask([1n])).openSlots, 0)
    const [slot] = await market.read.getSlots([1n])
    assert.equal(getAddress(slot!.provider), addressOf(alice))
    assert.equal(slot!.claimedAt, claimedAt)
    assert.equal(slot!.dueAt, dueAt)
    assert.equal(slot!.status, SlotStatus.Claimed)
    assert.equal((await m.staking.read.stakeOf([alice.account.address])).locked, grid(20))
    assert.equal((await m.providers.read.getReputation([alice.account.address])).claimed, 1)
    await m.checkInvariants()

    // submit the result 90 s after the claim
    const terms = await taskTerms(m, 1n)
    const before = await ledger(m, [client, alice, creator, m.treasury])
    await atTime(m, claimedAt + 90)
    const submitResultHash = await submitResult(m, alice, 1n, 75)
    const after = await ledger(m, [client, alice, creator, m.treasury])
    const model = settlementModel(terms, DEFAULT_MARKET_PARAMS, [
      { provider: alice.account.address, kind: 'paid', runtimeSec: 75 },
    ])
    assertSettlement(before, after, model)
    // The provider hands in the seal of its output's digest, and that is what the events carry.
    await viem.assertions.emitWithArgs(submitResultHash, market, 'ResultSubmitted', [
      1n,
      alice.account.address,
      0,
      sealOf(1n, RESULT_DIGEST),
      RESULT_CID,
      RECEIPT_CID,
      75,
    ])
    await viem.assertions.emitWithArgs(submitResultHash, market, 'ReplicaPaid', [
      1n,
      alice.account.address,
      0,
      grid(40),
      grid(2),
    ])
    await viem.assertions.emitWithArgs(submitResultHash, market, 'TaskFinalized', [
      1n,
      client.account.address,
      TaskStatus.Completed,
      sealOf(1n, RESULT_DIGEST),
      grid(40),
      0n,
    ])
    await viem.assertions.emitWithArgs(submitResultHash, m.staking, 'CollateralUnlocked', [
      alice.account.address,
      grid(20),
    ])
    // 40 − 5 % = 38 to Alice; fee 2 = 0.2 creator (10 %) + 0.24 stakers (12 %) + 1.56 treasury (the rest).
    // The creator's part accrues to the source; its owner claims it into its balance.
    assert.equal(await market.read.balanceOf([alice.account.address]), grid(38))
    assert.equal(await market.read.creatorFeesOf([sourceId]), grid('0.2'))
    assert.equal(await market.read.balanceOf([creator.account.address]), 0n)
    assert.equal(await market.read.pendingStakerFees(), grid('0.24'))
    assert.equal(await market.read.treasuryAccrued(), grid('1.56'))
    assert.equal(await m.totalEscrow(), 0n)

    const settled = await market.read.getTask([1n])
    assert.equal(settled.status, TaskStatus.Completed)
    const [done] = await market.read.getSlots([1n])
    assert.equal(done!.status, SlotStatus.Submitted)
    assert.equal((await market.read.getAudit([1n])).verdict, AuditVerdict.None, 'no audit')
    const reputation = await m.providers.read.getReputation([alice.account.address])
    assert.equal(reputation.claimed, 1)
    assert.equal(reputation.completed, 1)
    assert.equal(reputation.failed, 0)
    assert.equal(reputation.totalRuntimeSec, 75n)
    assert.equal((await m.staking.read.stakeOf([alice.account.address])).locked, 0n)

    // the provider pulls its earnings
    const aliceTokens = await m.token.read.balanceOf([alice.account.address])
    await market.write.withdraw([grid(38)], { account: alice.account })
    assert.equal(await m.token.read.balanceOf([alice.account.address]), aliceTokens + grid(38))
    assert.equal(await market.read.balanceOf([alice.account.address]), 0n)
  })

  it('k = 1 on a deterministic source: the result is held, and released without an audit it settles as above', async () => {
    const m = await load()
    const { market, client, creator } = m
    const [alice] = m.provs as [typeof client]
    const keeper = m.others[1]!
    const taskId = await submitOnSource(m, { maxPayment: grid(40) })
    // auditable: 2 × 40 escrowed (the first auditor's payment too), collateral 9 × 40 at p = 10 %
    assert.equal(await m.totalEscrow(), grid(80))
    const task = await market.read.getTask([taskId])
    assert.equal(task.auditBps, DEFAULT_MARKET_PARAMS.auditBps)
    assert.equal(task.collateral, grid(360))
    const { dueAt } = await claim(m, alice, taskId)
    const claimedAt = (await market.read.getSlots([taskId]))[0]!.claimedAt
    const terms = await taskTerms(m, taskId)
    const before = await ledger(m, [client, alice, creator, keeper, m.treasury])

    // The result is in; nothing is paid and the collateral stays locked. The completion counts now.
    await atTime(m, claimedAt + 90)
    const digest = digestOf('held')
    const { hash: submitHash, blockNumber } = await submitHeld(m, alice, taskId, digest, 75)
    await viem.assertions.emitWithArgs(submitHash, market, 'ResultSubmitted', [
      taskId,
      alice.account.address,
      0,
      sealOf(taskId, digest),
      RESULT_CID,
      RECEIPT_CID,
      75,
    ])
    assert.deepEqual(await m.getEvents(submitHash, market, 'ReplicaPaid'), [])
    assert.deepEqual(await m.getEvents(submitHash, market, 'TaskFinalized'), [])
    const [held] = await market.read.getSlots([taskId])
    assert.equal(held!.status, SlotStatus.Submitted)
    assert.equal(held!.claimedAt, 0)
    assert.ok(held!.dueAt < dueAt, 'dueAt now holds the submission block')
    const mid = await ledger(m, [client, alice, creator, keeper, m.treasury])
    assert.deepEqual(mid.balances, before.balances)
    assert.equal(mid.totalEscrow, grid(80))
    assert.equal(mid.stakes.get(addressOf(alice))!.locked, grid(360))
    assert.equal((await m.providers.read.getReputation([alice.account.address])).completed, 1)
    assert.equal((await market.read.getAudit([taskId])).verdict, AuditVerdict.None)
    await m.checkInvariants()

    // The draw reads the hash of the block after the submission: not before the one after that.
    await viem.assertions.revertWithCustomErrorWithArgs(
      market.write.releaseResult([taskId], { account: keeper.account }),
      market,
      'TaskMarketDrawNotReady',
      [taskId, blockNumber + 2n],
    )
    const releaseHash = await releaseNotDrawn(m, taskId, keeper)
    const after = await ledger(m, [client, alice, creator, keeper, m.treasury])
    const model = settlementModel(terms, DEFAULT_MARKET_PARAMS, [
      { provider: alice.account.address, kind: 'paid', runtimeSec: 75 },
    ])
    assert.equal(model.escrow, grid(80))
    assert.equal(model.refund, grid(40))
    assertSettlement(before, after, model)
    await viem.assertions.emitWithArgs(releaseHash, market, 'AuditDrawn', [taskId, false])
    await viem.assertions.emitWithArgs(releaseHash, market, 'ReplicaPaid', [
      taskId,
      alice.account.address,
      0,
      grid(40),
      grid(2),
    ])
    await viem.assertions.emitWithArgs(releaseHash, market, 'TaskFinalized', [
      taskId,
      client.account.address,
      TaskStatus.Completed,
      zeroHash, // a held result keeps only its seal's tag: the release names no result
      grid(40),
      grid(40),
    ])
    assert.equal((await market.read.getTask([taskId])).status, TaskStatus.Completed)
    assert.equal((await market.read.getAudit([taskId])).verdict, AuditVerdict.NotDrawn)
    // the completion was counted once, at submission
    const reputation = await m.providers.read.getReputation([alice.account.address])
    assert.equal(reputation.completed, 1)
    assert.equal(reputation.totalRuntimeSec, 75n)
    await viem.assertions.revertWithCustomErrorWithArgs(
      market.write.releaseResult([taskId]),
      market,
      'TaskMarketWrongStatus',
      [taskId, TaskStatus.Completed],
    )
  })

  it('getTask reports the merged requirements: minimums raised, maxRuntimeSec lowered, deterministic = source’s', async () => {
    const m = await load()
    const loose = await m.defaultTaskParams(m.sourceId, {
      requirements: {
        minGpus: 0,
        minVramMiB: 8_192,
        minComputeCapability: 70,
        maxRuntimeSec: 7_200,
        deterministic: false,
      },
    })
    const strict = await m.defaultTaskParams(m.sourceId, {
      requirements: {
        minGpus: 2,
        minVramMiB: 20_000,
        minComputeCapability: 86,
        maxRuntimeSec: 600,
        deterministic: false,
      },
    })
    const looseId = await m.submitTask(m.client, loose)
    const strictId = await m.submitTask(m.client, strict)
    // Source: 1 GPU, 16 GiB, sm_80, 3600 s, deterministic. A task cannot loosen any of it.
    const looseTask = await m.market.read.getTask([looseId])
    const strictTask = await m.market.read.getTask([strictId])
    assert.deepEqual(
      { ...looseTask.requirements, deterministic: undefined },
      {
        minGpus: 1,
        minVramMiB: 16_384,
        minComputeCapability: 80,
        maxRuntimeSec: 3_600,
        deterministic: undefined,
      },
    )
    assert.deepEqual(
      { ...strictTask.requirements, deterministic: undefined },
      {
        minGpus: 2,
        minVramMiB: 20_000,
        minComputeCapability: 86,
        maxRuntimeSec: 600,
        deterministic: undefined,
      },
    )
    // A lowered maxRuntimeSec shortens the claim's due time.
    const claimed = await claim(m, m.provs[0]!, strictId)
    const claimedAt = (await m.market.read.getSlots([strictId]))[0]!.claimedAt
    assert.equal(claimed.dueAt, claimedAt + 600 + DEFAULT_MARKET_PARAMS.claimGrace)
    await m.checkInvariants()
    // deterministic is the source's (true), whatever the task asked and whatever k is
    assert.equal(looseTask.requirements.deterministic, true, 'k = 1 task on a deterministic source')
    assert.equal(strictTask.requirements.deterministic, true, 'k = 1 task on a deterministic source')
    // so a k = 1 result there is audited, with the market's default probability
    assert.equal(looseTask.auditBps, DEFAULT_MARKET_PARAMS.auditBps)
  })

  it('refuses a claim whose due time would pass the deadline: the runtime limit and the grace must fit', async () => {
    // A honeypot: a task whose deadline leaves 1,000 s for a source limited to 3,600 s. Before, the claim was
    // accepted (due at the deadline) and the provider, unable to finish, was slashed for the client's benefit.
    const m = await load()
    const now = await time.latest()
    const taskId = await submitOnSource(m, { deadline: now + 1_000 })
    const alice = m.provs[0]!
    const next = (await time.latest()) + 1
    await time.setNextBlockTimestamp(next)
    await viem.assertions.revertWithCustomErrorWithArgs(
      m.market.write.claimTask([taskId], { account: alice.account }),
      m.market,
      'TaskMarketClaimWindowTooShort',
      [taskId, now + 1_000, BigInt(next + SOURCE_MAX_RUNTIME_SEC + DEFAULT_MARKET_PARAMS.claimGrace)],
    )
    // Exactly enough time is enough.
    const later = (await time.latest()) + 10
    const fits = later + SOURCE_MAX_RUNTIME_SEC + DEFAULT_MARKET_PARAMS.claimGrace
    const fitting = await submitOnSource(m, { deadline: fits })
    await time.setNextBlockTimestamp(later)
    const claimed = await claim(m, alice, fitting)
    assert.equal(claimed.dueAt, fits)
  })

  // A non-deterministic source: the result settles at submission (an audited one is held; see the audits suite).
  describe('k = 1, metered', () => {
    it('pays pricePerSecond × runtime, refunds the rest, and caps the runtime by the time since the claim', async () => {
      const m = await load()
      const { market, client, creator } = m
      const alice = m.provs[0]!
      // 0.01 GRID/s up to 10 GRID: 1000 s reach the cap
      const taskId = await submitOpaque(m, { maxPayment: grid(10), pricePerSecond: grid('0.01') })
      const { dueAt } = await claim(m, alice, taskId)
      const claimedAt = (await market.read.getSlots([taskId]))[0]!.claimedAt
      assert.equal(dueAt, claimedAt + SOURCE_MAX_RUNTIME_SEC + DEFAULT_MARKET_PARAMS.claimGrace)

      const terms = await taskTerms(m, taskId)
      const before = await ledger(m, [client, alice, creator])
      // Alice claims to have run 5000 s, but only 200 s passed since the claim.
      await atTime(m, claimedAt + 200)
      const hash = await submitResult(m, alice, taskId, 5_000)
      const after = await ledger(m, [client, alice, creator])
      const model = settlementModel(terms, DEFAULT_MARKET_PARAMS, [
        { provider: alice.account.address, kind: 'paid', runtimeSec: 200 },
      ])
      assert.equal(model.paid, grid(2))
      assert.equal(model.refund, grid(8))
      assertSettlement(before, after, model)
      await viem.assertions.emitWithArgs(hash, market, 'ResultSubmitted', [
        taskId,
        alice.account.address,
        0,
        sealOf(taskId, RESULT_DIGEST),
        RESULT_CID,
        RECEIPT_CID,
        200,
      ])
      await viem.assertions.emitWithArgs(hash, market, 'ReplicaPaid', [
        taskId,
        alice.account.address,
        0,
        grid(2),
        grid('0.1'),
      ])
      await viem.assertions.emitWithArgs(hash, market, 'TaskFinalized', [
        taskId,
        client.account.address,
        TaskStatus.Completed,
        sealOf(taskId, RESULT_DIGEST),
        grid(2),
        grid(8),
      ])
      assert.equal((await m.providers.read.getReputation([alice.account.address])).totalRuntimeSec, 200n)
    })

    it("bills at most the task's runtime limit, even when the claim grace has run too", async () => {
      // The due time is the limit + the claim grace: a provider that waits until then must not bill the grace.
      const m = await load()
      const alice = m.provs[0]!
      const taskId = await submitOpaque(m, { maxPayment: grid(100), pricePerSecond: grid('0.01') })
      const { dueAt } = await claim(m, alice, taskId)
      const terms = await taskTerms(m, taskId)
      const before = await ledger(m, [m.client, alice, m.creator])
      await atTime(m, dueAt)
      const hash = await submitResult(m, alice, taskId, 2 ** 32 - 1)
      const after = await ledger(m, [m.client, alice, m.creator])
      const model = settlementModel(terms, DEFAULT_MARKET_PARAMS, [
        { provider: alice.account.address, kind: 'paid', runtimeSec: SOURCE_MAX_RUNTIME_SEC },
      ])
      assert.equal(model.paid, grid(36))
      assertSettlement(before, after, model)
      await viem.assertions.emitWithArgs(hash, m.market, 'ResultSubmitted', [
        taskId,
        alice.account.address,
        0,
        sealOf(taskId, RESULT_DIGEST),
        RESULT_CID,
        RECEIPT_CID,
        SOURCE_MAX_RUNTIME_SEC,
      ])
    })

    it('reports the counted (capped) runtime in ResultSubmitted; k = 1 slots do not store it (saves a write)', async () => {
      const m = await load()
      const alice = m.provs[0]!
      const taskId = await submitOpaque(m, { maxPayment: grid(10), pricePerSecond: grid('0.01') })
      await claim(m, alice, taskId)
      const claimedAt = (await m.market.read.getSlots([taskId]))[0]!.claimedAt
      await atTime(m, claimedAt + 200)
      await m.viem.assertions.emitWithArgs(
        submitResult(m, alice, taskId, 5_000),
        m.market,
        'ResultSubmitted',
        [taskId, alice.account.address, 0, sealOf(taskId, RESULT_DIGEST), RESULT_CID, RECEIPT_CID, 200],
      )
      assert.equal((await m.market.read.getSlots([taskId]))[0]!.runtimeSec, 0)
    })

    it('uses the reported runtime when it is below the elapsed time', async () => {
      const m = await load()
      const alice = m.provs[0]!
      const taskId = await submitOpaque(m, { maxPayment: grid(10), pricePerSecond: grid('0.01') })
      await claim(m, alice, taskId)
      const claimedAt = (await m.market.read.getSlots([taskId]))[0]!.claimedAt
      const terms = await taskTerms(m, taskId)
      const before = await ledger(m, [m.client, alice, m.creator])
      await atTime(m, claimedAt + 300)
      const hash = await submitResult(m, alice, taskId, 50)
      const after = await ledger(m, [m.client, alice, m.creator])
      const model = settlementModel(terms, DEFAULT_MARKET_PARAMS, [
        { provider: alice.account.address, kind: 'paid', runtimeSec: 50 },
      ])
      assert.equal(model.paid, grid('0.5'))
      assertSettlement(before, after, model)
      await viem.assertions.emitWithArgs(hash, m.market, 'TaskFinalized', [
        taskId,
        m.client.account.address,
        TaskStatus.Completed,
        sealOf(taskId, RESULT_DIGEST),
        grid('0.5'),
        grid('9.5'),
      ])
    })

    it('never pays more than maxPayment', async () => {
      const m = await load()
      const alice = m.provs[0]!
      const taskId = await submitOpaque(m, { maxPayment: grid(10), pricePerSecond: grid('0.01') })
      await claim(m, alice, taskId)
      const claimedAt = (await m.market.read.getSlots([taskId]))[0]!.claimedAt
      await atTime(m, claimedAt + 3_000)
      const hash = await submitResult(m, alice, taskId, 3_000)
      await viem.assertions.emitWithArgs(hash, m.market, 'TaskFinalized', [
        taskId,
        m.client.account.address,
        TaskStatus.Completed,
        sealOf(taskId, RESULT_DIGEST),
        grid(10),
        0n,
      ])
      assert.equal(await m.market.read.balanceOf([alice.account.address]), grid('9.5'))
      assert.equal(await m.market.read.balanceOf([m.client.account.address]), 0n)
    })
  })

  it('no-show: reopenSlot slashes the claimant, frees the slot, and a second provider completes', async () => {
    const m = await load()
    const { market, client, creator } = m
    const [alice, bob] = m.provs as [typeof client, typeof client]
    const keeper = m.others[1]!
    const taskId = await submitOpaque(m, { maxPayment: grid(30) })
    const { dueAt } = await claim(m, alice, taskId)
    const terms = await taskTerms(m, taskId)
    assert.equal(terms.collateral, grid(15))

    // Alice never delivers. One second past dueAt anyone may reopen the slot.
    const before = await ledger(m, [client, alice, bob, creator, keeper])
    await atTime(m, dueAt + 1)
    const reopenHash = await market.write.reopenSlot([taskId, 0], { account: keeper.account })
    const after = await ledger(m, [client, alice, bob, creator, keeper])
    const model = settlementModel(
      terms,
      DEFAULT_MARKET_PARAMS,
      [{ provider: alice.account.address, kind: 'slashed' }],
      false,
    )
    assertSettlement(before, after, model)
    await viem.assertions.emitWithArgs(reopenHash, market, 'SlotReopened', [taskId, alice.account.address, 0])
    await viem.assertions.emitWithArgs(reopenHash, market, 'ProviderSlashed', [
      taskId,
      alice.account.address,
      0,
      grid(15),
      grid('7.5'),
      false,
    ])
    await viem.assertions.emitWithArgs(reopenHash, m.staking, 'Slashed', [alice.account.address, grid(15)])
    // the slash is compensation, not a refund: the client's 30 GRID stay in escrow
    assert.equal(await market.read.balanceOf([client.account.address]), grid('7.5'))
    assert.equal(await market.read.treasuryAccrued(), grid('7.5'))
    assert.equal(await m.totalEscrow(), grid(30))
    const reopened = await market.read.getTask([taskId])
    assert.equal(reopened.status, TaskStatus.Open)
    assert.equal(reopened.openSlots, 0b1)
    const [freeSlot] = await market.read.getSlots([taskId])
    assert.equal(freeSlot!.status, SlotStatus.Free)
    const aliceReputation = await m.providers.read.getReputation([alice.account.address])
    assert.equal(aliceReputation.failed, 1)
    assert.equal(aliceReputation.slashedAmount, grid(15))
    assert.equal(await m.providers.read.successBps([alice.account.address]), 0)
    const aliceStake = await m.staking.read.stakeOf([alice.account.address])
    assert.equal(aliceStake.staked, grid(1_000) - grid(15))
    assert.equal(aliceStake.locked, 0n)
    await m.checkInvariants()

    // Bob takes the same slot and completes.
    const second = await claim(m, bob, taskId)
    assert.equal(second.slot, 0)
    const beforePay = await ledger(m, [client, alice, bob, creator])
    const payHash = await submitResult(m, bob, taskId)
    const afterPay = await ledger(m, [client, alice, bob, creator])
    assertSettlement(
      beforePay,
      afterPay,
      settlementModel(terms, DEFAULT_MARKET_PARAMS, [
        { provider: bob.account.address, kind: 'paid', runtimeSec: 60 },
      ]),
    )
    await viem.assertions.emitWithArgs(payHash, market, 'TaskFinalized', [
      taskId,
      client.account.address,
      TaskStatus.Completed,
      sealOf(taskId, RESULT_DIGEST),
      grid(30),
      0n,
    ])
    assert.equal(await market.read.balanceOf([bob.account.address]), grid('28.5'))
  })

  describe('expiry', () => {
    it('refunds all escrow; overdue claimants are slashed, committed ones unlocked', async () => {
      const m = await load()
      const { market, client, creator } = m
      const [alice, bob, carol] = m.provs as [typeof client, typeof client, typeof client]
      const now = await time.latest()
      const taskId = await submitOnSource(m, { maxPayment: grid(20), replicas: 3, deadline: now + 2 * DAY })
      await claim(m, alice, taskId)
      await claim(m, bob, taskId)
      await commit(m, alice, taskId, digestOf('a'), saltOf('a'))
      // carol never shows up on slot 2; bob claimed and never committed
      const terms = await taskTerms(m, taskId)
      const before = await ledger(m, [client, alice, bob, carol, creator])
      await viem.assertions.revertWithCustomErrorWithArgs(
        market.write.expireTask([taskId]),
        market,
        'TaskMarketDeadlineNotPassed',
        [taskId, now + 2 * DAY],
      )
      await atTime(m, now + 2 * DAY + 1)
      const hash = await market.write.expireTask([taskId], { account: m.others[2]!.account })
      const after = await ledger(m, [client, alice, bob, carol, creator])
      const model = settlementModel(terms, DEFAULT_MARKET_PARAMS, [
        { provider: alice.account.address, kind: 'unlocked' },
        { provider: bob.account.address, kind: 'slashed' },
      ])
      assertSettlement(before, after, model)
      assert.equal(model.refund, grid(60))
      await viem.assertions.emitWithArgs(hash, market, 'ProviderSlashed', [
        taskId,
        bob.account.address,
        1,
        grid(10),
        grid(5),
        false,
      ])
      await viem.assertions.emitWithArgs(hash, m.staking, 'CollateralUnlocked', [
        alice.account.address,
        grid(10),
      ])
      await viem.assertions.emitWithArgs(hash, market, 'TaskFinalized', [
        taskId,
        client.account.address,
        TaskStatus.Expired,
        zeroHash,
        0n,
        grid(60),
      ])
      assert.equal((await market.read.getTask([taskId])).status, TaskStatus.Expired)
      assert.equal(await market.read.balanceOf([client.account.address]), grid(65))
      const bobReputation = await m.providers.read.getReputation([bob.account.address])
      assert.equal(bobReputation.failed, 1)
      assert.equal(bobReputation.slashedAmount, grid(10))
      const aliceReputation = await m.providers.read.getReputation([alice.account.address])
      assert.equal(aliceReputation.failed, 0)
      assert.equal(aliceReputation.completed, 0)
    })

    it('refunds an unclaimed task', async () => {
      const m = await load()
      const now = await time.latest()
      // k = 1 on the deterministic source: auditable, so it escrowed 2 × 7 (the first auditor's payment too)
      const taskId = await submitOnSource(m, { maxPayment: grid(7), deadline: now + 100 })
      assert.equal(await m.totalEscrow(), grid(14))
      await atTime(m, now + 101)
      const hash = await m.market.write.expireTask([taskId])
      await viem.assertions.emitWithArgs(hash, m.market, 'TaskFinalized', [
        taskId,
        m.client.account.address,
        TaskStatus.Expired,
        zeroHash,
        0n,
        grid(14),
      ])
      assert.equal(await m.market.read.balanceOf([m.client.account.address]), grid(14))
      assert.equal(await m.totalEscrow(), 0n)
    })
  })

  it('cancel: the client gets the escrow back before any claim', async () => {
    const m = await load()
    const { market, client } = m
    const taskId = await submitOnSource(m, { maxPayment: grid(12), replicas: 2 })
    assert.equal(await m.totalEscrow(), grid(24))
    const hash = await market.write.cancelTask([taskId], { account: client.account })
    await viem.assertions.emitWithArgs(hash, market, 'TaskFinalized', [
      taskId,
      client.account.address,
      TaskStatus.Cancelled,
      zeroHash,
      0n,
      grid(24),
    ])
    assert.equal((await market.read.getTask([taskId])).status, TaskStatus.Cancelled)
    assert.equal(await market.read.balanceOf([client.account.address]), grid(24))
    assert.equal(await m.totalEscrow(), 0n)
    await viem.assertions.revertWithCustomErrorWithArgs(
      market.write.claimTask([taskId], { account: m.provs[0]!.account }),
      market,
      'TaskMarketWrongStatus',
      [taskId, TaskStatus.Cancelled],
    )
    // the refunded balance pays for the next task (k = 1, not audited: escrow 24): no token transfer needed
    const tokens = await m.token.read.balanceOf([client.account.address])
    await market.write.submitTask([await m.defaultTaskParams(m.opaqueSourceId, { maxPayment: grid(24) })], {
      account: client.account,
    })
    assert.equal(await m.token.read.balanceOf([client.account.address]), tokens)
    assert.equal(await market.read.balanceOf([client.account.address]), 0n)
  })

  it('submitTasks: 20 tasks, consecutive ids, one shortfall pull', async () => {
    const m = await load()
    const { market, client } = m
    await submitOnSource(m) // task 1, so the batch starts at 2
    await m.deposit(client, grid(50))
    const batch: TaskParams[] = []
    for (let i = 0; i < 20; i++) {
      batch.push(
        await m.defaultTaskParams(m.sourceId, {
          maxPayment: grid(i + 1),
          replicas: (i % 3) + 1,
          inputCID: `${DEFAULT_INPUT_CID.slice(0, -2)}${String(i).padStart(2, '0')}`,
        }),
      )
    }
    // k = 1 on this deterministic source is auditable: it escrows 2 × maxPayment; k > 1 replicas × maxPayment
    const escrowOf = (p: TaskParams) => p.maxPayment * BigInt(p.replicas === 1 ? 2 : p.replicas)
    const total = batch.reduce((sum, p) => sum + escrowOf(p), 0n)
    const shortfall = total - grid(50)
    await m.token.write.approve([market.address, shortfall], { account: client.account })
    const { result: firstId } = await market.simulate.submitTasks([batch], {
      account: client.account.address,
    })
    assert.equal(firstId, 2n)
    const escrowBefore = await m.totalEscrow()
    const tokens = await m.token.read.balanceOf([client.account.address])
    const hash = await market.write.submitTasks([batch], { account: client.account })

    const submitted = await m.getEvents(hash, market, 'TaskSubmitted')
    assert.deepEqual(
      submitted.map((e) => e.taskId),
      Array.from({ length: 20 }, (_, i) => BigInt(i + 2)),
    )
    for (const [i, event] of submitted.entries()) {
      assert.equal(getAddress(event.client), addressOf(client))
      assert.equal(event.sourceId, batch[i]!.sourceId)
      assert.equal(event.inputCID, batch[i]!.inputCID)
      assert.equal(event.resultKey, batch[i]!.resultKey)
      assert.equal(event.escrow, escrowOf(batch[i]!))
    }
    const transfers = await m.getEvents(hash, m.token, 'Transfer')
    assert.equal(transfers.length, 1, 'exactly one token transfer')
    assert.equal(getAddress(transfers[0]!.from), addressOf(client))
    assert.equal(getAddress(transfers[0]!.to), getAddress(market.address))
    assert.equal(transfers[0]!.value, shortfall)
    const deposited = await m.getEvents(hash, market, 'Deposited')
    assert.deepEqual(deposited, [{ account: getAddress(client.account.address), amount: shortfall }])

    assert.equal(await m.token.read.balanceOf([client.account.address]), tokens - shortfall)
    assert.equal(await market.read.balanceOf([client.account.address]), 0n)
    assert.equal(await m.totalEscrow(), escrowBefore + total)
    assert.equal(await market.read.taskCount(), 21n)
    // The event no longer carries the terms: each task stores exactly its params.
    for (let i = 0; i < 20; i++) {
      const task = await market.read.getTask([BigInt(i + 2)])
      const params = batch[i]!
      assert.equal(getAddress(task.client), addressOf(client))
      assert.equal(task.sourceId, params.sourceId)
      assert.equal(task.maxPayment, params.maxPayment)
      assert.equal(task.pricePerSecond, params.pricePerSecond)
      assert.equal(task.replicas, params.replicas)
      assert.equal(task.deadline, params.deadline)
      assert.equal(task.minSuccessBps, params.minSuccessBps)
      assert.equal(task.minCompleted, params.minCompleted)
      assert.equal(task.auditBps, params.replicas === 1 ? DEFAULT_MARKET_PARAMS.auditBps : 0)
      assert.equal(task.status, TaskStatus.Open)
    }
  })

  it('submitTasks takes nothing from the wallet when the internal balance covers the batch', async () => {
    const m = await load()
    await m.deposit(m.client, grid(100))
    const batch = [
      await m.defaultTaskParams(m.sourceId),
      await m.defaultTaskParams(m.sourceId, { replicas: 2 }),
    ]
    const hash = await m.market.write.submitTasks([batch], { account: m.client.account })
    // 2 × 10 for the auditable k = 1 task, 2 × 10 for the k = 2 one
    assert.equal(await m.market.read.balanceOf([m.client.account.address]), grid(60))
    const receipt = await m.publicClient.waitForTransactionReceipt({ hash })
    assert.equal(
      receipt.logs.filter((log) => getAddress(log.address) === getAddress(m.token.address)).length,
      0,
      'no token transfer',
    )
  })

  describe('balances', () => {
    it('deposit, withdraw and withdrawTo move tokens and emit events', async () => {
      const m = await load()
      const { market, token, client } = m
      const friend = m.others[3]!
      const clientTokens = await token.read.balanceOf([client.account.address])

      await token.write.approve([market.address, grid(100)], { account: client.account })
      const depositHash = await market.write.deposit([grid(100)], { account: client.account })
      await viem.assertions.emitWithArgs(depositHash, market, 'Deposited', [
        client.account.address,
        grid(100),
      ])
      assert.equal(await market.read.balanceOf([client.account.address]), grid(100))
      assert.equal(await m.totalBalances(), grid(100))
      assert.equal(await token.read.balanceOf([client.account.address]), clientTokens - grid(100))
      await m.checkInvariants()

      const withdrawHash = await market.write.withdraw([grid(30)], { account: client.account })
      await viem.assertions.emitWithArgs(withdrawHash, market, 'Withdrawn', [
        client.account.address,
        client.account.address,
        grid(30),
      ])
      assert.equal(await market.read.balanceOf([client.account.address]), grid(70))
      assert.equal(await token.read.balanceOf([client.account.address]), clientTokens - grid(70))
      await m.checkInvariants()

      const friendTokens = await token.read.balanceOf([friend.account.address])
      const toHash = await market.write.withdrawTo([friend.account.address, grid(70)], {
        account: client.account,
      })
      await viem.assertions.emitWithArgs(toHash, market, 'Withdrawn', [
        client.account.address,
        friend.account.address,
        grid(70),
      ])
      assert.equal(await market.read.balanceOf([client.account.address]), 0n)
      assert.equal(await market.read.balanceOf([friend.account.address]), 0n)
      assert.equal(await token.read.balanceOf([friend.account.address]), friendTokens + grid(70))
      assert.equal(await m.totalBalances(), 0n)
    })

    it('depositWithPermit needs no prior approval', async () => {
      const m = await load()
      const { market, token, client } = m
      const permit = await m.signPermit(client, market.address, grid(25))
      const hash = await market.write.depositWithPermit(
        [grid(25), permit.deadline, permit.v, permit.r, permit.s],
        { account: client.account },
      )
      await viem.assertions.emitWithArgs(hash, market, 'Deposited', [client.account.address, grid(25)])
      assert.equal(await market.read.balanceOf([client.account.address]), grid(25))
      assert.equal(await token.read.allowance([client.account.address, market.address]), 0n)
      assert.equal(await token.read.nonces([client.account.address]), 1n)
    })

    it('submitTaskWithPermit pulls only the shortfall with the permit', async () => {
      const m = await load()
      const { market, token, client } = m
      await m.deposit(client, grid(4))
      const params = await m.defaultTaskParams(m.sourceId, { maxPayment: grid(5), replicas: 2 })
      const permit = await m.signPermit(client, market.address, grid(6))
      const tokens = await token.read.balanceOf([client.account.address])
      const hash = await market.write.submitTaskWithPermit([params, permit], { account: client.account })
      await viem.assertions.emitWithArgs(hash, market, 'TaskSubmitted', [
        1n,
        client.account.address,
        m.sourceId,
        DEFAULT_INPUT_CID,
        RESULT_KEY,
        grid(10),
      ])
      const task = await market.read.getTask([1n])
      assert.equal(task.maxPayment, params.maxPayment)
      assert.equal(task.replicas, params.replicas)
      assert.equal(task.deadline, params.deadline)
      await viem.assertions.emitWithArgs(hash, market, 'Deposited', [client.account.address, grid(6)])
      assert.equal(await token.read.balanceOf([client.account.address]), tokens - grid(6))
      assert.equal(await market.read.balanceOf([client.account.address]), 0n)
      assert.equal(await m.totalEscrow(), grid(10))
      assert.equal(await token.read.allowance([client.account.address, market.address]), 0n)
    })
  })

  describe('governance', () => {
    it('setParams applies to new tasks only and emits ParamsUpdated', async () => {
      const m = await load()
      const { market } = m
      // A deadline that leaves room for the new claim grace (1 day) too.
      const deadline = (await time.latest()) + 3 * 86_400
      const oldTask = await submitOpaque(m, { maxPayment: grid(10), deadline })
      const oldAudited = await submitOnSource(m, { maxPayment: grid(10) })
      const next = {
        protocolFeeBps: 1_000,
        stakerShareBps: 2_500,
        collateralBps: 20_000,
        slashToClientBps: 10_000,
        revealWindow: 60,
        claimGrace: 86_400,
        minCollateral: grid(30),
        auditBps: 2_000,
        auditJoinWindow: 600,
      }
      const hash = await market.write.setParams([next])
      await viem.assertions.emitWithArgs(hash, market, 'ParamsUpdated', [next])
      assert.deepEqual(await market.read.params(), next)
      // collateral = max(minCollateral, maxPayment × collateralBps)
      assert.equal(await market.read.collateralFor([grid(10), 0]), grid(30))
      assert.equal(await market.read.collateralFor([grid(20), 0]), grid(40))
      // audited at p = 20 %: also at least (1 − p) / p = 4 and 3 × maxPayment
      assert.equal(await market.read.collateralFor([grid(10), 2_000]), grid(40))
      assert.equal(await market.read.collateralFor([grid(10), 10_000]), grid(30))

      const newTask = await submitOpaque(m, { maxPayment: grid(10) })
      const newAudited = await submitOnSource(m, { maxPayment: grid(10) })
      const oldTerms = await market.read.getTask([oldTask])
      const newTerms = await market.read.getTask([newTask])
      assert.equal(oldTerms.feeBps, 500)
      assert.equal(oldTerms.collateral, grid(5))
      assert.equal(newTerms.feeBps, 1_000)
      assert.equal(newTerms.collateral, grid(30))
      // the audit probability and the collateral it implies are fixed at submission too
      const [oldAuditedTerms, newAuditedTerms] = [
        await market.read.getTask([oldAudited]),
        await market.read.getTask([newAudited]),
      ]
      assert.equal(oldAuditedTerms.auditBps, 1_000)
      assert.equal(oldAuditedTerms.collateral, grid(90))
      assert.equal(newAuditedTerms.auditBps, 2_000)
      assert.equal(newAuditedTerms.collateral, grid(40))

      // the old task settles at its fixed 5 % fee
      const alice = m.provs[0]!
      await claim(m, alice, oldTask)
      await submitResult(m, alice, oldTask)
      assert.equal(await market.read.balanceOf([alice.account.address]), grid('9.5'))
    })

    it('setTreasury redirects withdrawTreasury and emits TreasuryUpdated', async () => {
      const m = await load()
      const { market, token } = m
      const newTreasury = m.others[4]!.account.address
      const hash = await market.write.setTreasury([newTreasury])
      await viem.assertions.emitWithArgs(hash, market, 'TreasuryUpdated', [newTreasury])
      assert.equal(getAddress(await market.read.treasury()), getAddress(newTreasury))

      const alice = m.provs[0]!
      const taskId = await submitOpaque(m, { maxPayment: grid(100) })
      await claim(m, alice, taskId)
      await submitResult(m, alice, taskId)
      const accrued = await market.read.treasuryAccrued()
      // fee 5; creator 0.5 (10 %); stakers 0.6 (12 %); treasury the rest, 3.9
      assert.equal(accrued, grid('3.9'))
      const oldTreasuryTokens = await token.read.balanceOf([m.treasury])
      const newTreasuryTokens = await token.read.balanceOf([newTreasury])
      const { result } = await market.simulate.withdrawTreasury({ account: m.others[5]!.account.address })
      assert.equal(result, accrued)
      const withdrawHash = await market.write.withdrawTreasury({ account: m.others[5]!.account })
      await viem.assertions.emitWithArgs(withdrawHash, market, 'TreasuryWithdrawn', [newTreasury, accrued])
      assert.equal(await token.read.balanceOf([newTreasury]), newTreasuryTokens + accrued)
      assert.equal(await token.read.balanceOf([m.treasury]), oldTreasuryTokens)
      assert.equal(await market.read.treasuryAccrued(), 0n)
    })

    it('ownership moves in two steps', async () => {
      const m = await load()
      const { market } = m
      const next = m.others[5]!
      await market.write.transferOwnership([next.account.address])
      assert.equal(getAddress(await market.read.pendingOwner()), addressOf(next))
      assert.equal(getAddress(await market.read.owner()), addressOf(m.owner))
      await market.write.acceptOwnership({ account: next.account })
      assert.equal(getAddress(await market.read.owner()), addressOf(next))
      await market.write.setTreasury([next.account.address], { account: next.account })
      await viem.assertions.revertWithCustomErrorWithArgs(
        market.write.setTreasury([m.owner.account.address]),
        market,
        'OwnableUnauthorizedAccount',
        [m.owner.account.address],
      )
    })
  })

  it('releaseStakerFees: Staking pulls the stakers’ share when someone claims rewards', async () => {
    const m = await load()
    const { market, staking } = m
    const alice = m.provs[0]!
    const taskId = await submitOpaque(m, { maxPayment: grid(100) })
    await claim(m, alice, taskId)
    await submitResult(m, alice, taskId)
    const pending = await market.read.pendingStakerFees()
    assert.equal(pending, grid('0.6'))
    const stakingTokens = await m.token.read.balanceOf([staking.address])
    const hash = await staking.write.claimRewards({ account: alice.account })
    await viem.assertions.emitWithArgs(hash, market, 'StakerFeesReleased', [pending])
    assert.equal(await market.read.pendingStakerFees(), 0n)
    const claimed = (await m.getEvents(hash, staking, 'RewardsClaimed'))[0]!.amount
    assert.equal(await m.token.read.balanceOf([staking.address]), stakingTokens + pending - claimed)
  })

  it('a claimant may commit while other slots are still free (k > 1)', async () => {
    const m = await load()
    const alice = m.provs[0]!
    const taskId = await submitOnSource(m, { replicas: 3 })
    await claim(m, alice, taskId)
    const hash = await commit(m, alice, taskId, digestOf('x'), saltOf('x'))
    const [event] = await m.getEvents(hash, m.market, 'ResultCommitted')
    assert.equal(event!.slot, 0)
    const task = await m.market.read.getTask([taskId])
    assert.equal(task.status, TaskStatus.Open)
    assert.equal(task.committed, 1)
    assert.equal(task.openSlots, 0b110)
  })
})
