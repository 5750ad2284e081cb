/**
 * Runs one market from a world's snapshot and prices what each participant ended with.
 */
import { gridTokenAbi, stakingAbi, taskMarketAbi } from '@gridforge/contracts'
import type { Address } from 'viem'
import type { SimParams } from '../params.js'
import { openingWealth } from '../payoff.js'
import { honestClient } from '../strategies/honestClient.js'
import { honestProvider } from '../strategies/honestProvider.js'
import type { ClientBehaviour, Deviation, ProviderBehaviour } from '../strategies/types.js'
import { grid } from '../units.js'
import { Engine, type RunRecord } from './engine.js'
import { drawWorkload } from './workload.js'
import type { World } from './world.js'

/** What everybody is when no strategy says otherwise; a test swaps in a broken honest provider. */
export interface HonestBehaviours {
  provider: () => ProviderBehaviour
  client: () => ClientBehaviour
}

export const honestBehaviours: HonestBehaviours = { provider: honestProvider, client: honestClient }

/** Seconds after the last possible settlement at which a run's books close (unbonding can finish). */
const SETTLE_MARGIN = 3600
/** Most rounds an audit has (1 auditor, then 2, 2 and 1 more). */
const AUDIT_ROUNDS = 4

/** Runs the world's market with `deviation` applied (or everybody honest) and returns the books. */
export async function runMarket(
  world: World,
  params: SimParams,
  seed: number,
  deviation: Deviation | undefined,
  honest: HonestBehaviours = honestBehaviours,
): Promise<RunRecord> {
  const { chain, cast } = world
  await chain.revert(world.snapshot)
  world.snapshot = await chain.snapshot()
  const block = await chain.provider.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })
  const engine = new Engine(world, params, seed, Number(block?.timestamp ?? 0))
  await openBooks(engine, [...cast.providers, ...cast.clients, ...cast.spare])
  const opening = openingWealth(engine.ledger)
  await writeProtocolParams(engine)

  engine.defaultAuditor = honest.provider().auditor
  for (const provider of cast.providers) engine.providers.set(provider, honest.provider())
  for (const client of cast.clients) engine.clients.set(client, honest.client())
  for (const [account, behaviour] of deviation?.providers ?? []) engine.providers.set(account, behaviour)
  if (deviation?.client !== undefined)
    engine.clients.set(deviation.client.account, deviation.client.behaviour)
  await deviation?.prepare?.(engine)

  const workload = drawWorkload(params, seed, cast.clients, engine.now)
  engine.scheduleWorkload(workload)
  const lastArrival = workload.at(-1)?.arrival ?? engine.now
  const unbonding = Number(
    await engine.tx.public.readContract({
      address: engine.contracts.staking,
      abi: stakingAbi,
      functionName: 'unbondingPeriod',
    }),
  )
  // A result handed in by the deadline may be audited in up to 4 rounds.
  const audits =
    AUDIT_ROUNDS *
    (params.auditJoinWindow + params.sourceMaxRuntimeSec + params.claimGrace + params.revealWindow)
  const endTime = lastArrival + params.deadlineSec + params.revealWindow + audits + unbonding + SETTLE_MARGIN
  await engine.drain(endTime)
  await engine.tx.mineAt(endTime)
  engine.ledger.close()
  await claimRewards(engine, [...cast.providers, ...cast.clients, ...cast.spare])

  const prices = workload.map((task) => Number(task.maxPayment) / 1e18)
  return {
    ledger: engine.ledger,
    opening,
    tasks: engine.tasks,
    transactions: engine.tx.transactions,
    meanPrice: prices.reduce((a, b) => a + b, 0) / Math.max(1, prices.length),
    participation: engine.participation,
  }
}

async function openBooks(engine: Engine, accounts: readonly Address[]) {
  const { token, market, staking } = engine.contracts
  // The contracts' own GRID: the books follow it too, so that a test can check escrow and stake in total.
  for (const holder of [market, staking]) {
    const wallet = await engine.tx.public.readContract({
      address: token,
      abi: gridTokenAbi,
      functionName: 'balanceOf',
      args: [holder],
    })
    engine.ledger.open(holder, { wallet, internal: 0n, staked: 0n, locked: 0n, unbonding: 0n })
  }
  for (const account of accounts) {
    const [wallet, internal, stake] = await Promise.all([
      engine.tx.public.readContract({
        address: token,
        abi: gridTokenAbi,
        functionName: 'balanceOf',
        args: [account],
      }),
      engine.tx.public.readContract({
        address: market,
        abi: taskMarketAbi,
        functionName: 'balanceOf',
        args: [account],
      }),
      engine.tx.public.readContract({
        address: staking,
        abi: stakingAbi,
        functionName: 'stakeOf',
        args: [account],
      }),
    ])
    engine.ledger.open(account, {
      wallet,
      internal,
      staked: stake.staked,
      locked: stake.locked,
      unbonding: stake.unbonding,
    })
  }
}

/** The protocol's parameters of this run, written by the owner before anything else happens. */
async function writeProtocolParams(engine: Engine) {
  const { params, world } = engine
  await engine.send(world.owner, engine.now + 1, {
    address: engine.contracts.market,
    abi: taskMarketAbi,
    functionName: 'setParams',
    args: [
      {
        protocolFeeBps: params.protocolFeeBps,
        stakerShareBps: params.stakerShareBps,
        collateralBps: params.collateralBps,
        slashToClientBps: params.slashToClientBps,
        revealWindow: params.revealWindow,
        claimGrace: params.claimGrace,
        minCollateral: grid(params.minCollateral),
        auditBps: params.auditBps,
        auditJoinWindow: params.auditJoinWindow,
      },
    ],
  })
  await engine.send(world.owner, engine.now + 1, {
    address: engine.contracts.staking,
    abi: stakingAbi,
    functionName: 'setDiscountTiers',
    args: [
      params.discountTierBps === 0
        ? []
        : [{ minStake: grid(params.discountTierStake), discountBps: params.discountTierBps }],
    ],
  })
}

/** Every staker takes its share of protocol fees at the end, so rewards are part of its payoff. */
async function claimRewards(engine: Engine, accounts: readonly Address[]) {
  for (const account of accounts) {
    const earned = await engine.tx.public.readContract({
      address: engine.contracts.staking,
      abi: stakingAbi,
      functionName: 'earned',
      args: [account],
    })
    if (earned === 0n) continue
    await engine.send(account, engine.now + 1, {
      address: engine.contracts.staking,
      abi: stakingAbi,
      functionName: 'claimRewards',
      args: [],
    })
  }
}
