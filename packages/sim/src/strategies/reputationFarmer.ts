import type { Address } from 'viem'
import { type Engine, type SimTask, simTask } from '../market/engine.js'
import { honestProvider } from './honestProvider.js'
import type { ProviderBehaviour, Strategy } from './types.js'
import { garbage, NO_WORK_SEC } from './work.js'

/**
 * Reputation farmer: before the market opens, its own client account submits tiny self-dealt tasks (1 wei,
 * no fee, no collateral) that it claims and completes, until it passes the reputation gates of valuable
 * tasks; then it races for the gated tasks and hands in garbage on the single-replica ones, honest elsewhere.
 */
export function reputationFarmer(account: Address): ProviderBehaviour {
  const honest = honestProvider()
  // Garbage only where no other replica can contradict it.
  const cheats = (task: SimTask) => task.gated && task.replicas === 1
  return {
    races: (task) => task.private || task.gated,
    wants: () => true,
    plan: (task, claim) =>
      task.private || cheats(task) ? { readyAfter: NO_WORK_SEC, busyFor: 0 } : honest.plan(task, claim),
    deliver: (context) => {
      const { task } = context
      if (task.private) return { digest: context.correct, computeSec: 0, runtimeSec: 0 }
      if (cheats(task))
        return { digest: garbage('farmer', task.id, account), computeSec: 0, runtimeSec: task.runtimeSec }
      return honest.deliver(context)
    },
  }
}

/** Submits `count` 1-wei tasks from `client` that only the farmer takes. */
async function farm(engine: Engine, client: Address, count: number) {
  const tasks: SimTask[] = Array.from({ length: count }, (_, i) =>
    simTask({
      index: -1 - i,
      client,
      arrival: engine.now,
      replicas: 1,
      metered: false,
      gated: false,
      runtimeSec: 1,
      maxRuntimeSec: engine.params.sourceMaxRuntimeSec,
      maxPayment: 1n,
      pricePerSecond: 0n,
      deadlineAfter: 2 * 86_400,
      minCompleted: 0,
      minSuccessBps: 0,
      inputKey: `farm-${i}`,
      correct: garbage('farm', BigInt(i)),
      private: true,
    }),
  )
  for (const task of tasks) await engine.submit(client, [task])
}

export const reputationFarmerStrategy = {
  name: 'reputation-farmer',
  role: 'provider',
  doc: 'Farms the reputation gate with self-dealt 1-wei tasks, then hands in garbage on gated single-replica tasks.',
  deviate: (cast) => {
    const account = cast.providers[0] as Address
    const client = cast.spare[0] as Address
    return {
      identity: [account, client],
      providers: new Map([[account, reputationFarmer(account)]]),
      prepare: (engine) => farm(engine, client, engine.params.gateMinCompleted),
    }
  },
} satisfies Strategy
