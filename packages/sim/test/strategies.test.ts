/** Each strategy does what its docstring says, seen in what the run recorded and on the chain. */
import { providerRegistryAbi, stakingAbi, taskMarketAbi } from '@gridforge/contracts'
import { type Address, createPublicClient, custom } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Session } from '../src/experiment.js'
import { type RunRecord, type SimTask, same } from '../src/market/engine.js'
import { FailureKind, failureDigest, isFailure, sealOf } from '../src/market/results.js'
import { runMarket } from '../src/market/run.js'
import { raceSeed, ticket } from '../src/market/tickets.js'
import type { World } from '../src/market/world.js'
import type { SimParams } from '../src/params.js'
import { claimAndAbandonStrategy } from '../src/strategies/claimAndAbandon.js'
import { colludingAuditorStrategy } from '../src/strategies/colludingAuditor.js'
import { colludingPairStrategy } from '../src/strategies/colludingPair.js'
import { copycatStrategy } from '../src/strategies/copycat.js'
import { failureLiarStrategy } from '../src/strategies/failureLiar.js'
import { honestProviderStrategy } from '../src/strategies/honestProvider.js'
import { honeypotClientStrategy } from '../src/strategies/honeypotClient.js'
import { lazyAuditorStrategy } from '../src/strategies/lazyAuditor.js'
import { lazyProviderStrategy } from '../src/strategies/lazyProvider.js'
import { meteringInflaterStrategy } from '../src/strategies/meteringInflater.js'
import { meteringSkimmerStrategy } from '../src/strategies/meteringSkimmer.js'
import { reputationFarmerStrategy, reputationFarming } from '../src/strategies/reputationFarmer.js'
import { captureRate, sybilAccounts, sybilOperatorStrategy } from '../src/strategies/sybilOperator.js'
import type { Strategy } from '../src/strategies/types.js'
import { vetoingClientStrategy } from '../src/strategies/vetoingClient.js'
import { garbage } from '../src/strategies/work.js'
import { grid } from '../src/units.js'
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

/**
 * The seats a k > 1 task's race should have given: the k lowest tickets among the claims sent during it, each
 * computed off chain from the hash of the block after the submission and the claimer's stake before its claim.
 */
async function raceWinners(world: World, task: SimTask): Promise<Address[]> {
  const race = task.race
  if (race === undefined) throw new Error(`task ${task.id} had no seat race`)
  const client = reader(world)
  const seed = raceSeed((await client.getBlock({ blockNumber: race.seedBlock + 1n })).hash, task.id)
  const scored = await Promise.all(
    race.attempts.map(async ({ account, block }) => {
      const { staked } = await client.readContract({
        address: world.chain.contracts.staking,
        abi: stakingAbi,
        functionName: 'stakeOf',
        args: [account],
        blockNumber: block - 1n,
      })
      return { account, score: ticket(seed, account, staked) }
    }),
  )
  scored.sort((a, b) => (a.score < b.score ? -1 : a.score > b.score ? 1 : 0))
  return scored.slice(0, task.replicas).map((s) => s.account)
}

const sameSet = (a: readonly Address[], b: readonly Address[]) =>
  a.length === b.length && a.every((x) => b.some((y) => same(x, y)))

/**
 * The block of the last result `farmer` submitted for its self-dealt tasks, and how many other results it had
 * submitted by then.
 */
async function farmResults(world: World, farmer: Address, selfDealt: readonly SimTask[]) {
  const submitted = await reader(world).getContractEvents({
    ...market(world),
    eventName: 'ResultSubmitted',
    args: { provider: farmer },
    fromBlock: 0n,
  })
  const farm = submitted.filter((e) => selfDealt.some((t) => t.id === e.args.taskId))
  expect(farm).toHaveLength(selfDealt.length)
  let lastBlock = 0n
  for (const e of farm) if (e.blockNumber > lastBlock) lastBlock = e.blockNumber
  const others = submitted.filter((e) => !farm.includes(e) && e.blockNumber <= lastBlock).length
  return { lastBlock, others }
}

