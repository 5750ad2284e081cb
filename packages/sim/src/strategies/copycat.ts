import type { Address } from 'viem'
import { honestProvider } from './honestProvider.js'
import type { ProviderBehaviour, Strategy } from './types.js'
import { NO_WORK_SEC } from './work.js'

/**
 * Copycat: hands in a result another provider already published for the same input (a revealed digest or
 * a submitted result) without running the task; computes honestly when there is nothing to copy. Within a
 * task it cannot copy: commitments bind the sender and reveals open only after every replica committed.
 */
export function copycat(): ProviderBehaviour {
  const honest = honestProvider()
  return {
    watches: () => false,
    wants: () => true,
    plan: (task, claim) =>
      claim.publicResult !== undefined ? { readyAfter: NO_WORK_SEC, busyFor: 0 } : honest.plan(task, claim),
    deliver: (context) =>
      context.publicResult !== undefined
        ? { digest: context.publicResult, computeSec: 0, runtimeSec: context.task.runtimeSec }
        : honest.deliver(context),
  }
}

export const copycatStrategy = {
  name: 'copycat',
  role: 'provider',
  doc: 'Copies a result already published for the same input instead of computing; computes otherwise.',
  deviate: (cast) => {
    const account = cast.providers[0] as Address
    return { identity: [account], providers: new Map([[account, copycat()]]) }
  },
} satisfies Strategy
