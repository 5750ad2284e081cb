import type { Hex } from 'viem'
import { type SimTask, UPLOAD_SEC } from '../market/engine.js'
import { FailureKind, failureDigest } from '../market/results.js'
import type { AuditorBehaviour, ProviderBehaviour } from './types.js'

type Work = Pick<SimTask, 'runtimeSec' | 'maxRuntimeSec'>

/**
 * What an honest run of `task` hands in: the correct output's digest, or — when the run is still going at the
 * source's runtime limit, where it is killed — the timeout's failure report (`TimedOut`), which the chain takes
 * once the limit has passed since the claim. Every honest run of the task finds the same.
 */
export function honestResult(task: Work, correct: Hex): Hex {
  return task.runtimeSec > task.maxRuntimeSec ? failureDigest(FailureKind.TimedOut) : correct
}

/** An honest run of `task`: its result, the GPU time it took (until the kill at the limit) and that runtime. */
function run(task: Work, correct: Hex) {
  const runtime = Math.min(task.runtimeSec, task.maxRuntimeSec)
  return { digest: honestResult(task, correct), computeSec: runtime, runtimeSec: runtime }
}

/** Seconds an honest run of `task` keeps the GPU busy, and until it is handed in. */
function plan(task: Work) {
  const busy = Math.min(task.runtimeSec, task.maxRuntimeSec)
  return { readyAfter: busy + UPLOAD_SEC, busyFor: busy }
}

/**
 * Honest auditor: joins every audit it is eligible for when online and idle, re-runs the task once the
 * round's seats are final, and commits and reveals the result it computed — the same failure report where the
 * run fails.
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
 * correct result with the runtime it measured; a run that hits the source's limit is killed there and handed
 * in as a timeout (the `TimedOut` failure report, the limit as its runtime): paid the source's failure terms,
 * never slashed. It releases its held single-replica results as soon as their audit draw can be made, and
 * audits honestly (`honestAuditor`).
 */
export function honestProvider(): ProviderBehaviour {
  return {
    watches: () => false,
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
