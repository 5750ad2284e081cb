/** Each strategy does what its docstring says, seen in what the run recorded and on the chain. */
import { providerRegistryAbi, taskMarketAbi } from '@gridforge/contracts'
import { type Address, createPublicClient, custom } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Session } from '../src/experiment.js'
import { digestOf } from '../src/market/cid.js'
import { type RunRecord, type SimTask, same } from '../src/market/engine.js'
import { FailureKind, failureDigest } from '../src/market/results.js'
import { runMarket } from '../src/market/run.js'
import type { World } from '../src/market/world.js'
import type { SimParams } from '../src/params.js'
import { claimAndAbandonStrategy } from '../src/strategies/claimAndAbandon.js'
import { colludingAuditorStrategy } from '../src/strategies/colludingAuditor.js'
import { copycatStrategy } from '../src/strategies/copycat.js'
import { failureLiarStrategy } from '../src/strategies/failureLiar.js'
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

const reader = (world: World) => createPublicClient({ transport: custom(world.chain.provider) })
const market = (world: World) => ({ address: world.chain.contracts.market, abi: taskMarketAbi }) as const

const chainTask = (world: World, id: bigint) =>
  reader(world).readContract({ ...market(world), functionName: 'getTask', args: [id] })

const chainReputation = (world: World, provider: Address) =>
  reader(world).readContract({
    address: world.chain.contracts.providers,
    abi: providerRegistryAbi,
    functionName: 'getReputation',
    args: [provider],
  })

/** What each ReplicaPaid of the task paid (the run's chain: every run starts from the world's snapshot). */
async function replicaPayments(world: World, taskId: bigint) {
  const events = await reader(world).getContractEvents({
    ...market(world),
    eventName: 'ReplicaPaid',
    args: { taskId },
    fromBlock: 0n,
  })
  return events.map((e) => e.args.payment)
}

/** Every ProviderSlashed of the run. */
async function slashes(world: World) {
  return reader(world).getContractEvents({ ...market(world), eventName: 'ProviderSlashed', fromBlock: 0n })
}

/** What a failed run of `task` is paid: the failure fee of a fixed price, a metered price × the limit. */
function failureTerms(task: SimTask, params: SimParams) {
  return task.metered
    ? task.pricePerSecond * BigInt(task.maxRuntimeSec)
    : (task.maxPayment * BigInt(params.failureFeeBps)) / 10_000n
}

