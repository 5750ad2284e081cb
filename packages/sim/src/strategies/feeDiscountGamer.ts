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

/** Requests unbonding of the tier's stake now and withdraws it when the unbonding period ends. */
async function leave(engine: Engine, client: Address) {
  const receipt = await engine.send(client, engine.now + 1, {
    address: engine.contracts.staking,
    abi: stakingAbi,
    functionName: 'requestUnbond',
    args: [grid(engine.params.discountTierStake)],
  })
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
 * unbonding in the next block; its tasks settle later with the discount all the same.
 */
export function feeDiscountGamer(client: Address): ClientBehaviour {
  return {
    batches: true,
    beforeSubmit: (engine) => stakeTier(engine, client),
    afterSubmit: (engine) => leave(engine, client),
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
