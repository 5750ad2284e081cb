import type { Hex } from 'viem'
import { type SimTask, UPLOAD_SEC } from '../market/engine.js'
import type { AuditorBehaviour, ProviderBehaviour } from './types.js'

type Work = Pick<SimTask, 'runtimeSec' | 'maxRuntimeSec'>

/** An honest run of `task`: the correct result, or nothing when the run hits the source's limit (killed there). */
function run(task: Work, correct: Hex) {
  return task.runtimeSec > task.maxRuntimeSec
    ? { digest: undefined, computeSec: task.maxRuntimeSec, runtimeSec: 0 }
    : { digest: correct, computeSec: task.runtimeSec, runtimeSec: task.runtimeSec }
}

/** Seconds an honest run of `task` keeps the GPU busy, and until it is handed in. */
function plan(task: Work) {
  const busy = Math.min(task.runtimeSec, task.maxRuntimeSec)
  return { readyAfter: busy + UPLOAD_SEC, busyFor: busy }
}

/**
 * Honest auditor: joins every audit it is eligible for when online and idle, re-runs the task once the
 * round's seats are final, and commits and reveals the result it computed.
 */
export function honestAuditor(): AuditorBehaviour {
  return {
    joins: () => true,
    plan,
    deliver: ({ task, correct }) => run(task, correct),
  }
}

/**
 * Honest provider: claims any task it is eligible for when online and idle, runs it, and hands in the
 * correct result with the runtime it measured; a run that hits the source's limit is killed there and
 * nothing is submitted (today's agent abandons it). It releases its held single-replica results as soon as
 * their audit draw can be made, and audits honestly (`honestAuditor`).
 */
export function honestProvider(): ProviderBehaviour {
  return {
    races: () => false,
    wants: () => true,
    plan,
    deliver: ({ task, correct }) => run(task, correct),
    auditor: honestAuditor(),
  }
}

export const honestProviderStrategy = {
  name: 'honest-provider',
  role: 'provider',
  doc: 'Claims what it is eligible for when online and idle, runs it and hands in the correct result.',
  deviate: (cast) => ({ identity: [cast.providers[0] as `0x${string}`] }),
} satisfies import('./types.js').Strategy
