/**
 * Reentrancy through a malicious asset: a second Gridforge system runs on ReentrantToken, whose
 * transfer / transferFrom call back into the market (or Staking) mid-transfer. Every such call must be
 * stopped by the reentrancy guard while the outer call completes and the books stay exact.
 */
import assert from 'node:assert/strict'
import { afterEach, describe, it } from 'node:test'
import { network } from 'hardhat'
import type { NetworkConnection } from 'hardhat/types/network'
import { type Address, encodeFunctionData, getAddress, type Hex, parseSignature } from 'viem'
import { defaultMarketParams } from '../../ignition/modules/core.js'
import {
  commitment,
  DEFAULT_CAPABILITIES,
  DEFAULT_IMAGE_DIGEST,
  DEFAULT_INPUT_CID,
  DEFAULT_METADATA_CID,
  DEFAULT_PROFILE_CID,
  DEFAULT_SOURCE_REQUIREMENTS,
  grid,
  marketLiabilities,
  NO_EXTRA_REQUIREMENTS,
  RESULT_KEY,
  sealOf,
  type TaskParams,
} from './helpers/fixture.js'
import {
  digestOf,
  endRace,
  mineToSeed,
  RECEIPT_CID,
  RESULT_CID,
  RESULT_DIGEST,
  saltOf,
  TaskStatus,
} from './helpers/market.js'

const connection = await network.create()
const { networkHelpers } = connection
const { time } = networkHelpers

/** Mirrors ReentrantToken.Trigger. */
const Trigger = { Any: 0, Transfer: 1, TransferFrom: 2 } as const
const UNBONDING_PERIOD = 7 * 24 * 60 * 60
/** The default source's requirements on a non-deterministic source: its k = 1 results settle at submission. */
const OPAQUE_REQUIREMENTS = { ...DEFAULT_SOURCE_REQUIREMENTS, deterministic: false }

/**
 * Deploys SourceRegistry, TaskAudits and TaskMarket directly on a ReentrantToken (the market's constructor
 * deploys Staking and ProviderRegistry; their addresses are read from it); funds a client and three providers,
 * publishes a deterministic source (1: k > 1, audited k = 1) and a non-deterministic one (2: k = 1 settled at
 * submission), registers the providers, and gives the token contract itself an internal market balance (so a
 * reentrant withdraw has something to take if the guard were missing).
 */
