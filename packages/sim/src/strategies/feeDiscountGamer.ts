import { stakingAbi } from '@gridforge/contracts'
import { type Address, parseEventLogs } from 'viem'
import type { Engine } from '../market/engine.js'
import { grid } from '../units.js'
import type { ClientBehaviour, Strategy } from './types.js'

async function stakeTier(engine: Engine, client: Address) {
  await engine.send(client, engine.now + 1, {
    address: engine.contracts.staking,
    abi: stakingAbi,
    functionName: 'stake',
    args: [grid(engine.params.discountTierStake)],
  })
}

/**
 * Requests unbonding of the tier's stake now and withdraws it when the unbonding period ends. With `tryEarly`,
 * the request may be refused — Staking keeps the stake a discount was priced with until the discounted tasks
 * settle (StakingBelowFloor) — and then answers false.
 */
async function leave(engine: Engine, client: Address, tryEarly = false): Promise<boolean> {
  const call = {
    address: engine.contracts.staking,
    abi: stakingAbi,
    functionName: 'requestUnbond',
    args: [grid(engine.params.discountTierStake)],
  } as const
  const receipt = tryEarly
    ? await engine.tx.attempt(client, engine.now + 1, call, ['StakingBelowFloor'])
    : await engine.send(client, engine.now + 1, call)
  if (receipt === undefined) return false
  const [requested] = parseEventLogs({ abi: stakingAbi, logs: receipt.logs, eventName: 'UnbondRequested' })
  if (requested === undefined) throw new Error('sim: requestUnbond emitted no UnbondRequested')
  engine.schedule(requested.args.readyAt + 1, async () => {
    await engine.send(client, engine.now + 1, {
      address: engine.contracts.staking,
      abi: stakingAbi,
      functionName: 'withdrawUnbonded',
      args: [],
    })
  })
  return true
}

/**
 * Honest staking client (a baseline, not in the table): stakes the discount tier's minimum, submits its
 * workload in one batch, and keeps the stake until every task of it has settled.
 */
export function honestStaker(client: Address): ClientBehaviour {
  let live = 0
  return {
    batches: true,
    beforeSubmit: (engine) => stakeTier(engine, client),
    afterSubmit: async (_engine, tasks) => {
      live += tasks.length
    },
    afterSettle: async (engine) => {
      if (--live === 0) await leave(engine, client)
    },
  }
}

/**
 * Fee-discount gamer: stakes the discount tier's minimum, submits its workload in one batch, and requests
 * unbonding in the next block; its tasks settle later with the discount all the same. Where the chain
 * refuses the early unbonding (the discount pins the stake until the tasks settle), it pays the gas of the
 * refused request and unbonds once the last task settled, like an honest staker.
 */
export function feeDiscountGamer(client: Address): ClientBehaviour {
  let live = 0
  let left = false
  return {
    batches: true,
    beforeSubmit: (engine) => stakeTier(engine, client),
    afterSubmit: async (engine, tasks) => {
      live += tasks.length
      left = await leave(engine, client, true)
    },
    afterSettle: async (engine) => {
      if (--live === 0 && !left) await leave(engine, client)
    },
  }
}

export const honestStakerBaseline = {
  name: 'honest-staker',
  role: 'client',
  doc: 'Stakes for the discount tier, submits its workload in a batch and keeps the stake until it settles.',
  deviate: (cast) => {
    const client = cast.clients[0] as Address
    return { identity: [client], client: { account: client, behaviour: honestStaker(client) } }
  },
} satisfies Strategy

export const feeDiscountGamerStrategy = {
  name: 'fee-discount-gamer',
  role: 'client',
  doc: 'Stakes for the discount tier, submits, and unbonds at once; its tasks still settle with the discount.',
  baseline: 'honest-staker',
  deviate: (cast) => {
    const client = cast.clients[0] as Address
    return { identity: [client], client: { account: client, behaviour: feeDiscountGamer(client) } }
  },
} satisfies Strategy
