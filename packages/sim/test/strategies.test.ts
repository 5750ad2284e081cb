/** Each strategy does what its docstring says, seen in what the run recorded and on the chain. */
import { taskMarketAbi } from '@gridforge/contracts'
import { type Address, createPublicClient, custom } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Session } from '../src/experiment.js'
import { same } from '../src/market/engine.js'
import { runMarket } from '../src/market/run.js'
import type { World } from '../src/market/world.js'
import type { SimParams } from '../src/params.js'
import { claimAndAbandonStrategy } from '../src/strategies/claimAndAbandon.js'
import { copycatStrategy } from '../src/strategies/copycat.js'
import { honeypotClientStrategy } from '../src/strategies/honeypotClient.js'
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
  it('lazy provider: never runs a single-replica task, hands in garbage and is paid for it', async () => {
    const params = smallParams({ k2Share: 0, k3Share: 0, meteredShare: 0 })
    const { record, world } = await play(lazyProviderStrategy, params)
    const lazy = world.cast.providers[0] as Address
    const own = record.tasks.filter((t) => t.delivered.has(lazy))
    expect(own.length).toBeGreaterThan(0)
    expect(record.ledger.account(lazy).computeSec).toBe(0)
    for (const task of own) {
      expect(task.delivered.get(lazy)).not.toBe(task.correct)
      expect(task.outcome?.status).toBe('Completed')
    }
    expect(record.ledger.account(lazy).internal).toBeGreaterThan(0n)
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