async function deployReentrantSystem(connection: NetworkConnection) {
  const { viem, networkHelpers } = connection
  const publicClient = await viem.getPublicClient()
  const wallets = await viem.getWalletClients()
  const owner = wallets[0]!
  const client = wallets[1]!
  const provs = wallets.slice(5, 8)
  const treasury = getAddress(wallets[13]!.account.address)
  const outsider = wallets[14]!

  const token = await viem.deployContract('ReentrantToken', [])
  const sources = await viem.deployContract('SourceRegistry', [])
  const audits = await viem.deployContract('TaskAudits', [])
  const market = await viem.deployContract('TaskMarket', [
    token.address,
    sources.address,
    treasury,
    owner.account.address,
    defaultMarketParams,
    UNBONDING_PERIOD,
    grid(100),
    audits.address,
  ])
  const staking = await viem.getContractAt('Staking', await market.read.staking())
  const providers = await viem.getContractAt('ProviderRegistry', await market.read.providers())
  assert.equal(getAddress(await staking.read.market()), getAddress(market.address))
  assert.equal(getAddress(await providers.read.market()), getAddress(market.address))
  assert.equal(getAddress(await staking.read.asset()), getAddress(token.address))

  await token.write.mint([client.account.address, grid(1_000_000)])
  for (const w of provs) {
    await token.write.mint([w.account.address, grid(10_000)])
    await token.write.approve([staking.address, grid(1_000)], { account: w.account })
    await staking.write.stake([grid(1_000)], { account: w.account })
    await providers.write.register([DEFAULT_CAPABILITIES, DEFAULT_PROFILE_CID], { account: w.account })
  }
  await sources.write.publish(
    [DEFAULT_IMAGE_DIGEST, DEFAULT_METADATA_CID, DEFAULT_SOURCE_REQUIREMENTS, 1_000, 0, 0, 0],
    {
      account: owner.account,
    },
  )
  const sourceId = 1
  await sources.write.publish(
    [DEFAULT_IMAGE_DIGEST, DEFAULT_METADATA_CID, OPAQUE_REQUIREMENTS, 1_000, 0, 0, 0],
    {
      account: owner.account,
    },
  )
  const opaqueSourceId = 2
  for (const w of provs) await providers.write.subscribe([[sourceId, opaqueSourceId]], { account: w.account })

  // The token contract, as an account, holds 100 RENT in the market.
  await token.write.mint([token.address, grid(1_000)])
  await token.write.execute([
    token.address,
    encodeFunctionData({ abi: token.abi, functionName: 'approve', args: [market.address, grid(100)] }),
  ])
  await token.write.execute([
    market.address,
    encodeFunctionData({ abi: market.abi, functionName: 'deposit', args: [grid(100)] }),
  ])

  async function taskParams(overrides: Partial<TaskParams> = {}): Promise<TaskParams> {
    return {
      sourceId,
      inputCID: DEFAULT_INPUT_CID,
      maxPayment: grid(10),
      pricePerSecond: 0n,
      replicas: 1,
      deadline: (await networkHelpers.time.latest()) + 24 * 60 * 60,
      requirements: NO_EXTRA_REQUIREMENTS,
      minSuccessBps: 0,
      minCompleted: 0,
      auditBps: 0,
      resultKey: RESULT_KEY,
      ...overrides,
    }
  }

  /** Every address that can hold an internal balance here: the 20 accounts and the contracts (the token is one). */
  const accounts = [
    ...wallets.map((w) => w.account.address),
    token.address,
    sources.address,
    staking.address,
    providers.address,
    market.address,
  ]
  const liabilities = () => marketLiabilities(market, sources, accounts)
  /** Σ replicas × maxPayment over the tasks not final. */
  const totalEscrow = async () => (await liabilities()).escrow

  async function checkInvariants() {
    assert.equal(
      await token.read.balanceOf([market.address]),
      (await liabilities()).total,
      'TaskMarket: token balance != Σ balances + Σ creator fees + Σ escrow + treasuryAccrued + pendingStakerFees',
    )
    assert.equal(
      await token.read.balanceOf([staking.address]),
      (await staking.read.totalStaked()) +
        (await staking.read.totalUnbonding()) +
        (await staking.read.rewardsReserve()),
      'Staking: token balance != totalStaked + totalUnbonding + rewardsReserve',
    )
  }

  return {
    publicClient,
    owner,
    client,
    provs,
    treasury,
    outsider,
    token,
    sources,
    staking,
    providers,
    market,
    sourceId,
    opaqueSourceId,
    taskParams,
    liabilities,
    totalEscrow,
    checkInvariants,
  }
}

type System = Awaited<ReturnType<typeof deployReentrantSystem>>

/** What the race helpers (mineToSeed, endRace) need of the second system. */
const chain = (s: System) => ({ market: s.market, publicClient: s.publicClient, networkHelpers })

// Every scenario ends with the DESIGN.md §2.5 invariants of the second system.
let current: System | undefined
async function load() {
  current = await networkHelpers.loadFixture(deployReentrantSystem)
  return current
}
afterEach(async () => {
  const s = current
  current = undefined
  if (s !== undefined) await s.checkInvariants()
})

/** Arms the token: its next matching transfer calls `target` with `data`. */
async function arm(s: System, target: Address, data: Hex, trigger: number = Trigger.Any) {
  await s.token.write.arm([target, data, trigger])
}

/** Asserts that the armed hook fired and that the inner call reverted with ReentrancyGuardReentrantCall(). */
async function assertBlocked(s: System, what: string) {
  assert.equal(await s.token.read.attempted(), true, `${what}: the hook did not fire`)
  assert.equal(await s.token.read.armed(), false)
  assert.equal(await s.token.read.innerReverted(), true, `${what}: the reentrant call went through`)
  assert.equal(
    await s.token.read.blockedByGuard(),
    true,
    `${what}: reverted with ${await s.token.read.innerReturnData()} instead of ReentrancyGuardReentrantCall()`,
  )
}

