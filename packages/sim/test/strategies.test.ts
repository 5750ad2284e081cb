/** Each strategy does what its docstring says, seen in what the run recorded and on the chain. */
import { taskMarketAbi } from '@gridforge/contracts'
import { type Address, createPublicClient, custom } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Session } from '../src/experiment.js'
import { digestOf } from '../src/market/cid.js'
import { same } from '../src/market/engine.js'
import { runMarket } from '../src/market/run.js'
import type { World } from '../src/market/world.js'
import type { SimParams } from '../src/params.js'
import { claimAndAbandonStrategy } from '../src/strategies/claimAndAbandon.js'
import { colludingAuditorStrategy } from '../src/strategies/colludingAuditor.js'
import { copycatStrategy } from '../src/strategies/copycat.js'
import { honestProviderStrategy } from '../src/strategies/honestProvider.js'
import { honeypotClientStrategy } from '../src/strategies/honeypotClient.js'
import { lazyAuditorStrategy } from '../src/strategies/lazyAuditor.js'
import { lazyProviderStrategy } from '../src/strategies/lazyProvider.js'
import { meteringInflaterStrategy } from '../src/strategies/meteringInflater.js'
import { reputationFarmerStrategy } from '../src/strategies/reputationFarmer.js'
import { captureRate, sybilAccounts, sybilOperatorStrategy } from '../src/strategies/sybilOperator.js'
import type { Strategy } from '../src/strategies/types.js'
import { vetoingClientStrategy } from '../src/strategies/vetoingClient.js'
import { garbage } from '../src/strategies/work.js'
import { openSession, smallParams } from './setup.js'

let session: Session
beforeAll(async () => {
  session = await openSession()
})
afterAll(() => session?.close())

async function play(strategy: Strategy, params: SimParams, seed = 5) {
  const world: World = await session.world(params)
  const deviation = strategy.deviate(world.cast, params)
  const record = await runMarket(world, params, seed, deviation)
  return { world, record, deviation }
}

const holds = (accounts: readonly Address[], holder: Address) => accounts.some((a) => same(a, holder))

