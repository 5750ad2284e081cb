import { gridTokenAbi, leaseMarketAbi, stakingAbi } from '@gridforge/contracts'
import { type Address, createPublicClient, custom } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Session } from '../src/experiment.js'
import { leaseWealth } from '../src/leases/books.js'
import { checkAgainstModel, runLeaseExperiment } from '../src/leases/experiment.js'
import { defaultLeaseSimParams } from '../src/leases/params.js'
import { leasePayoff } from '../src/leases/payoff.js'
import { runLeases } from '../src/leases/run.js'
import { leaseStrategies } from '../src/leases/strategies.js'
import type { World } from '../src/market/world.js'
import { openSession, smallParams } from './setup.js'

let session: Session
let world: World
const params = smallParams()
const leaseParams = { ...defaultLeaseSimParams, leases: 8 }
beforeAll(async () => {
  session = await openSession()
  world = await session.world(params)
})
afterAll(() => session?.close())

describe('the lease books', () => {
  it.each(leaseStrategies.filter((s) => s.deviation.provider ?? s.deviation.renter))(
    'equal the chain to the wei, and the chain settles every lease as its timeline said: $name',
    async (strategy) => {
      const record = await runLeases(world, leaseParams, 2, strategy.deviation)
      expect(() => checkAgainstModel(record)).not.toThrow()
      expect(record.books.leases().every(([, lease]) => lease.reason !== undefined)).toBe(true)
      const client = createPublicClient({ transport: custom(world.chain.provider) })
      const { token, staking, leases } = world.chain.contracts
      for (const account of [...record.renters, ...record.providers, leases] as Address[]) {
        const books = record.books.account(account)
        const [wallet, balance, stake] = await Promise.all([
          client.readContract({
            address: token,
            abi: gridTokenAbi,
            functionName: 'balanceOf',
            args: [account],
          }),
          client.readContract({
            address: leases,
            abi: leaseMarketAbi,
            functionName: 'balanceOf',
            args: [account],
          }),
          client.readContract({
            address: staking,
            abi: stakingAbi,
            functionName: 'stakeOf',
            args: [account],
          }),
        ])
        expect({
          wallet: books.wallet,
          leaseBalance: books.leaseBalance,
          staked: books.staked,
          locked: books.locked,
        }).toEqual({ wallet, leaseBalance: balance, staked: stake.staked, locked: stake.locked })
      }
      // What left the renters went to the providers (less fees), back to the renters, or to the treasury as fees.
      const fees = record.books.leases().reduce((sum, [, lease]) => sum + lease.fees, 0n)
      const accrued = await client.readContract({
        address: leases,
        abi: leaseMarketAbi,
        functionName: 'feesAccrued',
      })
      expect(fees).toBe(accrued)
      const change = [...record.renters, ...record.providers].reduce(
        (sum, account) =>
          sum +
          leaseWealth(record.books.account(account)) -
          (record.opening.get(account.toLowerCase() as Address) ?? 0n),
        0n,
      )
      expect(change).toBe(-fees)
    },
  )
})

describe('lease payoffs', () => {
  it('count the renter’s value of service and the provider’s running cost of it', async () => {
    const record = await runLeases(world, leaseParams, 4)
    const lease = record.leases[0]
    if (lease === undefined) throw new Error('no lease')
    const renter = leasePayoff(record, lease.renter, leaseParams, params)
    const provider = leasePayoff(record, lease.provider, leaseParams, params)
    const served = (account: Address, side: 'renter' | 'provider') =>
      record.leases
        .filter((l) => l[side] === account)
        .reduce((sum, l) => sum + l.terms.pricePerSec * l.timeline.servedSec, 0)
    expect(renter.value).toBeCloseTo(leaseParams.valueMultiple * served(lease.renter, 'renter'), 9)
    expect(provider.runningCost).toBeCloseTo(leaseParams.costFraction * served(lease.provider, 'provider'), 9)
    expect(renter.gas).toBeGreaterThan(0)
    expect(renter.total).toBeCloseTo(renter.holdings + renter.value - renter.runningCost - renter.gas, 9)
  })

  it('give the honest strategies exactly zero and no strategy a gain beyond its bound', async () => {
    const result = await runLeaseExperiment({
      world,
      params: leaseParams,
      gas: params,
      seeds: [1, 2, 3],
      strategies: leaseStrategies,
    })
    for (const outcome of result.outcomes) {
      if (
        outcome.strategy.deviation.provider === undefined &&
        outcome.strategy.deviation.renter === undefined
      ) {
        expect(outcome.row.profitVsHonest).toBe(0)
      }
      expect(outcome.beyondBound).toBe(false)
    }
    const byName = Object.fromEntries(result.outcomes.map((o) => [o.strategy.name, o]))
    expect(byName['offline-provider']?.measures.penalties).toBeGreaterThan(0)
    expect(byName['offline-provider']?.row.profitVsHonest).toBeLessThan(0)
    expect(byName['reporting-renter']?.measures.reports_answered).toBe(
      byName['reporting-renter']?.measures.reports,
    )
    expect(byName['underreporting-renter']?.measures.end_RenterSilent).toBeGreaterThan(0)
    expect(byName['last-period-renter']?.measures.served_unpaid_sec).toBeGreaterThan(0)
  })

  it('flag the last-period renter as beating honest without the bound the gateway sets it: the check can fail', async () => {
    const lastPeriod = leaseStrategies.find((s) => s.name === 'last-period-renter')
    if (lastPeriod === undefined) throw new Error('no last-period renter')
    const result = await runLeaseExperiment({
      world,
      params: defaultLeaseSimParams,
      gas: params,
      seeds: [1, 2, 3, 4, 5],
      strategies: [{ ...lastPeriod, boundSec: undefined }],
    })
    const [outcome] = result.outcomes
    expect(outcome?.row.beatsHonest).toBe(true)
    expect(outcome?.beyondBound).toBe(true)
  })
})