const marketCall = (s: System, functionName: string, args: readonly unknown[] = []) =>
  encodeFunctionData({ abi: s.market.abi, functionName, args } as Parameters<typeof encodeFunctionData>[0])
const stakingCall = (s: System, functionName: string, args: readonly unknown[] = []) =>
  encodeFunctionData({ abi: s.staking.abi, functionName, args } as Parameters<typeof encodeFunctionData>[0])

async function signPermit(s: System, wallet: System['client'], spender: Address, value: bigint) {
  const owner = wallet.account.address
  const deadline = BigInt((await time.latest()) + 3_600)
  const signature = await wallet.signTypedData({
    account: wallet.account,
    domain: {
      name: await s.token.read.name(),
      version: '1',
      chainId: await s.publicClient.getChainId(),
      verifyingContract: s.token.address,
    },
    types: {
      Permit: [
        { name: 'owner', type: 'address' },
        { name: 'spender', type: 'address' },
        { name: 'value', type: 'uint256' },
        { name: 'nonce', type: 'uint256' },
        { name: 'deadline', type: 'uint256' },
      ],
    },
    primaryType: 'Permit',
    message: { owner, spender, value, nonce: await s.token.read.nonces([owner]), deadline },
  })
  const { r, s: sig, v, yParity } = parseSignature(signature)
  return { value, deadline, v: v === undefined ? yParity + 27 : Number(v), r, s: sig }
}

/**
 * Submits a task as the client, approving its escrow (2 × maxPayment for a k = 1 task of a deterministic
 * or validated source, whose result is auditable), and returns its id. The default source is the deterministic one.
 */
async function submit(s: System, overrides: Partial<TaskParams> = {}) {
  const params = await s.taskParams(overrides)
  const terms = await s.sources.read.getSourceTerms([params.sourceId])
  const auditable = params.replicas === 1 && (terms.requirements.deterministic || terms.validator !== 0)
  const escrow = params.maxPayment * (auditable ? 2n : BigInt(params.replicas))
  await s.token.write.approve([s.market.address, escrow], { account: s.client.account })
  await s.market.write.submitTask([params], { account: s.client.account })
  return s.market.read.taskCount()
}

