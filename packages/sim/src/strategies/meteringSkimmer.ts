import type { Address } from 'viem'
import { honestProvider } from './honestProvider.js'
import type { ProviderBehaviour, Strategy } from './types.js'

/**
 * How much more runtime the skimmer bills than it used: just inside the 10% tolerance within which an audit
 * confirms a billed runtime alone (TaskMarketBase's RUNTIME_TOLERANCE_BPS).
 */
const SKIM = 0.09

/**
 * Metering skimmer: runs metered tasks honestly and bills 9% more runtime than it used — too little for an
 * audit to escalate. Where an audit measures it, it forfeits the excess ÷ the audit probability, so in
 * expectation the skim earns nothing. Honest on fixed-price tasks.
 */
export function meteringSkimmer(): ProviderBehaviour {
  const honest = honestProvider()
  return {
    watches: () => false,
    wants: () => true,
    plan: (task, claim) => {
      const plan = honest.plan(task, claim)
      if (!task.metered) return plan
      // The chain caps the runtime at the time since the claim: hand in no earlier than the billed runtime.
      return { ...plan, readyAfter: Math.max(plan.readyAfter, Math.ceil(plan.busyFor * (1 + SKIM)) + 1) }
    },
    deliver: (context) => {
      const delivery = honest.deliver(context)
      if (!context.task.metered || delivery.digest === undefined) return delivery
      return { ...delivery, runtimeSec: Math.floor(delivery.runtimeSec * (1 + SKIM)) }
    },
  }
}

export const meteringSkimmerStrategy = {
  name: 'metering-skimmer',
  role: 'provider',
  doc: 'Bills 9% more runtime than it used on metered tasks: inside the tolerance within which one auditor confirms it.',
  deviate: (cast) => {
    const account = cast.providers[0] as Address
    return { identity: [account], providers: new Map([[account, meteringSkimmer()]]) }
  },
} satisfies Strategy
