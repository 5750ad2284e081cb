import type { Address } from 'viem'
import { type RunRecord, same } from '../market/engine.js'
import { honestProvider } from './honestProvider.js'
import type { ProviderBehaviour, Strategy } from './types.js'
import { garbage, NO_WORK_SEC } from './work.js'

/**
 * Lazy provider: claims like an honest one; where no other replica can contradict it (k = 1) it never
 * runs the workload and hands in garbage at once — an audit, drawn with probability auditBps, may overturn
 * it; on consensus tasks, where garbage is outvoted, it works.
 */
export function lazyProvider(account: Address): ProviderBehaviour {
  const honest = honestProvider()
  return {
    watches: () => false,
    wants: () => true,
    plan: (task, claim) =>
      task.replicas === 1 ? { readyAfter: NO_WORK_SEC, busyFor: 0 } : honest.plan(task, claim),
    deliver: (context) =>
      context.task.replicas === 1
        ? {
            digest: garbage('lazy', context.task.id, account),
            computeSec: 0,
            runtimeSec: context.task.runtimeSec,
          }
        : honest.deliver(context),
  }
}

export const lazyProviderStrategy = {
  name: 'lazy-provider',
  role: 'provider',
  doc: 'Hands in garbage without computing wherever no replica can contradict it (k = 1).',
  deviate: (cast) => {
    const account = cast.providers[0] as Address
    return { identity: [account], providers: new Map([[account, lazyProvider(account)]]) }
  },
  measure: (record, deviation) => lazyResults(record, deviation.identity[0] as Address),
} satisfies Strategy

/** The lazy provider's held (single-replica) results in a run, and what their audits did. */
export function lazyResults(record: RunRecord, account: Address) {
  const held = record.tasks.filter((t) => t.audit !== undefined && same(t.audit.provider, account))
  const verdict = (name: string) => held.filter((t) => t.audit?.verdict === name).length
  return {
    held: held.length,
    audited: held.filter((t) => t.audit?.drawn === true).length,
    overturned: verdict('Overturned'),
    lapsed: verdict('Lapsed'),
  }
}