describe('TaskMarket reentrancy through a malicious token', () => {
  it('control: the hook really calls back into the market mid-transfer (an unguarded view goes through)', async () => {
    const s = await load()
    await arm(s, s.market.address, marketCall(s, 'balanceOf', [s.token.address]))
    await s.token.write.approve([s.market.address, grid(5)], { account: s.client.account })
    await s.market.write.deposit([grid(5)], { account: s.client.account })
    assert.equal(await s.token.read.attempted(), true)
    assert.equal(await s.token.read.innerReverted(), false)
    assert.equal(await s.token.read.blockedByGuard(), false)
    await s.checkInvariants()
  })

  describe('market entries that pull tokens (transferFrom)', () => {
    it('deposit: a reentrant withdraw is blocked', async () => {
      const s = await load()
      const { market, token, client } = s
      await arm(s, market.address, marketCall(s, 'withdraw', [grid(100)]), Trigger.TransferFrom)
      await token.write.approve([market.address, grid(50)], { account: client.account })
      await market.write.deposit([grid(50)], { account: client.account })
      await assertBlocked(s, 'deposit → withdraw')
      assert.equal(await market.read.balanceOf([client.account.address]), grid(50))
      assert.equal(
        await market.read.balanceOf([token.address]),
        grid(100),
        'the attacker kept its balance in the market',
      )
      assert.equal(await token.read.balanceOf([token.address]), grid(900), 'the attacker took nothing out')
      await s.checkInvariants()
    })

    it('depositWithPermit: a reentrant deposit is blocked', async () => {
      const s = await load()
      const { market, token, client } = s
      await token.write.execute([
        token.address,
        encodeFunctionData({ abi: token.abi, functionName: 'approve', args: [market.address, grid(10)] }),
      ])
      await arm(s, market.address, marketCall(s, 'deposit', [grid(10)]))
      const permit = await signPermit(s, client, market.address, grid(20))
      await market.write.depositWithPermit([grid(20), permit.deadline, permit.v, permit.r, permit.s], {
        account: client.account,
      })
      await assertBlocked(s, 'depositWithPermit → deposit')
      assert.equal(await market.read.balanceOf([client.account.address]), grid(20))
      assert.equal(await market.read.balanceOf([token.address]), grid(100))
      await s.checkInvariants()
    })

    it('submitTask: a reentrant submitTask is blocked; exactly one task exists', async () => {
      const s = await load()
      const inner = await s.taskParams({ sourceId: s.opaqueSourceId, maxPayment: grid(10) })
      await arm(s, s.market.address, marketCall(s, 'submitTask', [inner]))
      const taskId = await submit(s, { sourceId: s.opaqueSourceId, maxPayment: grid(10) })
      await assertBlocked(s, 'submitTask → submitTask')
      assert.equal(taskId, 1n)
      assert.equal(await s.market.read.taskCount(), 1n)
      assert.equal(await s.totalEscrow(), grid(10))
      assert.equal(await s.market.read.balanceOf([s.token.address]), grid(100))
      await s.checkInvariants()
    })

    it('submitTasks: a reentrant cancelTask of the attacker’s own task is blocked', async () => {
      const s = await load()
      const { market, token, client } = s
      await token.write.execute([
        market.address,
        marketCall(s, 'submitTask', [
          await s.taskParams({ sourceId: s.opaqueSourceId, maxPayment: grid(40) }),
        ]),
      ])
      assert.equal(await market.read.balanceOf([token.address]), grid(60))
      await arm(s, market.address, marketCall(s, 'cancelTask', [1n]))
      const batch = [await s.taskParams({ sourceId: s.opaqueSourceId }), await s.taskParams({ replicas: 2 })]
      await token.write.approve([market.address, grid(30)], { account: client.account })
      await market.write.submitTasks([batch], { account: client.account })
      await assertBlocked(s, 'submitTasks → cancelTask')
      assert.equal((await market.read.getTask([1n])).status, TaskStatus.Open)
      assert.equal(await market.read.balanceOf([token.address]), grid(60))
      assert.equal(await market.read.taskCount(), 3n)
      assert.equal(await s.totalEscrow(), grid(70))
      await s.checkInvariants()
    })

    it('submitTaskWithPermit: a reentrant withdraw is blocked', async () => {
      const s = await load()
      const { market, client } = s
      await arm(s, market.address, marketCall(s, 'withdraw', [grid(1)]))
      const permit = await signPermit(s, client, market.address, grid(10))
      await market.write.submitTaskWithPermit([await s.taskParams({ sourceId: s.opaqueSourceId }), permit], {
        account: client.account,
      })
      await assertBlocked(s, 'submitTaskWithPermit → withdraw')
      assert.equal(await s.totalEscrow(), grid(10))
      assert.equal(await market.read.balanceOf([s.token.address]), grid(100))
      await s.checkInvariants()
    })
  })

  describe('market entries that send tokens (transfer)', () => {
    it('withdraw: a reentrant withdraw is blocked and the client is paid once', async () => {
      const s = await load()
      const { market, token, client } = s
      await token.write.approve([market.address, grid(50)], { account: client.account })
      await market.write.deposit([grid(50)], { account: client.account })
      const tokens = await token.read.balanceOf([client.account.address])
      await arm(s, market.address, marketCall(s, 'withdraw', [grid(100)]), Trigger.Transfer)
      await market.write.withdraw([grid(50)], { account: client.account })
      await assertBlocked(s, 'withdraw → withdraw')
      assert.equal(await token.read.balanceOf([client.account.address]), tokens + grid(50))
      assert.equal(await market.read.balanceOf([client.account.address]), 0n)
      assert.equal(await market.read.balanceOf([token.address]), grid(100))
      await s.checkInvariants()
    })

    it('withdrawTo: a reentrant withdrawTo is blocked', async () => {
      const s = await load()
      const { market, token, client, outsider } = s
      await token.write.approve([market.address, grid(50)], { account: client.account })
      await market.write.deposit([grid(50)], { account: client.account })
      await arm(
        s,
        market.address,
        marketCall(s, 'withdrawTo', [outsider.account.address, grid(100)]),
        Trigger.Transfer,
      )
      await market.write.withdrawTo([outsider.account.address, grid(20)], { account: client.account })
      await assertBlocked(s, 'withdrawTo → withdrawTo')
      assert.equal(await token.read.balanceOf([outsider.account.address]), grid(20))
      assert.equal(await market.read.balanceOf([client.account.address]), grid(30))
      assert.equal(await market.read.balanceOf([token.address]), grid(100))
      await s.checkInvariants()
    })

    it('withdrawTreasury: a reentrant withdrawTreasury is blocked and the treasury is paid once', async () => {
      const s = await load()
      const { market, token } = s
      const taskId = await submit(s, { sourceId: s.opaqueSourceId, maxPayment: grid(100) })
      await market.write.claimTask([taskId], { account: s.provs[0]!.account })
      await market.write.submitResult([taskId, sealOf(taskId, RESULT_DIGEST), RESULT_CID, RECEIPT_CID, 60], {
        account: s.provs[0]!.account,
      })
      const accrued = await market.read.treasuryAccrued()
      assert.ok(accrued > 0n)
      await arm(s, market.address, marketCall(s, 'withdrawTreasury'))
      await market.write.withdrawTreasury()
      await assertBlocked(s, 'withdrawTreasury → withdrawTreasury')
      assert.equal(await token.read.balanceOf([s.treasury]), accrued)
      assert.equal(await market.read.treasuryAccrued(), 0n)
      await s.checkInvariants()
    })

    it('claimCreatorFees: a reentrant claim by the source owner mid-withdrawal is blocked; the fees are claimed once', async () => {
      const s = await load()
      const { market, token, sources, client } = s
      const alice = s.provs[0]!
      // The token contract publishes source 3 (non-deterministic, 10 % creator fee) and earns its creator fees.
      await token.write.execute([
        sources.address,
        encodeFunctionData({
          abi: sources.abi,
          functionName: 'publish',
          args: [DEFAULT_IMAGE_DIGEST, DEFAULT_METADATA_CID, OPAQUE_REQUIREMENTS, 1_000, 0, 0, 0],
        }),
      ])
      const sourceId = 3
      assert.equal(await sources.read.sourceCount(), sourceId)
      assert.equal(getAddress(await sources.read.ownerOf([sourceId])), getAddress(token.address))
      await s.providers.write.subscribe([[sourceId]], { account: alice.account })
      const taskId = await submit(s, { sourceId, maxPayment: grid(100) })
      await market.write.claimTask([taskId], { account: alice.account })
      await market.write.submitResult([taskId, sealOf(taskId, RESULT_DIGEST), RESULT_CID, RECEIPT_CID, 60], {
        account: alice.account,
      })
      // fee 5, creator 0.5
      assert.equal(await market.read.creatorFeesOf([sourceId]), grid('0.5'))
      await s.checkInvariants()

      await token.write.approve([market.address, grid(50)], { account: client.account })
      await market.write.deposit([grid(50)], { account: client.account })
      await arm(s, market.address, marketCall(s, 'claimCreatorFees', [sourceId]), Trigger.Transfer)
      await market.write.withdraw([grid(50)], { account: client.account })
      await assertBlocked(s, 'withdraw → claimCreatorFees')
      assert.equal(await market.read.creatorFeesOf([sourceId]), grid('0.5'))
      assert.equal(await market.read.balanceOf([token.address]), grid(100))
      await s.checkInvariants()

      // Outside a transfer the owner claims them, once.
      await token.write.execute([market.address, marketCall(s, 'claimCreatorFees', [sourceId])])
      assert.equal(await market.read.creatorFeesOf([sourceId]), 0n)
      assert.equal(await market.read.balanceOf([token.address]), grid('100.5'))
      await s.checkInvariants()
    })

    it('releaseStakerFees (pulled by Staking.claimRewards): reentry into the market and into Staking is blocked', async () => {
      const s = await load()
      const { market, staking, token } = s
      const alice = s.provs[0]!
      const taskId = await submit(s, { sourceId: s.opaqueSourceId, maxPayment: grid(100) })
      await market.write.claimTask([taskId], { account: alice.account })
      await market.write.submitResult([taskId, sealOf(taskId, RESULT_DIGEST), RESULT_CID, RECEIPT_CID, 60], {
        account: alice.account,
      })
      const pending = await market.read.pendingStakerFees()
      assert.ok(pending > 0n)

      // the first transfer is market → Staking inside releaseStakerFees: the market is locked
      await arm(s, market.address, marketCall(s, 'withdraw', [grid(1)]), Trigger.Transfer)
      const earned = await staking.read.earned([alice.account.address])
      const before = await token.read.balanceOf([alice.account.address])
      await staking.write.claimRewards({ account: alice.account })
      await assertBlocked(s, 'releaseStakerFees → market.withdraw')
      assert.equal(await token.read.balanceOf([alice.account.address]), before + earned)
      assert.equal(await market.read.pendingStakerFees(), 0n)
      await s.checkInvariants()

      // Staking is locked too while it pays rewards out
      const bob = s.provs[1]!
      await arm(s, staking.address, stakingCall(s, 'claimRewards'), Trigger.Transfer)
      await staking.write.claimRewards({ account: bob.account })
      await assertBlocked(s, 'claimRewards → claimRewards')
      await s.checkInvariants()
    })
  })

  describe('settlements that slash (Staking sends the collateral to the market mid-call)', () => {
    it('reopenSlot: a reentrant reopenSlot is blocked; the no-show is slashed once', async () => {
      const s = await load()
      const { market, staking } = s
      const alice = s.provs[0]!
      const taskId = await submit(s, { maxPayment: grid(20), replicas: 2 })
      await mineToSeed(chain(s), taskId)
      await market.write.claimTask([taskId], { account: alice.account })
      const [slot] = await market.read.getSlots([taskId])
      await time.increaseTo(slot!.dueAt + 1)
      await arm(s, market.address, marketCall(s, 'reopenSlot', [taskId, 0]), Trigger.Transfer)
      await market.write.reopenSlot([taskId, 0])
      await assertBlocked(s, 'reopenSlot → reopenSlot')
      assert.equal((await staking.read.stakeOf([alice.account.address])).staked, grid(990))
      assert.equal(await market.read.balanceOf([s.client.account.address]), grid(5))
      await s.checkInvariants()
    })

    it('finalizeTask: a reentrant finalizeTask is blocked; the non-revealer is slashed once', async () => {
      const s = await load()
      const { market, staking } = s
      const [alice, bob, carol] = s.provs as [System['client'], System['client'], System['client']]
      const taskId = await submit(s, { maxPayment: grid(20), replicas: 3 })
      await mineToSeed(chain(s), taskId)
      for (const w of [alice, bob, carol]) await market.write.claimTask([taskId], { account: w.account })
      await endRace(chain(s), taskId)
      for (const w of [alice, bob, carol]) {
        await market.write.commitResult(
          [
            taskId,
            commitment(
              taskId,
              w.account.address,
              sealOf(taskId, digestOf('same')),
              saltOf(w.account.address),
            ),
          ],
          { account: w.account },
        )
      }
      for (const w of [alice, bob]) {
        await market.write.revealResult(
          [taskId, sealOf(taskId, digestOf('same')), saltOf(w.account.address), RESULT_CID, RECEIPT_CID, 1],
          { account: w.account },
        )
      }
      const { revealDeadline } = await market.read.getTask([taskId])
      await time.increaseTo(revealDeadline + 1)
      await arm(s, market.address, marketCall(s, 'finalizeTask', [taskId]), Trigger.Transfer)
      await market.write.finalizeTask([taskId])
      await assertBlocked(s, 'finalizeTask → finalizeTask')
      assert.equal((await market.read.getTask([taskId])).status, TaskStatus.Completed)
      assert.equal((await staking.read.stakeOf([carol.account.address])).staked, grid(990))
      assert.equal(await market.read.balanceOf([alice.account.address]), grid(19))
      assert.equal(await market.read.balanceOf([bob.account.address]), grid(19))
      await s.checkInvariants()
    })

    it('finalizeTask on an audit: a reentrant finalizeTask is blocked; the auditor that missed its commitment is slashed once', async () => {
      const s = await load()
      const { market, staking } = s
      const [alice, bob] = s.provs as [System['client'], System['client']]
      // k = 1 on the deterministic source, audited with probability 100 %: the draw always opens an audit.
      const taskId = await submit(s, { maxPayment: grid(10), auditBps: 10_000 })
      await market.write.claimTask([taskId], { account: alice.account })
      await market.write.submitResult([taskId, sealOf(taskId, RESULT_DIGEST), RESULT_CID, RECEIPT_CID, 60], {
        account: alice.account,
      })
      await networkHelpers.mine(2)
      await market.write.releaseResult([taskId])
      assert.equal((await market.read.getTask([taskId])).status, TaskStatus.Auditing)
      // Bob joins the first round (from two blocks after it opened) and never commits.
      await networkHelpers.mine(2)
      await market.write.joinAudit([taskId], { account: bob.account })
      const { collateral } = await market.read.getTask([taskId])
      assert.equal(collateral, grid(30), 'at p = 100 %: 3 × maxPayment')
      await time.increaseTo((await market.read.getAudit([taskId])).commitDeadline + 1)
      await arm(s, market.address, marketCall(s, 'finalizeTask', [taskId]), Trigger.Transfer)
      await market.write.finalizeTask([taskId])
      await assertBlocked(s, 'finalizeTask (audit) → finalizeTask')
      // slashed once, a no-show's share (collateralBps of maxPayment, not the audit bond; the rest unlocked);
      // the slash is held by the audit to pay the next round, which opened
      const noShow = grid(5)
      const bobStake = await staking.read.stakeOf([bob.account.address])
      assert.equal(bobStake.staked, grid(1_000) - noShow)
      assert.equal(bobStake.locked, 0n)
      const audit = await market.read.getAudit([taskId])
      assert.equal(audit.slashed, noShow)
      assert.equal(audit.round, 2)
      assert.equal((await market.read.getTask([taskId])).status, TaskStatus.Auditing)
      await s.checkInvariants()
    })

    it('expireTask: a reentrant expireTask is blocked; the overdue claimant is slashed once', async () => {
      const s = await load()
      const { market, staking } = s
      const alice = s.provs[0]!
      const now = await time.latest()
      // The shortest deadline a claim accepts: the source's runtime limit (1 h) and the claim grace (5 min).
      const deadline = now + 10 + 3_600 + 300
      const taskId = await submit(s, { sourceId: s.opaqueSourceId, maxPayment: grid(20), deadline })
      await time.setNextBlockTimestamp(now + 10)
      await market.write.claimTask([taskId], { account: alice.account })
      await time.increaseTo(deadline + 1)
      await arm(s, market.address, marketCall(s, 'expireTask', [taskId]), Trigger.Transfer)
      await market.write.expireTask([taskId])
      await assertBlocked(s, 'expireTask → expireTask')
      assert.equal((await market.read.getTask([taskId])).status, TaskStatus.Expired)
      assert.equal((await staking.read.stakeOf([alice.account.address])).staked, grid(990))
      assert.equal(await market.read.balanceOf([s.client.account.address]), grid(25))
      await s.checkInvariants()
    })
  })

  describe('Staking entries', () => {
    it('stake (transferFrom) and withdrawUnbonded (transfer): reentry into Staking is blocked', async () => {
      const s = await load()
      const { staking, token } = s
      const alice = s.provs[0]!
      await token.write.approve([staking.address, grid(10)], { account: alice.account })
      await arm(s, staking.address, stakingCall(s, 'requestUnbond', [grid(1)]), Trigger.TransferFrom)
      await staking.write.stake([grid(10)], { account: alice.account })
      await assertBlocked(s, 'stake → requestUnbond')
      assert.equal((await staking.read.stakeOf([alice.account.address])).staked, grid(1_010))
      await s.checkInvariants()

      await staking.write.requestUnbond([grid(10)], { account: alice.account })
      await time.increase(UNBONDING_PERIOD)
      const before = await token.read.balanceOf([alice.account.address])
      await arm(s, staking.address, stakingCall(s, 'withdrawUnbonded'), Trigger.Transfer)
      await staking.write.withdrawUnbonded({ account: alice.account })
      await assertBlocked(s, 'withdrawUnbonded → withdrawUnbonded')
      assert.equal(await token.read.balanceOf([alice.account.address]), before + grid(10))
      await s.checkInvariants()
    })
  })

  it('normal use still works on the same token: k = 1 metered and k = 2 consensus settle exactly', async () => {
    const s = await load()
    const { market, token, client } = s
    const [alice, bob] = s.provs as [System['client'], System['client']]

    const t1 = await submit(s, {
      sourceId: s.opaqueSourceId,
      maxPayment: grid(10),
      pricePerSecond: grid('0.01'),
    })
    await market.write.claimTask([t1], { account: alice.account })
    const [slot] = await market.read.getSlots([t1])
    await time.setNextBlockTimestamp(slot!.claimedAt + 100)
    await market.write.submitResult([t1, sealOf(t1, RESULT_DIGEST), RESULT_CID, RECEIPT_CID, 100], {
      account: alice.account,
    })
    // payment 1: provider 0.95, client refund 9
    assert.equal(await market.read.balanceOf([alice.account.address]), grid('0.95'))
    assert.equal(await market.read.balanceOf([client.account.address]), grid(9))
    await s.checkInvariants()

    const t2 = await submit(s, { maxPayment: grid(20), replicas: 2 })
    await mineToSeed(chain(s), t2)
    for (const w of [alice, bob]) await market.write.claimTask([t2], { account: w.account })
    await endRace(chain(s), t2)
    for (const w of [alice, bob]) {
      await market.write.commitResult(
        [t2, commitment(t2, w.account.address, sealOf(t2, digestOf('r')), saltOf(w.account.address))],
        { account: w.account },
      )
    }
    for (const w of [alice, bob]) {
      await market.write.revealResult(
        [t2, sealOf(t2, digestOf('r')), saltOf(w.account.address), RESULT_CID, RECEIPT_CID, 1],
        {
          account: w.account,
        },
      )
    }
    const task = await market.read.getTask([t2])
    assert.equal(task.status, TaskStatus.Completed)
    assert.equal(await market.read.balanceOf([bob.account.address]), grid(19))
    assert.equal(await s.totalEscrow(), 0n)

    // the sources' owner claims the creator fees of both tasks, then everyone withdraws
    for (const sourceId of [s.opaqueSourceId, s.sourceId]) {
      assert.ok((await market.read.creatorFeesOf([sourceId])) > 0n)
      await market.write.claimCreatorFees([sourceId], { account: s.owner.account })
    }
    for (const w of [alice, bob, client, s.owner]) {
      const balance = await market.read.balanceOf([w.account.address])
      if (balance === 0n) continue
      const tokens = await token.read.balanceOf([w.account.address])
      await market.write.withdraw([balance], { account: w.account })
      assert.equal(await token.read.balanceOf([w.account.address]), tokens + balance)
    }
    await market.write.withdrawTreasury()
    const owed = await s.liabilities()
    assert.equal(owed.creatorFees, 0n)
    assert.equal(owed.escrow, 0n)
    assert.equal(owed.treasuryAccrued, 0n)
    assert.equal(owed.balances, grid(100), 'only the token contract’s own deposit is left')
    await s.checkInvariants()
    assert.equal(await token.read.attempted(), false, 'the hook never fired')
  })
})
