import { providerRegistryAbi } from '@gridforge/contracts'
import type { Address } from 'viem'
import { type Engine, type SimTask, simTask } from '../market/engine.js'
import { honestProvider } from './honestProvider.js'
import type { Deviation, ProviderBehaviour, Strategy } from './types.js'
import { garbage, NO_WORK_SEC } from './work.js'

/**
 * Reputation farmer: before the market opens, its own client account submits tiny self-dealt tasks (1 wei,
 * no fee, no collateral) that it claims and completes, hoping to pass the reputation gates of valuable tasks;
 * it watches the gated tasks and hands in garbage on the single-replica ones, honest elsewhere.
 *
 * The farm no longer passes the gate: a completion counts in the record only when its payment reaches
 * `ProviderRegistry.minRecordPayment` (a thousandth of the stake floor by default: 0.1 GRID with the 100 GRID
 * floor), so its 1-wei tasks are completed and paid but count for nothing, and the farmer reaches the gated
 * tasks only once its honest work elsewhere has earned the record — then it cheats there. Farming at
 * minRecordPayment would pass the gate (`farmPayment: 'record'`, a test plays it): each counted completion costs
 * the protocol fee on 0.1 GRID (0.005 GRID at 5%), the auditor's payment when an audit is drawn (0.1 GRID at
 * auditBps = 10%: 0.01 GRID expected) and the gas of its transactions (submit, claim, submit the result,
 * release: about 415,000 gas, 0.12 GRID at 0.1 gwei and 3000 GRID per ETH) — some 0.7 GRID for the gate's 5
 * completions, against 0.56 GRID of gas for the 1-wei farm: the floor adds some 0.15 GRID, and the record
 * still costs a fraction of one gated task's price in the simulated workload (4 × 3 GRID per GPU-hour: 2.4 to
 * 9.6 GRID). What stops the farmer's garbage is the audit of its results, not the price of the record.
 */
export function reputationFarmer(account: Address): ProviderBehaviour {
  const honest = honestProvider()
  // Garbage only where no other replica can contradict it.
  const cheats = (task: SimTask) => task.gated && task.replicas === 1
  return {
    watches: (task) => task.private || task.gated,
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

/** Submits `count` self-dealt tasks of `payment` wei each from `client`, which only the farmer takes. */
async function farm(engine: Engine, client: Address, count: number, payment: bigint) {
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
      maxPayment: payment,
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

/**
 * The farmer (first provider) and its client account (first spare account), farming `gateMinCompleted`
 * self-dealt tasks paid `farmPayment`: 1 wei (`dust`, the strategy) or the registry's minRecordPayment
 * (`record`, what passing the gate by farming takes).
 */
export function reputationFarming(
  cast: { providers: readonly Address[]; spare: readonly Address[] },
  farmPayment: 'dust' | 'record' = 'dust',
): Deviation {
  const account = cast.providers[0] as Address
  const client = cast.spare[0] as Address
  return {
    identity: [account, client],
    providers: new Map([[account, reputationFarmer(account)]]),
    prepare: async (engine) => {
      const payment =
        farmPayment === 'dust'
          ? 1n
          : await engine.tx.public.readContract({
              address: engine.contracts.providers,
              abi: providerRegistryAbi,
              functionName: 'minRecordPayment',
            })
      await farm(engine, client, engine.params.gateMinCompleted, payment)
    },
  }
}

export const reputationFarmerStrategy = {
  name: 'reputation-farmer',
  role: 'provider',
  doc: 'Farms self-dealt 1-wei tasks (below minRecordPayment: they do not count), hands in garbage on gated single-replica tasks.',
  deviate: (cast) => reputationFarming(cast),
} satisfies Strategy
