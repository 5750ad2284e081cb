import type { Address } from 'viem'
import type { RunRecord, SimTask } from '../market/engine.js'
import { FailureKind, failureDigest } from '../market/results.js'
import { honestProvider, honestResult } from './honestProvider.js'
import type { ProviderBehaviour, Strategy } from './types.js'
import { NO_WORK_SEC } from './work.js'

/** What the failure liar hands in: the workload "exited with code 1". */
export const LIE = failureDigest(FailureKind.Exited, 1)

/** Where the failure liar lies: fixed-price single-replica tasks (of the simulated, deterministic source). */
export function liesOn(task: Pick<SimTask, 'metered' | 'replicas'>): boolean {
  return !task.metered && task.replicas === 1
}

/**
 * Failure liar: claims like an honest provider; on fixed-price single-replica tasks of the deterministic
 * source it never runs the workload and at once hands in an `exited(1)` failure report — paid the source's
 * failure fee (`failureFeeBps` of the price) for no GPU time, its GPU free for the next claim, and a failed run
 * does not count against its success rate. An audit, drawn with probability auditBps, re-runs the task: the
 * run succeeds, the report is overturned and its collateral slashed. Honest on metered tasks (a failure is paid
 * the runtime it used) and on consensus tasks (the other replicas' outputs outvote a lone failure).
 */
export function failureLiar(): ProviderBehaviour {
  const honest = honestProvider()
  return {
    watches: () => false,
    wants: () => true,
    plan: (task, claim) =>
      liesOn(task) ? { readyAfter: NO_WORK_SEC, busyFor: 0 } : honest.plan(task, claim),
    deliver: (context) =>
      liesOn(context.task) ? { digest: LIE, computeSec: 0, runtimeSec: 1 } : honest.deliver(context),
  }
}

export const failureLiarStrategy = {
  name: 'failure-liar',
  role: 'provider',
  doc: 'Reports an instant exited(1) failure on fixed-price k = 1 tasks without computing: collects the failure fee.',
  deviate: (cast) => {
    const account = cast.providers[0] as Address
    return { identity: [account], providers: new Map([[account, failureLiar()]]) }
  },
  measure: (record, deviation) => failureLies(record, deviation.identity[0] as Address),
} satisfies Strategy

/** The failure liar's lies in a run (failure reports of runs that would have succeeded), and their audits. */
export function failureLies(record: RunRecord, account: Address) {
  const lies = record.tasks.filter(
    (t) => t.delivered.get(account) === LIE && honestResult(t, t.correct) !== LIE,
  )
  return {
    lies: lies.length,
    audited: lies.filter((t) => t.audit?.drawn === true).length,
    overturned: lies.filter((t) => t.audit?.verdict === 'Overturned').length,
  }
}
