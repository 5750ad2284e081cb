import { UPLOAD_SEC } from '../market/engine.js'
import type { ProviderBehaviour } from './types.js'

/**
 * Honest provider: claims any task it is eligible for when online and idle, runs it, and hands in the
 * correct result with the runtime it measured; a run that hits the source's limit is killed there and
 * nothing is submitted (today's agent abandons it).
 */
export function honestProvider(): ProviderBehaviour {
  return {
    races: () => false,
    wants: () => true,
    plan: (task) => {
      const run = Math.min(task.runtimeSec, task.maxRuntimeSec)
      return { readyAfter: run + UPLOAD_SEC, busyFor: run }
    },
    deliver: ({ task, correct }) =>
      task.runtimeSec > task.maxRuntimeSec
        ? { digest: undefined, computeSec: task.maxRuntimeSec, runtimeSec: 0 }
        : { digest: correct, computeSec: task.runtimeSec, runtimeSec: task.runtimeSec },
  }
}

export const honestProviderStrategy = {
  name: 'honest-provider',
  role: 'provider',
  doc: 'Claims what it is eligible for when online and idle, runs it and hands in the correct result.',
  deviate: (cast) => ({ identity: [cast.providers[0] as `0x${string}`] }),
} satisfies import('./types.js').Strategy
