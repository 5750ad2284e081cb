import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { network } from 'hardhat'
import { type Hex, zeroAddress, zeroHash } from 'viem'
import { commitment, grid, sealOf, type Wallet } from './helpers/fixture.js'
import {
  assertSettlement,
  atTime,
  blockTime,
  claim,
  commit,
  DEFAULT_MARKET_PARAMS,
  digestOf,
  endRace,
  ledger,
  type Market,
  RECEIPT_CID,
  RESULT_CID,
  RESULT_DIGEST,
  raceTickets,
  releaseNotDrawn,
  reveal,
  SOURCE_MAX_RUNTIME_SEC,
  saltOf,
  seatRace,
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
const { revertWithCustomError, revertWithCustomErrorWithArgs } = viem.assertions

const DAY = 24 * 60 * 60

/** A k-replica task on the market's source, fully claimed by the first k providers, none committed. */
async function claimedTask(m: Market, replicas: number, overrides = {}) {
  const taskId = await submitOnSource(m, { maxPayment: grid(20), replicas, ...overrides })
  const claims = []
  for (const wallet of m.provs.slice(0, replicas)) claims.push(await claim(m, wallet, taskId))
  return { taskId, claims }
}

/** A k-replica task with every slot committed (reveals open). */
async function revealingTask(m: Market, replicas: number) {
  const { taskId } = await claimedTask(m, replicas)
  const replicasInfo = m.provs.slice(0, replicas).map((wallet, i) => ({
    wallet,
    digest: digestOf('agreed'),
    salt: saltOf(`hostile:${i}`),
  }))
  let hash: Hex | undefined
  for (const r of replicasInfo) hash = await commit(m, r.wallet, taskId, r.digest, r.salt)
  const revealDeadline = (await blockTime(m, hash!)) + DEFAULT_MARKET_PARAMS.revealWindow
  return { taskId, replicas: replicasInfo, revealDeadline }
}

describe('TaskMarket hostile paths', () => {
  describe('submitTask validation', () => {
    it('rejects replicas outside 1..7', async () => {
      const m = await load()
      for (const replicas of [0, 8]) {
        await revertWithCustomErrorWithArgs(
          m.market.write.submitTask([await m.defaultTaskParams(m.sourceId, { replicas })], {
            account: m.client.account,
          }),
          m.market,
          'TaskMarketInvalidReplicas',
          [replicas],
        )
      }
    })

    it('rejects k > 1 on a non-deterministic source', async () => {
      const m = await load()
      const sourceId = await m.publishSource(m.creator, { requirements: { deterministic: false } })
      await revertWithCustomErrorWithArgs(
        m.market.write.submitTask([await m.defaultTaskParams(sourceId, { replicas: 2 })], {
          account: m.client.account,
        }),
        m.market,
        'TaskMarketSourceNotDeterministic',
        [sourceId],
      )
      // k = 1 is fine there
      await m.submitTask(m.client, await m.defaultTaskParams(sourceId))
    })

    it('rejects a deadline not in the future or more than 30 days away', async () => {
      const m = await load()
      const now = await time.latest()
      for (const deadline of [now, now - 1, now + 30 * DAY + 100]) {
        await revertWithCustomErrorWithArgs(
          m.market.write.submitTask([await m.defaultTaskParams(m.sourceId, { deadline })], {
            account: m.client.account,
          }),
          m.market,
          'TaskMarketInvalidDeadline',
          [deadline],
        )
      }
      // exactly MAX_TASK_DURATION away is allowed (k = 1 of a deterministic source: 2 × 10 escrowed)
      const at = (await time.latest()) + 10
      await m.token.write.approve([m.market.address, grid(20)], { account: m.client.account })
      await atTime(m, at)
      await m.market.write.submitTask([await m.defaultTaskParams(m.sourceId, { deadline: at + 30 * DAY })], {
        account: m.client.account,
      })
    })

    it('rejects a zero payment, a bad input CID and an impossible success gate', async () => {
      const m = await load()
      const submit = async (overrides: object) =>
        m.market.write.submitTask([await m.defaultTaskParams(m.sourceId, overrides)], {
          account: m.client.account,
        })
      await revertWithCustomError(submit({ maxPayment: 0n }), m.market, 'TaskMarketZeroPayment')
      await revertWithCustomError(submit({ inputCID: '' }), m.market, 'TaskMarketInvalidCID')
      await revertWithCustomError(submit({ inputCID: 'b'.repeat(129) }), m.market, 'TaskMarketInvalidCID')
      await revertWithCustomErrorWithArgs(
        submit({ minSuccessBps: 10_001 }),
        m.market,
        'TaskMarketInvalidGates',
        [10_001],
      )
      await m.submitTask(m.client, await m.defaultTaskParams(m.sourceId, { inputCID: 'b'.repeat(128) }))
    })

    it('rejects an inactive or unknown source', async () => {
      const m = await load()
      await m.sources.write.deactivate([m.sourceId], { account: m.creator.account })
      await revertWithCustomErrorWithArgs(
        m.market.write.submitTask([await m.defaultTaskParams(m.sourceId)], { account: m.client.account }),
        m.market,
        'TaskMarketInactiveSource',
        [m.sourceId],
      )
      await revertWithCustomErrorWithArgs(
        m.market.write.submitTask([await m.defaultTaskParams(99)], { account: m.client.account }),
        m.sources,
        'SourceRegistryUnknownSource',
        [99],
      )
    })

    it('rejects a collateral that does not fit its storage width', async () => {
      const m = await load()
      await m.market.write.setParams([{ ...DEFAULT_MARKET_PARAMS, collateralBps: 20_000 }])
      const maxPayment = 2n ** 88n
      // not audited: maxPayment × collateralBps
      await revertWithCustomErrorWithArgs(
        m.market.write.submitTask([await m.defaultTaskParams(m.opaqueSourceId, { maxPayment })], {
          account: m.client.account,
        }),
        m.market,
        'TaskMarketAmountTooLarge',
        [2n ** 89n],
      )
      // audited at p = 10 %: the bond, 9 × maxPayment
      await revertWithCustomErrorWithArgs(
        m.market.write.submitTask([await m.defaultTaskParams(m.sourceId, { maxPayment })], {
          account: m.client.account,
        }),
        m.market,
        'TaskMarketAmountTooLarge',
        [9n * 2n ** 88n],
      )
    })

    it('rejects a shortfall the market may not pull', async () => {
      const m = await load()
      await m.deposit(m.client, grid(3))
      await revertWithCustomErrorWithArgs(
        m.market.write.submitTask([await m.defaultTaskParams(m.opaqueSourceId)], {
          account: m.client.account,
        }),
        m.market,
        'TaskMarketInsufficientBalance',
        [m.client.account.address, grid(3), grid(10)],
      )
      // an auditable k = 1 task needs 2 × maxPayment
      await revertWithCustomErrorWithArgs(
        m.market.write.submitTask([await m.defaultTaskParams(m.sourceId)], { account: m.client.account }),
        m.market,
        'TaskMarketInsufficientBalance',
        [m.client.account.address, grid(3), grid(20)],
      )
      await revertWithCustomError(
        m.market.write.submitTasks([[]], { account: m.client.account }),
        m.market,
        'TaskMarketZeroAmount',
      )
    })
  })

  describe('balances', () => {
    it('rejects zero amounts, the zero address, and withdrawals beyond the balance', async () => {
      const m = await load()
      const { market, client } = m
      await revertWithCustomError(
        market.write.deposit([0n], { account: client.account }),
        market,
        'TaskMarketZeroAmount',
      )
      await revertWithCustomError(
        market.write.withdraw([0n], { account: client.account }),
        market,
        'TaskMarketZeroAmount',
      )
      await revertWithCustomError(
        market.write.withdrawTo([client.account.address, 0n], { account: client.account }),
        market,
        'TaskMarketZeroAmount',
      )
      await m.deposit(client, grid(5))
      await revertWithCustomError(
        market.write.withdrawTo([zeroAddress, grid(1)], { account: client.account }),
        market,
        'TaskMarketZeroAddress',
      )
      await revertWithCustomErrorWithArgs(
        market.write.withdraw([grid(5) + 1n], { account: client.account }),
        market,
        'TaskMarketInsufficientBalance',
        [client.account.address, grid(5), grid(5) + 1n],
      )
      await revertWithCustomErrorWithArgs(
        market.write.withdrawTo([m.others[1]!.account.address, grid(6)], { account: client.account }),
        market,
        'TaskMarketInsufficientBalance',
        [client.account.address, grid(5), grid(6)],
      )
      // someone else's balance is not yours
      await revertWithCustomErrorWithArgs(
        market.write.withdraw([1n], { account: m.others[1]!.account }),
        market,
        'TaskMarketInsufficientBalance',
        [m.others[1]!.account.address, 0n, 1n],
      )
      // The market keeps no uint128 totals any more, so it has no deposit cap: an amount the client does not
      // hold fails in the token's transferFrom, and nothing is credited.
      const tokens = await m.token.read.balanceOf([client.account.address])
      await m.token.write.approve([market.address, 2n ** 128n], { account: client.account })
      await revertWithCustomErrorWithArgs(
        market.write.deposit([2n ** 128n], { account: client.account }),
        m.token,
        'ERC20InsufficientBalance',
        [client.account.address, tokens, 2n ** 128n],
      )
      assert.equal(await market.read.balanceOf([client.account.address]), grid(5))
      assert.equal(await m.token.read.balanceOf([client.account.address]), tokens)
    })

    it('withdrawTreasury with nothing accrued and releaseStakerFees by anyone but Staking revert', async () => {
      const m = await load()
      await revertWithCustomError(m.market.write.withdrawTreasury(), m.market, 'TaskMarketNothingToWithdraw')
      await revertWithCustomErrorWithArgs(
        m.market.write.releaseStakerFees({ account: m.others[1]!.account }),
        m.market,
        'TaskMarketNotStaking',
        [m.others[1]!.account.address],
      )
    })
  })

  describe('claim gates', () => {
    it('rejects an unknown task', async () => {
      const m = await load()
      await revertWithCustomErrorWithArgs(
        m.market.write.claimTask([99n], { account: m.provs[0]!.account }),
        m.market,
        'TaskMarketUnknownTask',
        [99n],
      )
      await revertWithCustomErrorWithArgs(m.market.read.getTask([0n]), m.market, 'TaskMarketUnknownTask', [
        0n,
      ])
      await revertWithCustomErrorWithArgs(m.market.read.getSlots([1n]), m.market, 'TaskMarketUnknownTask', [
        1n,
      ])
    })

    it('rejects unregistered, unsubscribed and paused providers', async () => {
      const m = await load()
      const taskId = await submitOnSource(m)
      const [stranger, loner] = m.providerWallets.slice(4, 6) as [Wallet, Wallet]
      await revertWithCustomErrorWithArgs(
        m.market.write.claimTask([taskId], { account: stranger.account }),
        m.providers,
        'ProviderRegistryNotRegistered',
        [stranger.account.address],
      )
      await m.registerProvider(loner)
      await revertWithCustomErrorWithArgs(
        m.market.write.claimTask([taskId], { account: loner.account }),
        m.providers,
        'ProviderRegistryNotSubscribed',
        [loner.account.address, m.sourceId],
      )
      const alice = m.provs[0]!
      await m.providers.write.unsubscribe([[m.sourceId]], { account: alice.account })
      await revertWithCustomErrorWithArgs(
        m.market.write.claimTask([taskId], { account: alice.account }),
        m.providers,
        'ProviderRegistryNotSubscribed',
        [alice.account.address, m.sourceId],
      )
      const bob = m.provs[1]!
      await m.providers.write.pause({ account: bob.account })
      await revertWithCustomErrorWithArgs(
        m.market.write.claimTask([taskId], { account: bob.account }),
        m.providers,
        'ProviderRegistryPaused',
        [bob.account.address],
      )
      await m.providers.write.resume({ account: bob.account })
      await claim(m, bob, taskId)
    })

    it('rejects an under-staked provider (StakingInsufficientAvailable)', async () => {
      const m = await load()
      const thin = m.providerWallets[4]!
      await m.registerProvider(thin, { stake: grid(100), sourceIds: [m.sourceId, m.opaqueSourceId] })
      // not audited: collateral 50 % of maxPayment
      const taskId = await submitOpaque(m, { maxPayment: grid(300) })
      await revertWithCustomErrorWithArgs(
        m.market.write.claimTask([taskId], { account: thin.account }),
        m.staking,
        'StakingInsufficientAvailable',
        [thin.account.address, grid(100), grid(150)],
      )
      // stake moved to unbonding is not available either
      const alice = m.provs[0]!
      await m.staking.write.requestUnbond([grid(900)], { account: alice.account })
      await revertWithCustomErrorWithArgs(
        m.market.write.claimTask([taskId], { account: alice.account }),
        m.staking,
        'StakingInsufficientAvailable',
        [alice.account.address, grid(100), grid(150)],
      )
      // collateral already locked on another task is not available
      const bob = m.provs[1]!
      const big = await submitOpaque(m, { maxPayment: grid(1_900) })
      await claim(m, bob, big)
      await revertWithCustomErrorWithArgs(
        m.market.write.claimTask([taskId], { account: bob.account }),
        m.staking,
        'StakingInsufficientAvailable',
        [bob.account.address, grid(50), grid(150)],
      )
    })

    it('rejects providers below the GPU count, VRAM or compute capability required', async () => {
      const m = await load()
      const [noGpu, smallVram, oldArch] = m.providerWallets.slice(4, 7) as [Wallet, Wallet, Wallet]
      await m.registerProvider(noGpu, { sourceIds: [m.sourceId], capabilities: { gpuCount: 0 } })
      await m.registerProvider(smallVram, { sourceIds: [m.sourceId], capabilities: { vramMiB: 8_192 } })
      await m.registerProvider(oldArch, { sourceIds: [m.sourceId], capabilities: { computeCapability: 75 } })
      // against the source's requirements (1 GPU, 16 GiB, sm_80)
      const taskId = await submitOnSource(m)
      for (const wallet of [noGpu, smallVram, oldArch]) {
        await revertWithCustomErrorWithArgs(
          m.market.write.claimTask([taskId], { account: wallet.account }),
          m.providers,
          'ProviderRegistryInsufficientCapabilities',
          [wallet.account.address],
        )
      }
      // against stricter task requirements: Alice has 2 × 24 GiB sm_89
      const alice = m.provs[0]!
      for (const requirements of [
        { minGpus: 4, minVramMiB: 0, minComputeCapability: 0, maxRuntimeSec: 0, deterministic: false },
        { minGpus: 0, minVramMiB: 40_960, minComputeCapability: 0, maxRuntimeSec: 0, deterministic: false },
        { minGpus: 0, minVramMiB: 0, minComputeCapability: 90, maxRuntimeSec: 0, deterministic: false },
      ]) {
        const strict = await submitOnSource(m, { requirements })
        await revertWithCustomErrorWithArgs(
          m.market.write.claimTask([strict], { account: alice.account }),
          m.providers,
          'ProviderRegistryInsufficientCapabilities',
          [alice.account.address],
        )
      }
      await claim(m, alice, taskId)
    })

    it('rejects providers below minCompleted or minSuccessBps', async () => {
      const m = await load()
      const [alice, bob, carol] = m.provs as [Wallet, Wallet, Wallet]
      const gated = await submitOnSource(m, { minCompleted: 1 })
      // A fresh account has no record: 0 completed, success 0 (not 100 %).
      await revertWithCustomErrorWithArgs(
        m.market.write.claimTask([gated], { account: alice.account }),
        m.providers,
        'ProviderRegistryReputationTooLow',
        [alice.account.address, 0, 0],
      )
      // Alice completes one task and passes the gate: an auditable result counts as soon as it is in, held.
      const warmup = await submitOnSource(m)
      await claim(m, alice, warmup)
      await submitHeld(m, alice, warmup)
      await claim(m, alice, gated)

      // Bob no-shows once: 0 completed, success 0 %.
      const missed = await submitOnSource(m)
      const { dueAt } = await claim(m, bob, missed)
      await atTime(m, dueAt + 1)
      await m.market.write.reopenSlot([missed, 0])
      const picky = await submitOnSource(m, { minSuccessBps: 5_000 })
      await revertWithCustomErrorWithArgs(
        m.market.write.claimTask([picky], { account: bob.account }),
        m.providers,
        'ProviderRegistryReputationTooLow',
        [bob.account.address, 0, 0],
      )
      // Nor does a fresh account pass a success gate alone.
      await revertWithCustomErrorWithArgs(
        m.market.write.claimTask([picky], { account: carol.account }),
        m.providers,
        'ProviderRegistryReputationTooLow',
        [carol.account.address, 0, 0],
      )
      // Alice (1 of 1) does.
      await claim(m, alice, picky)
    })

    it('rejects a second claim by the same provider', async () => {
      const m = await load()
      const alice = m.provs[0]!
      const taskId = await submitOnSource(m, { replicas: 3 })
      await claim(m, alice, taskId)
      await revertWithCustomErrorWithArgs(
        m.market.write.claimTask([taskId], { account: alice.account }),
        m.market,
        'TaskMarketAlreadyClaimant',
        [taskId, alice.account.address],
      )
    })

    it('rejects a claim when every slot is taken: k = 1 at once; k > 1 a ticket no better than the worst held during the race, any claim after it', async () => {
      const m = await load()
      const one = await claimedTask(m, 1)
      await revertWithCustomErrorWithArgs(
        m.market.write.claimTask([one.taskId], { account: m.provs[3]!.account }),
        m.market,
        'TaskMarketWrongStatus',
        [one.taskId, TaskStatus.Claimed],
      )
      // k = 2: the two best tickets of the four providers take the seats; the others cannot displace them.
      const taskId = await submitOnSource(m, { maxPayment: grid(20), replicas: 2 })
      const scores = await raceTickets(m, taskId, m.provs)
      const ranked = m.provs
        .map((wallet, i) => ({ wallet, score: scores[i]! }))
        .sort((a, b) => (a.score < b.score ? -1 : 1))
      for (const { wallet } of ranked.slice(0, 2)) await claim(m, wallet, taskId)
      assert.equal((await m.market.read.getTask([taskId])).status, TaskStatus.Claimed)
      const worstHeld = ranked[1]!.score
      for (const { wallet, score } of ranked.slice(2)) {
        await revertWithCustomErrorWithArgs(
          m.market.write.claimTask([taskId], { account: wallet.account }),
          m.market,
          'TaskMarketClaimTicketTooHigh',
          [taskId, score, worstHeld],
        )
      }
      // After the race the seats are final: every claim is refused, whatever its ticket.
      await endRace(m, taskId)
      for (const { wallet } of ranked.slice(2)) {
        await revertWithCustomErrorWithArgs(
          m.market.write.claimTask([taskId], { account: wallet.account }),
          m.market,
          'TaskMarketWrongStatus',
          [taskId, TaskStatus.Claimed],
        )
      }
    })

    it('rejects a claim past the task deadline', async () => {
      const m = await load()
      const now = await time.latest()
      const taskId = await submitOnSource(m, { deadline: now + 100 })
      await time.increaseTo(now + 101)
      await revertWithCustomErrorWithArgs(
        m.market.write.claimTask([taskId], { account: m.provs[0]!.account }),
        m.market,
        'TaskMarketTaskDeadlinePassed',
        [taskId, now + 100],
      )
    })
  })

  describe('results', () => {
    it('k = 1: only the claimant, only on a claimed task, only until dueAt, only with CIDs', async () => {
      const m = await load()
      const [alice, bob] = m.provs as [Wallet, Wallet]
      const taskId = await submitOnSource(m)
      await revertWithCustomErrorWithArgs(submitResult(m, alice, taskId), m.market, 'TaskMarketWrongStatus', [
        taskId,
        TaskStatus.Open,
      ])
      const { dueAt } = await claim(m, alice, taskId)
      await revertWithCustomErrorWithArgs(submitResult(m, bob, taskId), m.market, 'TaskMarketNotClaimant', [
        taskId,
        bob.account.address,
      ])
      await revertWithCustomError(
        m.market.write.submitResult([taskId, zeroHash, RESULT_CID, RECEIPT_CID, 1], {
          account: alice.account,
        }),
        m.market,
        'TaskMarketZeroDigest',
      )
      await revertWithCustomError(
        m.market.write.submitResult([taskId, sealOf(taskId, RESULT_DIGEST), '', RECEIPT_CID, 1], {
          account: alice.account,
        }),
        m.market,
        'TaskMarketInvalidCID',
      )
      await revertWithCustomError(
        m.market.write.submitResult([taskId, sealOf(taskId, RESULT_DIGEST), RESULT_CID, '', 1], {
          account: alice.account,
        }),
        m.market,
        'TaskMarketInvalidCID',
      )
      await time.increaseTo(dueAt + 1)
      await revertWithCustomErrorWithArgs(
        submitResult(m, alice, taskId),
        m.market,
        'TaskMarketClaimOverdue',
        [taskId, 0, dueAt],
      )
    })

    it('k = 1: a result exactly at dueAt is on time', async () => {
      const m = await load()
      const [alice, bob] = m.provs as [Wallet, Wallet]
      const taskId = await submitOpaque(m)
      const { dueAt } = await claim(m, alice, taskId)
      await atTime(m, dueAt)
      await submitResult(m, alice, taskId)
      assert.equal((await m.market.read.getTask([taskId])).status, TaskStatus.Completed)
      // an auditable one is accepted (held) too
      const audited = await submitOnSource(m)
      const claimed = await claim(m, bob, audited)
      await atTime(m, claimed.dueAt)
      await submitHeld(m, bob, audited)
    })

    it('mode checks: k > 1 cannot submitResult, k = 1 cannot commit', async () => {
      const m = await load()
      const alice = m.provs[0]!
      const { taskId: consensus } = await claimedTask(m, 2)
      await revertWithCustomErrorWithArgs(
        submitResult(m, alice, consensus),
        m.market,
        'TaskMarketWrongMode',
        [consensus, 2],
      )
      const { taskId: single } = await claimedTask(m, 1)
      await revertWithCustomErrorWithArgs(
        commit(m, alice, single, digestOf('x'), saltOf('x')),
        m.market,
        'TaskMarketWrongMode',
        [single, 1],
      )
    })

    it('commit: not zero, only claimants, not before the seat is final, only once, only until dueAt', async () => {
      const m = await load()
      const [alice, bob, , dave] = m.provs as [Wallet, Wallet, Wallet, Wallet]
      const { taskId, claims } = await claimedTask(m, 3)
      await revertWithCustomError(
        m.market.write.commitResult([taskId, zeroHash], { account: alice.account }),
        m.market,
        'TaskMarketZeroCommitment',
      )
      // While the race runs a seat can still be taken: no commitment until it ends (the seat's start).
      const { seatStart } = await seatRace(m, taskId)
      assert.equal(claims[0]!.dueAt, seatStart + SOURCE_MAX_RUNTIME_SEC + DEFAULT_MARKET_PARAMS.claimGrace)
      await revertWithCustomErrorWithArgs(
        m.market.write.commitResult(
          [taskId, commitment(taskId, alice.account.address, sealOf(taskId, digestOf('x')), saltOf('x'))],
          {
            account: alice.account,
          },
        ),
        m.market,
        'TaskMarketSeatNotFinal',
        [taskId, seatStart],
      )
      await revertWithCustomErrorWithArgs(
        commit(m, dave, taskId, digestOf('x'), saltOf('x')),
        m.market,
        'TaskMarketNotClaimant',
        [taskId, dave.account.address],
      )
      await commit(m, alice, taskId, digestOf('x'), saltOf('x'))
      await revertWithCustomErrorWithArgs(
        commit(m, alice, taskId, digestOf('y'), saltOf('y')),
        m.market,
        'TaskMarketAlreadyCommitted',
        [taskId, alice.account.address],
      )
      await time.increaseTo(claims[1]!.dueAt + 1)
      await revertWithCustomErrorWithArgs(
        commit(m, bob, taskId, digestOf('x'), saltOf('x')),
        m.market,
        'TaskMarketClaimOverdue',
        [taskId, 1, claims[1]!.dueAt],
      )
    })

    it('reveal: only once reveals are open, only matching, only once, only by claimants, only within the window', async () => {
      const m = await load()
      const [alice, bob, carol, dave] = m.provs as [Wallet, Wallet, Wallet, Wallet]
      const { taskId } = await claimedTask(m, 3)
      await commit(m, alice, taskId, digestOf('r'), saltOf('a'))
      await revertWithCustomErrorWithArgs(
        reveal(m, alice, taskId, digestOf('r'), saltOf('a')),
        m.market,
        'TaskMarketWrongStatus',
        [taskId, TaskStatus.Claimed],
      )
      await commit(m, bob, taskId, digestOf('r'), saltOf('b'))
      const last = await commit(m, carol, taskId, digestOf('r'), saltOf('c'))
      const revealDeadline = (await blockTime(m, last)) + DEFAULT_MARKET_PARAMS.revealWindow

      await revertWithCustomErrorWithArgs(
        reveal(m, alice, taskId, digestOf('r'), saltOf('wrong')),
        m.market,
        'TaskMarketCommitmentMismatch',
        [taskId, alice.account.address],
      )
      await revertWithCustomErrorWithArgs(
        reveal(m, alice, taskId, digestOf('other'), saltOf('a')),
        m.market,
        'TaskMarketCommitmentMismatch',
        [taskId, alice.account.address],
      )
      await revertWithCustomErrorWithArgs(
        reveal(m, dave, taskId, digestOf('r'), saltOf('a')),
        m.market,
        'TaskMarketNotClaimant',
        [taskId, dave.account.address],
      )
      await revertWithCustomError(
        // The matching opening (the seal Alice committed to), only without a result CID.
        m.market.write.revealResult(
          [taskId, sealOf(taskId, digestOf('r')), saltOf('a'), '', RECEIPT_CID, 1],
          {
            account: alice.account,
          },
        ),
        m.market,
        'TaskMarketInvalidCID',
      )
      await reveal(m, alice, taskId, digestOf('r'), saltOf('a'))
      await revertWithCustomErrorWithArgs(
        reveal(m, alice, taskId, digestOf('r'), saltOf('a')),
        m.market,
        'TaskMarketAlreadyRevealed',
        [taskId, alice.account.address],
      )
      // exactly at the deadline is still open; one second later it is closed
      await atTime(m, revealDeadline)
      await reveal(m, bob, taskId, digestOf('r'), saltOf('b'))
      await revertWithCustomErrorWithArgs(
        reveal(m, carol, taskId, digestOf('r'), saltOf('c')),
        m.market,
        'TaskMarketRevealClosed',
        [taskId, revealDeadline],
      )
    })

    it('a copied commitment cannot be revealed by the copier, who is slashed as a non-revealer', async () => {
      const m = await load()
      const { market, client, creator } = m
      const [alice, bob, carol] = m.provs as [Wallet, Wallet, Wallet]
      const { taskId } = await claimedTask(m, 3)
      const digest = digestOf('honest output')
      const aliceSalt = saltOf('alice secret')
      const aliceCommitment = commitment(taskId, alice.account.address, sealOf(taskId, digest), aliceSalt)
      await commit(m, alice, taskId, digest, aliceSalt)
      // Bob copies Alice's commitment from the mempool.
      await market.write.commitResult([taskId, aliceCommitment], { account: bob.account })
      const last = await commit(m, carol, taskId, digest, saltOf('carol secret'))
      const revealDeadline = (await blockTime(m, last)) + DEFAULT_MARKET_PARAMS.revealWindow

      await reveal(m, alice, taskId, digest, aliceSalt)
      // Once Alice's seal and salt are public, Bob still cannot open his copy: it is bound to Alice's address.
      await revertWithCustomErrorWithArgs(
        reveal(m, bob, taskId, digest, aliceSalt),
        market,
        'TaskMarketCommitmentMismatch',
        [taskId, bob.account.address],
      )
      await reveal(m, carol, taskId, digest, saltOf('carol secret'))

      const terms = await taskTerms(m, taskId)
      const before = await ledger(m, [client, alice, bob, carol, creator])
      await atTime(m, revealDeadline + 1)
      const hash = await market.write.finalizeTask([taskId])
      const after = await ledger(m, [client, alice, bob, carol, creator])
      assertSettlement(
        before,
        after,
        settlementModel(terms, DEFAULT_MARKET_PARAMS, [
          { provider: alice.account.address, kind: 'paid', runtimeSec: 60 },
          { provider: bob.account.address, kind: 'slashed' },
          { provider: carol.account.address, kind: 'paid', runtimeSec: 60 },
        ]),
      )
      await viem.assertions.emitWithArgs(hash, market, 'ProviderSlashed', [
        taskId,
        bob.account.address,
        1,
        grid(10),
        grid(5),
        false,
      ])
      const bobReputation = await m.providers.read.getReputation([bob.account.address])
      assert.equal(bobReputation.failed, 1)
      assert.equal(bobReputation.completed, 0)
    })
  })

  describe('permissionless exits', () => {
    it('reopenSlot: only an overdue claimed slot of a live task', async () => {
      const m = await load()
      const taskId = await submitOnSource(m, { replicas: 2 })
      const { dueAt } = await claim(m, m.provs[0]!, taskId)
      await revertWithCustomErrorWithArgs(
        m.market.write.reopenSlot([taskId, 1]),
        m.market,
        'TaskMarketSlotNotClaimed',
        [taskId, 1],
      )
      await revertWithCustomErrorWithArgs(
        m.market.write.reopenSlot([taskId, 5]),
        m.market,
        'TaskMarketSlotNotClaimed',
        [taskId, 5],
      )
      await atTime(m, dueAt)
      await revertWithCustomErrorWithArgs(
        m.market.write.reopenSlot([taskId, 0]),
        m.market,
        'TaskMarketClaimNotOverdue',
        [taskId, 0, dueAt],
      )
      await revertWithCustomErrorWithArgs(
        m.market.write.reopenSlot([99n, 0]),
        m.market,
        'TaskMarketUnknownTask',
        [99n],
      )
      const { taskId: done, claims } = await claimedTask(m, 1)
      await submitHeld(m, m.provs[0]!, done)
      // a held result is not a claim any more, even once its due time passed. Checked in a snapshot: moving the
      // time mines the block whose hash the draw reads, and the release below needs to pick that block.
      const held = await networkHelpers.takeSnapshot()
      await time.increaseTo(claims[0]!.dueAt + 1)
      await revertWithCustomErrorWithArgs(
        m.market.write.reopenSlot([done, 0]),
        m.market,
        'TaskMarketWrongStatus',
        [done, TaskStatus.Held],
      )
      await held.restore()
      await releaseNotDrawn(m, done)
      await time.increaseTo(claims[0]!.dueAt + 1)
      await revertWithCustomErrorWithArgs(
        m.market.write.reopenSlot([done, 0]),
        m.market,
        'TaskMarketWrongStatus',
        [done, TaskStatus.Completed],
      )
    })

    it('finalizeTask: only a revealing task whose window closed', async () => {
      const m = await load()
      const { taskId: claimed } = await claimedTask(m, 2)
      await revertWithCustomErrorWithArgs(
        m.market.write.finalizeTask([claimed]),
        m.market,
        'TaskMarketWrongStatus',
        [claimed, TaskStatus.Claimed],
      )
      const r = await revealingTask(m, 2)
      await revertWithCustomErrorWithArgs(
        m.market.write.finalizeTask([r.taskId]),
        m.market,
        'TaskMarketRevealStillOpen',
        [r.taskId, r.revealDeadline],
      )
      await time.increaseTo(r.revealDeadline + 1)
      await m.market.write.finalizeTask([r.taskId])
      // nobody revealed: Failed, both slashed
      assert.equal((await m.market.read.getTask([r.taskId])).status, TaskStatus.Failed)
      await revertWithCustomErrorWithArgs(
        m.market.write.finalizeTask([r.taskId]),
        m.market,
        'TaskMarketWrongStatus',
        [r.taskId, TaskStatus.Failed],
      )
    })

    it('expireTask: only after the deadline, never once reveals are open or the task is final', async () => {
      const m = await load()
      const now = await time.latest()
      const open = await submitOnSource(m, { deadline: now + DAY })
      await revertWithCustomErrorWithArgs(
        m.market.write.expireTask([open]),
        m.market,
        'TaskMarketDeadlineNotPassed',
        [open, now + DAY],
      )
      const r = await revealingTask(m, 2)
      const deadline = (await m.market.read.getTask([r.taskId])).deadline
      await time.increaseTo(deadline + 1)
      await revertWithCustomErrorWithArgs(
        m.market.write.expireTask([r.taskId]),
        m.market,
        'TaskMarketWrongStatus',
        [r.taskId, TaskStatus.Revealing],
      )
      // the revealing task still has its exit
      await m.market.write.finalizeTask([r.taskId])
    })

    it('cancelTask: only the client, only before any claim', async () => {
      const m = await load()
      const alice = m.provs[0]!
      const taskId = await submitOnSource(m, { replicas: 2 })
      await revertWithCustomErrorWithArgs(
        m.market.write.cancelTask([taskId], { account: m.others[1]!.account }),
        m.market,
        'TaskMarketNotClient',
        [taskId, m.others[1]!.account.address],
      )
      const { dueAt } = await claim(m, alice, taskId)
      await revertWithCustomErrorWithArgs(
        m.market.write.cancelTask([taskId], { account: m.client.account }),
        m.market,
        'TaskMarketHasClaims',
        [taskId],
      )
      // once the only claimant is reopened, every slot is free again and the client may cancel
      await atTime(m, dueAt + 1)
      await m.market.write.reopenSlot([taskId, 0])
      await m.market.write.cancelTask([taskId], { account: m.client.account })
      assert.equal((await m.market.read.getTask([taskId])).status, TaskStatus.Cancelled)
      await revertWithCustomErrorWithArgs(
        m.market.write.cancelTask([taskId], { account: m.client.account }),
        m.market,
        'TaskMarketWrongStatus',
        [taskId, TaskStatus.Cancelled],
      )
    })
  })

  describe('governance bounds', () => {
    it('setParams rejects each parameter outside its bound, and accepts the bounds themselves', async () => {
      const m = await load()
      const base = DEFAULT_MARKET_PARAMS
      const cases: [string, object][] = [
        ['protocolFeeBps', { protocolFeeBps: 2_001 }],
        ['stakerShareBps', { stakerShareBps: 5_001 }],
        ['collateralBps', { collateralBps: 999 }],
        ['collateralBps', { collateralBps: 20_001 }],
        ['slashToClientBps', { slashToClientBps: 10_001 }],
        ['revealWindow', { revealWindow: 59 }],
        ['revealWindow', { revealWindow: 86_401 }],
        ['claimGrace', { claimGrace: 59 }],
        ['claimGrace', { claimGrace: 86_401 }],
        ['minCollateral', { minCollateral: 10n ** 24n + 1n }],
        ['auditBps', { auditBps: 99 }],
        ['auditBps', { auditBps: 10_001 }],
        ['auditJoinWindow', { auditJoinWindow: 59 }],
        ['auditJoinWindow', { auditJoinWindow: 86_401 }],
      ]
      for (const [name, change] of cases) {
        await revertWithCustomErrorWithArgs(
          m.market.write.setParams([{ ...base, ...change }]),
          m.market,
          'TaskMarketParamOutOfBounds',
          [name],
        )
      }
      const upper = {
        protocolFeeBps: 2_000,
        stakerShareBps: 5_000,
        collateralBps: 20_000,
        slashToClientBps: 10_000,
        revealWindow: 86_400,
        claimGrace: 86_400,
        minCollateral: 10n ** 24n,
        auditBps: 10_000,
        auditJoinWindow: 86_400,
      }
      await m.market.write.setParams([upper])
      assert.deepEqual(await m.market.read.params(), upper)
      const lower = {
        protocolFeeBps: 0,
        stakerShareBps: 0,
        collateralBps: 1_000,
        slashToClientBps: 0,
        revealWindow: 60,
        claimGrace: 60,
        minCollateral: 0n,
        auditBps: 100,
        auditJoinWindow: 60,
      }
      await m.market.write.setParams([lower])
      assert.deepEqual(await m.market.read.params(), lower)
    })

    it('the constructor rejects zero addresses and out-of-bounds parameters', async () => {
      const m = await load()
      const audits = await viem.deployContract('TaskAudits', [])
      type Overrides = {
        asset?: `0x${string}`
        sources?: `0x${string}`
        treasury?: `0x${string}`
        params?: object
        unbondingPeriod?: number
        minProviderStake?: bigint
        auditsModule?: `0x${string}`
      }
      const args = (overrides: Overrides = {}) =>
        [
          overrides.asset ?? m.token.address,
          overrides.sources ?? m.sources.address,
          overrides.treasury ?? m.treasury,
          m.owner.account.address,
          { ...DEFAULT_MARKET_PARAMS, ...overrides.params },
          overrides.unbondingPeriod ?? 7 * DAY,
          overrides.minProviderStake ?? grid(100),
          overrides.auditsModule ?? audits.address,
        ] as const
      const deploy = (overrides: Overrides) =>
        viem.deployContract('TaskMarket', args(overrides)) as unknown as Promise<`0x${string}`>
      for (const overrides of [
        { asset: zeroAddress },
        { sources: zeroAddress },
        { treasury: zeroAddress },
        { auditsModule: zeroAddress },
        // the audits module must be code: an account without any is refused
        { auditsModule: m.treasury },
      ]) {
        await revertWithCustomError(deploy(overrides), m.market, 'TaskMarketZeroAddress')
      }
      await revertWithCustomErrorWithArgs(
        deploy({ params: { auditBps: 99 } }),
        m.market,
        'TaskMarketParamOutOfBounds',
        ['auditBps'],
      )
      await revertWithCustomErrorWithArgs(
        deploy({ params: { protocolFeeBps: 2_001 } }),
        m.market,
        'TaskMarketParamOutOfBounds',
        ['protocolFeeBps'],
      )
      // Staking and ProviderRegistry are deployed by the constructor: their bounds apply, and their errors bubble up
      const [minPeriod, maxPeriod] = [
        await m.staking.read.MIN_UNBONDING_PERIOD(),
        await m.staking.read.MAX_UNBONDING_PERIOD(),
      ]
      await revertWithCustomErrorWithArgs(
        deploy({ unbondingPeriod: minPeriod - 1 }),
        m.staking,
        'StakingUnbondingPeriodOutOfBounds',
        [minPeriod - 1, minPeriod, maxPeriod],
      )
      await revertWithCustomErrorWithArgs(
        deploy({ unbondingPeriod: maxPeriod + 1 }),
        m.staking,
        'StakingUnbondingPeriodOutOfBounds',
        [maxPeriod + 1, minPeriod, maxPeriod],
      )
      const maxStake = await m.providers.read.MAX_MIN_PROVIDER_STAKE()
      await revertWithCustomErrorWithArgs(
        deploy({ minProviderStake: maxStake + 1n }),
        m.providers,
        'ProviderRegistryMinStakeOutOfBounds',
        [maxStake + 1n, maxStake],
      )
    })

    it('only the owner sets parameters and the treasury; the treasury is never zero', async () => {
      const m = await load()
      const mallory = m.others[5]!
      await revertWithCustomErrorWithArgs(
        m.market.write.setParams([DEFAULT_MARKET_PARAMS], { account: mallory.account }),
        m.market,
        'OwnableUnauthorizedAccount',
        [mallory.account.address],
      )
      await revertWithCustomErrorWithArgs(
        m.market.write.setTreasury([mallory.account.address], { account: mallory.account }),
        m.market,
        'OwnableUnauthorizedAccount',
        [mallory.account.address],
      )
      await revertWithCustomError(
        m.market.write.setTreasury([zeroAddress]),
        m.market,
        'TaskMarketZeroAddress',
      )
      assert.equal((await m.market.read.treasury()).toLowerCase(), m.treasury.toLowerCase())
    })
  })
})