/** `provider`'s record as of block `block`. */
const reputationAt = (world: World, provider: Address, block: bigint) =>
  reader(world).readContract({
    address: world.chain.contracts.providers,
    abi: providerRegistryAbi,
    functionName: 'getReputation',
    args: [provider],
    blockNumber: block,
  })

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
    // Every provider online and idle between tasks: a later round nobody can join (offline, or every GPU busy
    // running tasks and other audits) moves on to the next, and an audit that runs out of rounds is Unresolved
    // (nobody paid or slashed), which is not what this test is about. An hour between tasks leaves GPUs free.
    const params = smallParams({
      k2Share: 0,
      k3Share: 0,
      meteredShare: 0,
      auditBps: 10_000,
      onlineProbability: 1,
      arrivalSpacingSec: 3600,
    })
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

  it('sybil operator: its accounts join every seat race, hold what their tickets win and hand in garbage only where they hold a majority', async () => {
    const params = smallParams({ tasks: 40, k2Share: 1, k3Share: 0, sybilFraction: 0.5 })
    const { record, world } = await play(sybilOperatorStrategy, params)
    const sybil = sybilAccounts(world.cast.providers, 0.5)
    let captured = 0
    let firstButOut = 0
    for (const task of record.tasks) {
      const race = task.race
      expect(race?.final).toBe(true)
      if (race === undefined) continue
      // The seats at the race's end are the lowest tickets of the claims sent, not the first claims.
      expect(sameSet(race.holders, await raceWinners(world, task))).toBe(true)
      // Watchers claim first (sybil accounts that were idle): where one did and lost its seat, speed won nothing.
      const first = race.attempts[0]?.account
      if (first !== undefined && holds(sybil, first) && !race.holders.some((h) => same(h, first)))
        firstButOut++
      if (task.outcome?.status === 'Completed' && task.outcome.result === garbage('sybil', task.id)) {
        // Paid for garbage: only where its accounts held both seats — won in the race, or a seat the race left
        // free taken first come after it (its accounts watch: they are there first).
        const delivered = [...task.delivered.keys()].filter((p) => holds(sybil, p))
        expect(delivered).toHaveLength(2)
        if (race.holders.length === 2) expect(race.holders.every((h) => holds(sybil, h))).toBe(true)
        captured++
      }
    }
    expect(firstButOut).toBeGreaterThan(0)
    expect(captured).toBeGreaterThan(0)
    // Every task it was paid garbage for counts as captured; so may tasks where it voted right as one.
    expect(captureRate(record, sybil)).toBeGreaterThanOrEqual(captured / record.tasks.length)
  })

  it('colluding pair: both join the seat races of consensus tasks and hand in garbage only where they hold both seats', async () => {
    const params = smallParams({ tasks: 40, k2Share: 1, k3Share: 0 })
    const { record, world } = await play(colludingPairStrategy, params)
    const pair = world.cast.providers.slice(0, 2)
    for (const task of record.tasks) {
      const race = task.race
      if (race === undefined) continue
      expect(sameSet(race.holders, await raceWinners(world, task))).toBe(true)
      if (![...task.delivered.values()].includes(garbage('pair', task.id))) continue
      // Garbage only from a pair that held both seats: each won in the race, or taken first come among the seats
      // the race left free (the pair watches, so it is first there), never by pushing a better ticket out.
      expect([...task.delivered.keys()].filter((p) => holds(pair, p))).toHaveLength(2)
      const seated = race.holders.filter((h) => holds(pair, h)).length
      const leftFree = task.replicas - race.holders.length
      expect(seated + leftFree).toBeGreaterThanOrEqual(2)
      if (leftFree === 0) expect(seated).toBe(2)
    }
    // They joined races (watching: always there) and did not always win a seat there.
    const claimed = record.tasks.filter((t) => t.race?.attempts.some((a) => holds(pair, a.account)))
    expect(claimed.length).toBeGreaterThan(0)
    expect(claimed.some((t) => t.race?.holders.every((h) => !holds(pair, h)))).toBe(true)
  })

  it('copycat: outputs are sealed, so it finds only failure reports to copy and computes the rest', async () => {
    // Spaced arrivals: an input's first task is settled (its result handed in) before it comes again.
    const params = smallParams({ duplicateInputShare: 0.6, k2Share: 0, k3Share: 0, arrivalSpacingSec: 3000 })
    const { record, world } = await play(copycatStrategy, params)
    const copycat = world.cast.providers[0] as Address
    const own = record.tasks.filter((t) => t.delivered.has(copycat))
    expect(own.length).toBeGreaterThan(0)
    // Whatever it handed in is the right answer: a copied failure report, or its own run.
    for (const task of own) expect(task.delivered.get(copycat)).toBe(task.correct)
    // It ran every task whose right answer is an output: an output is encrypted to its client, never published.
    const outputs = own.filter((t) => !isFailure(t.correct))
    expect(outputs.length).toBeGreaterThan(0)
    const work = outputs.reduce((sum, t) => sum + t.runtimeSec, 0)
    expect(record.ledger.account(copycat).computeSec).toBeGreaterThanOrEqual(work)
  })

  it('claim-and-abandon: claims every single-replica task first, joins every seat race, never hands anything in and is slashed', async () => {
    const params = smallParams()
    const { record, world } = await play(claimAndAbandonStrategy, params)
    const griefer = world.cast.providers[0] as Address
    // Gated tasks ask for a record it never earns.
    for (const task of record.tasks.filter((t) => !t.gated)) {
      // First come on k = 1 (it watches and is never busy); a claim in every k > 1 task's race.
      if (task.replicas === 1) expect(task.everHeld.has(griefer)).toBe(true)
      else expect(task.race?.attempts.some((a) => same(a.account, griefer))).toBe(true)
    }
    expect(record.tasks.some((t) => t.delivered.has(griefer))).toBe(false)
    expect(record.ledger.account(griefer).staked).toBeLessThan(BigInt(params.providerStake) * 10n ** 18n)
  })

  it('reputation farmer: its 1-wei self-dealt tasks are paid but not counted; it reaches gated tasks only on a record of real work', async () => {
    // Few providers: each earns a record on the ungated tasks of the run.
    const params = smallParams({ tasks: 48, providers: 3, gatedShare: 0.4, k2Share: 0, k3Share: 0 })
    const { record, world } = await play(reputationFarmerStrategy, params)
    const farmer = world.cast.providers[0] as Address
    const floor = await reader(world).readContract({
      address: world.chain.contracts.providers,
      abi: providerRegistryAbi,
      functionName: 'minRecordPayment',
    })
    // A thousandth of the 100 GRID stake floor.
    expect(floor).toBe(10n ** 17n)
    const selfDealt = record.tasks.filter((t) => t.private)
    expect(selfDealt).toHaveLength(params.gateMinCompleted)
    for (const task of selfDealt) {
      expect(task.outcome?.status).toBe('Completed')
      const [paid] = await reader(world).getContractEvents({
        ...market(world),
        eventName: 'ReplicaPaid',
        args: { taskId: task.id },
        fromBlock: 0n,
      })
      expect(paid?.args.provider && same(paid.args.provider, farmer)).toBe(true)
      expect(paid?.args.payment).toBe(1n)
    }
    // A k = 1 result counts when it is submitted: once the farm's are in (before any other task of the run could
    // be done), its record is still empty — the old rule counted them all.
    const farmed = await farmResults(world, farmer, selfDealt)
    expect(farmed.others).toBe(0)
    const atFarm = await reputationAt(world, farmer, farmed.lastBlock)
    expect(atFarm.completed).toBe(0)
    // It claimed gated tasks only once its record passed the gate: real work, the farm counting for nothing.
    const gated = record.tasks.filter((t) => t.gated && t.everHeld.has(farmer))
    expect(gated.length).toBeGreaterThan(0)
    for (const task of gated) {
      const [claim] = await reader(world).getContractEvents({
        ...market(world),
        eventName: 'TaskClaimed',
        args: { taskId: task.id, provider: farmer },
        fromBlock: 0n,
      })
      const atClaim = await reputationAt(world, farmer, (claim?.blockNumber ?? 1n) - 1n)
      expect(atClaim.completed).toBeGreaterThanOrEqual(params.gateMinCompleted)
      if (task.delivered.has(farmer)) expect(task.delivered.get(farmer)).not.toBe(task.correct)
    }
  })

  it('reputation farmer: a farm paid minRecordPayment per task counts, and the farmer cheats on gated tasks from the start', async () => {
    const params = smallParams({ gatedShare: 0.5, k2Share: 0, k3Share: 0 })
    const world = await session.world(params)
    const deviation = reputationFarming(world.cast, 'record')
    const record = await runMarket(world, params, 5, deviation)
    const farmer = world.cast.providers[0] as Address
    const floor = await reader(world).readContract({
      address: world.chain.contracts.providers,
      abi: providerRegistryAbi,
      functionName: 'minRecordPayment',
    })
    const selfDealt = record.tasks.filter((t) => t.private)
    expect(selfDealt).toHaveLength(params.gateMinCompleted)
    for (const task of selfDealt) {
      expect(task.maxPayment).toBe(floor)
      expect(task.outcome?.status).toBe('Completed')
    }
    // The farm counts: the gate (5 completions, 90% success) passes before any real work.
    const farmed = await farmResults(world, farmer, selfDealt)
    expect(farmed.others).toBe(0)
    expect((await reputationAt(world, farmer, farmed.lastBlock)).completed).toBe(params.gateMinCompleted)
    const gated = record.tasks.filter((t) => t.gated && t.delivered.has(farmer))
    expect(gated.length).toBeGreaterThan(0)
    for (const task of gated) expect(task.delivered.get(farmer)).not.toBe(task.correct)
  })

  it('metering inflater: bills more than it used where nobody measures it, and loses its bond where an audit does', async () => {
    const params = smallParams({ meteredShare: 1, k2Share: 0, k3Share: 0 })
    const inflated = await play(meteringInflaterStrategy, params)
    const honest = await runMarket(inflated.world, params, 5, undefined)
    const inflater = inflated.world.cast.providers[0] as Address
    // Not drawn: the same work, a larger bill.
    const own = inflated.record.tasks.filter((t) => t.delivered.has(inflater))
    expect(own.some((t) => t.audit?.drawn === false)).toBe(true)
    expect(inflated.record.ledger.account(inflater).internal).toBeGreaterThan(
      honest.ledger.account(inflater).internal,
    )
    // Every audit: far beyond the tolerance, so round 1 escalates and the reruns' measure slashes the bond.
    const audited = await play(meteringInflaterStrategy, {
      ...params,
      auditBps: 10_000,
      onlineProbability: 1,
      arrivalSpacingSec: 3600,
    })
    const measured = audited.record.tasks.filter(
      (t) => t.delivered.has(inflater) && t.audit?.verdict === 'Upheld',
    )
    expect(measured.length).toBeGreaterThan(0)
    for (const task of measured) {
      expect(task.audit?.overstated?.bond).toBe(true)
      expect(task.audit?.overstated?.measuredSec).toBe(Math.min(task.runtimeSec, task.maxRuntimeSec))
    }
    expect(audited.record.ledger.account(inflater).staked).toBeLessThan(grid(params.providerStake))
  })

  it('metering skimmer: an audit confirms its 9% alone, and it forfeits the excess ÷ p', async () => {
    const params = smallParams({
      meteredShare: 1,
      k2Share: 0,
      k3Share: 0,
      auditBps: 10_000,
      onlineProbability: 1,
      arrivalSpacingSec: 3600,
    })
    const { record, world } = await play(meteringSkimmerStrategy, params)
    const skimmer = world.cast.providers[0] as Address
    const measured = record.tasks.filter((t) => t.delivered.has(skimmer) && t.audit?.verdict === 'Upheld')
    expect(measured.length).toBeGreaterThan(0)
    for (const task of measured) {
      const overstated = task.audit?.overstated
      expect(overstated?.bond).toBe(false)
      // Confirmed in round 1: one auditor, no escalation.
      expect(task.audit?.seats.size).toBe(1)
      // p = 1: the fine is the excess itself, so the skim is handed back whole.
      const excessSec = (overstated?.billedSec ?? 0) - (overstated?.measuredSec ?? 0)
      expect(excessSec).toBeGreaterThan(0)
      expect(overstated?.forfeit).toBe(BigInt(excessSec) * task.pricePerSecond)
    }
  })

  it('lazy auditor: reveals the seal it sees without re-running, never matches an output, and is outvoted', async () => {
    const params = smallParams({ k2Share: 0, k3Share: 0, auditBps: 10_000, onlineProbability: 0.5 })
    const { record, world } = await play(lazyAuditorStrategy, params)
    const auditor = world.cast.providers[0] as Address
    const seated = record.tasks.filter((t) => t.audit?.seats.has(auditor.toLowerCase() as Address))
    expect(seated.length).toBeGreaterThan(0)
    const outputs = seated.filter((t) => !isFailure(t.correct))
    expect(outputs.length).toBeGreaterThan(0)
    for (const task of seated) {
      const seat = task.audit?.seats.get(auditor.toLowerCase() as Address)
      // All it can read: the seal of its ResultSubmitted event (a failure report is its own seal, in the clear).
      expect(seat?.digest).toBe(task.audit?.resultDigest)
      if (isFailure(task.correct)) continue
      // Not the digest of the output, which is encrypted to the client: the market seals its reveal again.
      expect(seat?.digest).toBe(sealOf(task.id, task.correct))
      expect(task.outcome?.verdict).not.toBe('Overturned')
    }
    // Decided by other auditors, it is outvoted wherever the audit was decided: its collateral is slashed.
    const decided = outputs.filter((t) => t.outcome?.verdict === 'Upheld')
    expect(decided.length).toBeGreaterThan(0)
    expect(record.ledger.account(auditor).staked).toBeLessThan(grid(params.providerStake))
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

  it('vetoing client: its second account races for a seat of its two-replica tasks and, seated, reveals a different result; the dispute audits it', async () => {
    // A large stake: its ticket wins a seat of most of its tasks' races (it wins a seat as often as its stake lets it).
    const params = smallParams({ k2Share: 1, k3Share: 0, vetoerStake: 50_000 })
    const { record, world } = await play(vetoingClientStrategy, params)
    const client = world.cast.clients[0] as Address
    const vetoer = world.cast.spare[0] as Address
    // Gated tasks ask for a record it has not got.
    const mine = record.tasks.filter((t) => same(t.client, client) && !t.gated)
    // It claims in the race of every one of its tasks (it watches them and is never busy), and holds what its
    // ticket wins there.
    for (const task of mine) {
      expect(task.race?.attempts.some((a) => same(a.account, vetoer))).toBe(true)
      expect(sameSet(task.race?.holders ?? [], await raceWinners(world, task))).toBe(true)
    }
    const own = mine.filter((t) => t.race?.holders.some((h) => same(h, vetoer)) && t.delivered.size === 2)
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
