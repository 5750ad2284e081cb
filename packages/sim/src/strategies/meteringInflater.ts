import type { Address } from 'viem'
import { honestProvider } from './honestProvider.js'
import type { ProviderBehaviour, Strategy } from './types.js'

/** Seconds before a claim's due time at which the inflater hands in. */
const MARGIN_SEC = 5

/**
 * Metering inflater: runs metered tasks honestly but holds the result until just before the claim is due
 * and reports the whole window as runtime (the chain caps it at the time since the claim); honest on
 * fixed-price tasks. Where an audit measures the runtime, that is far beyond the tolerance: the audit escalates
 * and the bond is slashed.
 */
export function meteringInflater(): ProviderBehaviour {
  const honest = honestProvider()
  return {
    watches: () => false,
    wants: () => true,
    plan: (task, claim) => {
      if (!task.metered) return honest.plan(task, claim)
      const { busyFor } = honest.plan(task, claim)
      return { readyAfter: Math.max(busyFor, claim.dueAt - claim.claimedAt - MARGIN_SEC), busyFor }
    },
    deliver: (context) => {
      const delivery = honest.deliver(context)
      if (!context.task.metered || delivery.digest === undefined) return delivery
      return { ...delivery, runtimeSec: context.now + 1 - context.claimedAt }
    },
  }
}

export const meteringInflaterStrategy = {
  name: 'metering-inflater',
  role: 'provider',
  doc: 'Bills the whole claim window on metered tasks: hands in just before the due time with that runtime.',
  deviate: (cast) => {
    const account = cast.providers[0] as Address
    return { identity: [account], providers: new Map([[account, meteringInflater()]]) }
  },
} satisfies Strategy