describe('strategies', () => {
  it('lazy provider: never runs a single-replica task, hands in garbage and is paid for it unless audited', async () => {
    const params = smallParams({ k2Share: 0, k3Share: 0, meteredShare: 0 })
    const { record, world } = await play(lazyProviderStrategy, params)
    const lazy = world.cast.providers[0] as Address
    const own = record.tasks.filter((t) => t.delivered.has(lazy))
    expect(own.length).toBeGreaterThan(0)
    expect(record.ledger.account(lazy).computeSec).toBe(0)
    for (const task of own) {
      expect(task.delivered.get(lazy)).not.toBe(task.correct)
      // Held for the audit draw; paid when not drawn.
      expect(task.audit?.drawn).toBeDefined()
      if (task.audit?.drawn === false) expect(task.outcome?.status).toBe('Completed')
    }
    expect(own.some((t) => t.audit?.drawn === false)).toBe(true)
    expect(record.ledger.account(lazy).internal).toBeGreaterThan(0n)
  })

  it('lazy provider: an audit overturns its garbage, slashes its collateral and hands the client the right result', async () => {
    const params = smallParams({ k2Share: 0, k3Share: 0, meteredShare: 0, auditBps: 10_000 })
    const { record, world } = await play(lazyProviderStrategy, params)
    const lazy = world.cast.providers[0] as Address
    const own = record.tasks.filter((t) => t.delivered.has(lazy))
    expect(own.length).toBeGreaterThan(0)
    for (const task of own) {
      expect(task.audit?.drawn).toBe(true)
      expect(task.outcome).toEqual({ status: 'Failed', result: task.correct, verdict: 'Overturned' })
    }
    const stake = BigInt(params.providerStake) * 10n ** 18n
    expect(record.ledger.account(lazy).staked).toBeLessThan(stake)
  })

  it('honest providers: join drawn audits, re-run the task and uphold correct results', async () => {
    const params = smallParams({ k2Share: 0, k3Share: 0, auditBps: 10_000 })
    const { record } = await play(honestProviderStrategy, params)
    const audited = record.tasks.filter((t) => t.audit?.drawn === true)
    const seated = audited.filter((t) => (t.audit?.seats.size ?? 0) > 0)
    expect(seated.length).toBeGreaterThan(0)
    for (const task of audited) {
      const [seat, ...others] = task.audit?.seats.values() ?? []
      if (seat === undefined) {
        // Nobody eligible joined (a gated task before anyone passed its gate): paid unaudited.
        expect(task.outcome).toEqual({ status: 'Completed', result: task.correct, verdict: 'Lapsed' })
        continue
      }
      expect(task.outcome).toEqual({ status: 'Completed', result: task.correct, verdict: 'Upheld' })
      // One auditor in the first round, re-running the task.
      expect(others).toEqual([])
      expect(seat.digest).toBe(task.correct)
      expect(record.ledger.account(seat.account).computeSec).toBeGreaterThanOrEqual(task.runtimeSec)
    }
  })

  it('sybil operator: claims first, holds the slots it claims and wins its majorities with garbage', async () => {
    const params = smallParams({ k2Share: 0, k3Share: 1, sybilFraction: 0.3 })
    const { record, world } = await play(sybilOperatorStrategy, params)
    const sybil = sybilAccounts(world.cast.providers, 0.3)
    const client = createPublicClient({ transport: custom(world.chain.provider) })
    let captured = 0
    let withSybil = 0
    for (const task of record.tasks) {
      const slots = await client.readContract({
        address: world.chain.contracts.market,
        abi: taskMarketAbi,
        functionName: 'getSlots',
        args: [task.id],
      })
      const held = slots.filter((slot) => holds(sybil, slot.provider)).length
      if ([...task.everHeld].some((p) => holds(sybil, p))) withSybil++
      if (task.outcome?.status === 'Completed' && task.outcome.result === garbage('sybil', task.id)) {
        // Paid for garbage: only where it held the majority of the slots.
        expect(held).toBeGreaterThanOrEqual(2)
        captured++
      }
    }
    // Racing watchers: idle sybil accounts are first on every task, so they are on most of them.
    expect(withSybil).toBeGreaterThan(record.tasks.length / 2)
    expect(captured).toBeGreaterThan(0)
    // Every task it was paid garbage for counts as captured; so may tasks where it voted right as one.
    expect(captureRate(record, sybil)).toBeGreaterThanOrEqual(captured / record.tasks.length)
  })

  it('copycat: hands in published results for repeated inputs without computing', async () => {
    // Spaced arrivals: an input's first task is settled (its result public) before it comes again.
    const params = smallParams({ duplicateInputShare: 0.6, k2Share: 0, k3Share: 0, arrivalSpacingSec: 3000 })
    const { record, world } = await play(copycatStrategy, params)
    const copycat = world.cast.providers[0] as Address
    const own = record.tasks.filter((t) => t.delivered.has(copycat))
    const work = own.reduce((sum, t) => sum + t.runtimeSec, 0)
    expect(own.length).toBeGreaterThan(0)
    expect(record.ledger.account(copycat).computeSec).toBeLessThan(work)
    // What it copied is the right answer: repeated inputs have the same correct result.
    for (const task of own) expect(task.delivered.get(copycat)).toBe(task.correct)
  })

  it('claim-and-abandon: never hands anything in and is slashed for every claim', async () => {
    const params = smallParams()
    const { record, world } = await play(claimAndAbandonStrategy, params)
    const griefer = world.cast.providers[0] as Address
    const claimed = record.tasks.filter((t) => t.everHeld.has(griefer))
    expect(claimed.length).toBeGreaterThan(params.tasks / 2)
    expect(record.tasks.some((t) => t.delivered.has(griefer))).toBe(false)
    expect(record.ledger.account(griefer).staked).toBeLessThan(BigInt(params.providerStake) * 10n ** 18n)
  })

  it('reputation farmer: passes the gate with self-dealt tasks, then hands in garbage on gated tasks', async () => {
    const params = smallParams({ gatedShare: 0.5, k2Share: 0, k3Share: 0 })
    const { record, world } = await play(reputationFarmerStrategy, params)
    const farmer = world.cast.providers[0] as Address
    const selfDealt = record.tasks.filter((t) => t.private)
    expect(selfDealt).toHaveLength(params.gateMinCompleted)
    expect(selfDealt.every((t) => t.outcome?.status === 'Completed' && t.delivered.has(farmer))).toBe(true)
    const gated = record.tasks.filter((t) => t.gated && t.delivered.has(farmer))
    expect(gated.length).toBeGreaterThan(0)
    for (const task of gated) expect(task.delivered.get(farmer)).not.toBe(task.correct)
  })

  it('metering inflater: bills more than the runtime it used on metered tasks', async () => {
    const params = smallParams({ meteredShare: 1, k2Share: 0, k3Share: 0 })
    const inflated = await play(meteringInflaterStrategy, params)
    const honest = await runMarket(inflated.world, params, 5, undefined)
    const inflater = inflated.world.cast.providers[0] as Address
    // The same work, a larger bill.
    expect(inflated.record.ledger.account(inflater).internal).toBeGreaterThan(
      honest.ledger.account(inflater).internal,
    )
  })

  it('lazy auditor: takes audit seats busy or not and reveals the audited digest without re-running', async () => {
    const params = smallParams({ k2Share: 0, k3Share: 0, auditBps: 10_000, onlineProbability: 0.5 })
    const { record, world } = await play(lazyAuditorStrategy, params)
    const auditor = world.cast.providers[0] as Address
    const seated = record.tasks.filter((t) => t.audit?.seats.has(auditor.toLowerCase() as Address))
    expect(seated.length).toBeGreaterThan(0)
    for (const task of seated) {
      const seat = task.audit?.seats.get(auditor.toLowerCase() as Address)
      expect(seat?.digest).toBe(digestOf(task.audit?.resultCID as string))
      expect(task.outcome?.verdict).toBe('Upheld')
    }
    // It computed its own claims only.
    const claimed = record.tasks.filter((t) => t.delivered.has(auditor))
    const work = claimed.reduce((sum, t) => sum + t.runtimeSec, 0)
    expect(record.ledger.account(auditor).computeSec).toBe(work)
  })

  it("colluding auditor: upholds its lazy partner's garbage and audits everybody else honestly", async () => {
    const params = smallParams({ k2Share: 0, k3Share: 0, auditBps: 10_000, colluderStake: 50_000 })
    const { record, world } = await play(colludingAuditorStrategy, params)
    const partner = world.cast.providers[0] as Address
    const colluder = world.cast.spare[0] as Address
    const seatOf = (task: (typeof record.tasks)[number]) =>
      task.audit?.seats.get(colluder.toLowerCase() as Address)
    const seated = record.tasks.filter((t) => seatOf(t) !== undefined)
    const partners = seated.filter((t) => same(t.audit?.provider as Address, partner))
    expect(partners.length).toBeGreaterThan(0)
    for (const task of partners) {
      expect(task.delivered.get(partner)).not.toBe(task.correct)
      expect(seatOf(task)?.round).toBe(1)
      expect(task.outcome).toEqual({
        status: 'Completed',
        result: task.delivered.get(partner),
        verdict: 'Upheld',
      })
    }
    const others = seated.filter((t) => !same(t.audit?.provider as Address, partner))
    for (const task of others) expect(seatOf(task)?.digest).toBe(task.correct)
    // It claims nothing, and computes the audits of others only.
    expect(record.tasks.some((t) => t.everHeld.has(colluder))).toBe(false)
    const work = others.reduce((sum, t) => sum + t.runtimeSec, 0)
    expect(record.ledger.account(colluder).computeSec).toBe(work)
  })

  it('vetoing client: its second account voids its two-replica tasks while it keeps the honest result', async () => {
    const params = smallParams({ k2Share: 1, k3Share: 0 })
    const { record, world } = await play(vetoingClientStrategy, params)
    const client = world.cast.clients[0] as Address
    const vetoer = world.cast.spare[0] as Address
    const own = record.tasks.filter((t) => same(t.client, client))
    expect(own.length).toBeGreaterThan(0)
    for (const task of own.filter((t) => t.delivered.size === 2)) {
      expect(task.everHeld.has(vetoer)).toBe(true)
      expect(task.outcome?.status).toBe('Failed')
    }
    expect(record.ledger.account(client).value).toBeGreaterThan(0)
  })

  it('honeypot client: no task of it completes and it collects slashes', async () => {
    const params = smallParams()
    const { record, world } = await play(honeypotClientStrategy, params)
    const client = world.cast.clients[0] as Address
    const own = record.tasks.filter((t) => same(t.client, client))
    expect(own.length).toBeGreaterThan(0)
    expect(own.every((t) => t.outcome?.status === 'Expired')).toBe(true)
    const account = record.ledger.account(client)
    const opening = record.opening.get(client.toLowerCase() as Address) ?? 0n
    expect(account.wallet + account.internal).toBeGreaterThan(opening)
  })
})
