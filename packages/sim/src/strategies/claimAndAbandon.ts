import type { Address } from 'viem'
import type { ProviderBehaviour, Strategy } from './types.js'

/**
 * Claim-and-abandon griefer: watches the market, claims every single-replica task it can before its
 * competitors (first come) and joins every seat race of a k > 1 task (where its ticket wins a seat as often as
 * its stake lets it), and lets the claims lapse without running anything, so that the work (and the client)
 * waits; it does not come back to a task it abandoned.
 */
export function claimAndAbandon(): ProviderBehaviour {
  return {
    watches: () => true,
    wants: (task) => !task.private,
    plan: (task) => ({ readyAfter: task.deadlineAfter * 10, busyFor: 0 }),
    deliver: () => ({ digest: undefined, computeSec: 0, runtimeSec: 0 }),
  }
}

export const claimAndAbandonStrategy = {
  name: 'claim-and-abandon',
  role: 'provider',
  doc: "Claims competitors' tasks (first on k = 1, in every seat race on k > 1) and lets the claims lapse.",
  deviate: (cast) => {
    const account = cast.providers[0] as Address
    const abandoned = new Set<bigint>()
    const base = claimAndAbandon()
    const behaviour: ProviderBehaviour = {
      ...base,
      wants: (task) => base.wants(task) && !abandoned.has(task.id),
      plan: (task, claim) => {
        abandoned.add(task.id)
        return base.plan(task, claim)
      },
    }
    return { identity: [account], providers: new Map([[account, behaviour]]) }
  },
} satisfies Strategy