/** Whether `provider` ran any slot or audit seat of the run. */
function worked(record: RunRecord, provider: Address) {
  return (record.participation.get(provider.toLowerCase() as Address) ?? 0) > 0
}

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
      expect(task.outcome).toEqual({
        status: 'Failed',
        result: task.correct,
        failed: false,
        verdict: 'Overturned',
      })
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
        // Nobody joined (every other provider offline or busy): paid unaudited.
        expect(task.outcome).toEqual({
          status: 'Completed',
          result: task.correct,
          failed: false,
          verdict: 'Lapsed',
        })
        continue
      }
      expect(task.outcome).toEqual({
        status: 'Completed',
        result: task.correct,
        failed: false,
        verdict: 'Upheld',
      })
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
      // The digest of its ResultSubmitted event, which an output's CID spells too.
      expect(seat?.digest).toBe(task.audit?.resultDigest)
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
        failed: false,
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

  it('vetoing client: its second account reveals a different result on its two-replica tasks; the dispute audits it', async () => {
    const params = smallParams({ k2Share: 1, k3Share: 0 })
    const { record, world } = await play(vetoingClientStrategy, params)
    const client = world.cast.clients[0] as Address
    const vetoer = world.cast.spare[0] as Address
    const own = record.tasks.filter((t) => same(t.client, client) && t.delivered.size === 2)
    expect(own.length).toBeGreaterThan(0)
    const slashed = (await slashes(world)).filter((e) => same(e.args.provider as Address, vetoer))
    for (const task of own) {
      expect(task.everHeld.has(vetoer)).toBe(true)
      expect(task.delivered.get(vetoer)).not.toBe(task.correct)
      // No free veto: the results differ, so auditors re-run the task.
      expect(task.audit?.kind).toBe('dispute')
      expect(task.audit?.audited).toHaveLength(2)
      if ((task.audit?.seats.size ?? 0) === 0) {
        // Nobody came: no majority of two, nobody paid or slashed.
        expect(task.outcome).toMatchObject({ status: 'Failed', verdict: 'Lapsed' })
        continue
      }
      // The auditor confirms the honest replica: it is paid, the vetoer's collateral is slashed.
      expect(task.outcome).toEqual({
        status: 'Completed',
        result: task.correct,
        failed: false,
        verdict: 'Upheld',
      })
      expect(slashed.some((e) => e.args.taskId === task.id && e.args.outvoted === true)).toBe(true)
    }
    expect(own.some((t) => t.outcome?.verdict === 'Upheld')).toBe(true)
    expect(record.ledger.account(client).value).toBeGreaterThan(0)
  })

  it('honest providers: hand in a timeout report for a run killed at the limit; auditors find the same failure', async () => {
    // Every run outlasts the source's limit. Ungated: failed runs do not count as completed, so nobody would
    // ever pass a gate.
    const params = smallParams({ runtimeMin: 1.2, runtimeMax: 1.5, gatedShare: 0, auditBps: 10_000 })
    const { record, world } = await play(honestProviderStrategy, params)
    const timedOut = failureDigest(FailureKind.TimedOut)
    expect(record.tasks.length).toBe(params.tasks)
    for (const task of record.tasks) {
      expect(task.outcome).toMatchObject({ status: 'Completed', result: timedOut, failed: true })
      expect([...task.delivered.values()]).toEqual(Array(task.replicas).fill(timedOut))
      expect((await chainTask(world, task.id)).failed).toBe(true)
      // Paid the failure terms: the failure fee of a fixed price, the runtime used (the limit) when metered.
      for (const paid of await replicaPayments(world, task.id)) expect(paid).toBe(failureTerms(task, params))
    }
    const audited = record.tasks.filter((t) => (t.audit?.seats.size ?? 0) > 0)
    expect(audited.length).toBeGreaterThan(0)
    for (const task of audited) {
      expect(task.outcome?.verdict).toBe('Upheld')
      for (const seat of task.audit?.seats.values() ?? []) expect(seat.digest).toBe(timedOut)
    }
    // Never slashed; every run counted as a failed run, none as completed.
    expect(await slashes(world)).toEqual([])
    for (const provider of world.cast.providers) {
      const reputation = await chainReputation(world, provider)
      expect(reputation.completed).toBe(0)
      if (worked(record, provider)) expect(reputation.failedRuns).toBeGreaterThan(0)
    }
  })

  it('failure liar: reports exited(1) on fixed-price single-replica tasks without computing, paid the failure fee unless audited', async () => {
    const params = smallParams({ k2Share: 0, k3Share: 0, meteredShare: 0 })
    const { record, world } = await play(failureLiarStrategy, params)
    const liar = world.cast.providers[0] as Address
    const own = record.tasks.filter((t) => t.delivered.has(liar))
    expect(own.length).toBeGreaterThan(0)
    // It computes none of its claims: only the audits it sat on (it audits honestly).
    const audits = record.tasks.filter((t) => t.audit?.seats.has(liar.toLowerCase() as Address))
    const auditWork = audits.reduce((sum, t) => sum + Math.min(t.runtimeSec, t.maxRuntimeSec), 0)
    expect(record.ledger.account(liar).computeSec).toBe(auditWork)
    for (const task of own) {
      expect(task.delivered.get(liar)).toBe(failureDigest(FailureKind.Exited, 1))
      expect(task.audit?.drawn).toBeDefined()
      if (task.audit?.drawn === false) {
        // Not drawn: the client has a failure report and paid the failure fee for it.
        expect(task.outcome).toMatchObject({ status: 'Completed', failed: true })
        expect(await replicaPayments(world, task.id)).toEqual([failureTerms(task, params)])
      }
    }
    const paid = own.filter((t) => t.audit?.drawn === false)
    expect(paid.length).toBeGreaterThan(0)
    // Its reports count as failed runs (not against its success rate); only its audits count as completed.
    const reputation = await chainReputation(world, liar)
    expect(reputation.failedRuns).toBe(paid.length)
    expect(reputation.completed).toBe(audits.length)
  })

  it('failure liar: an audit re-runs the task, overturns the failure report and slashes its collateral', async () => {
    // Spaced arrivals: auditors are idle when a round opens (a round nobody joins moves on empty).
    const params = smallParams({
      k2Share: 0,
      k3Share: 0,
      meteredShare: 0,
      auditBps: 10_000,
      arrivalSpacingSec: 3000,
    })
    const { record, world } = await play(failureLiarStrategy, params)
    const liar = world.cast.providers[0] as Address
    const own = record.tasks.filter((t) => t.delivered.has(liar))
    expect(own.length).toBeGreaterThan(0)
    const overturned = own.filter((t) => t.outcome?.verdict === 'Overturned')
    for (const task of own) {
      expect(task.audit?.drawn).toBe(true)
      // Every re-run succeeds: the first auditor does not confirm the report; a second who agrees overturns it.
      const seats = [...(task.audit?.seats.values() ?? [])]
      for (const seat of seats) expect(seat.digest).toBe(task.correct)
      expect(task.outcome?.verdict).not.toBe('Upheld')
      if (seats.filter((seat) => seat.revealed).length >= 2) expect(overturned).toContain(task)
    }
    expect(overturned.length).toBeGreaterThan(0)
    for (const task of overturned) {
      // The client gets the output the auditors found.
      expect(task.outcome).toEqual({
        status: 'Failed',
        result: task.correct,
        failed: false,
        verdict: 'Overturned',
      })
    }
    expect(record.ledger.account(liar).staked).toBeLessThan(BigInt(params.providerStake) * 10n ** 18n)
    // Overturned reports count as outvoted, no longer as failed runs.
    const reputation = await chainReputation(world, liar)
    expect(reputation.outvoted).toBe(overturned.length)
    expect(reputation.failedRuns).toBe(own.length - overturned.length)
  })

  it('honeypot client: its tasks expire unclaimed or are handed in as timeouts; nobody is slashed and it pays', async () => {
    const params = smallParams({ gatedShare: 0 })
    const { record, world } = await play(honeypotClientStrategy, params)
    const client = world.cast.clients[0] as Address
    const own = record.tasks.filter((t) => same(t.client, client))
    const short = own.filter((t) => t.runtimeSec <= t.maxRuntimeSec)
    const timeouts = own.filter((t) => t.runtimeSec > t.maxRuntimeSec)
    expect(short.length).toBeGreaterThan(0)
    expect(timeouts.length).toBeGreaterThan(0)
    // No claim could be due by the deadline: nobody claims, the task expires.
    for (const task of short) {
      expect(task.everHeld.size).toBe(0)
      expect(task.outcome?.status).toBe('Expired')
    }
    // Inputs that make every run time out: handed in as timeouts, paid the failure terms.
    for (const task of timeouts) {
      expect(task.outcome).toMatchObject({
        status: 'Completed',
        result: failureDigest(FailureKind.TimedOut),
        failed: true,
      })
      for (const paid of await replicaPayments(world, task.id)) expect(paid).toBe(failureTerms(task, params))
    }
    expect(await slashes(world)).toEqual([])
    const account = record.ledger.account(client)
    const opening = record.opening.get(client.toLowerCase() as Address) ?? 0n
    expect(account.wallet + account.internal).toBeLessThan(opening)
  })
})
