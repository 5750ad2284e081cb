import type { Address, Hex } from 'viem'
import { type RunRecord, same } from '../market/engine.js'
import { honestAuditor, honestProvider } from './honestProvider.js'
import type { AuditorBehaviour, Strategy } from './types.js'

/**
 * Lazy auditor: joins every audit it is eligible for — busy or not, it does not need its GPU — and, without
 * re-running the task, commits to and reveals the result under audit as it can read it: the resultDigest of the
 * provider's ResultSubmitted event — in a dispute, the result most replicas revealed. Results are sealed (the
 * output is encrypted to the client; the chain shows keccak256(taskId, digest)): what it copies is the seal, which
 * the market seals again and never matches, except a failure report, which is in the clear (its kind decides the
 * payment) and is copied as it is. It commits when an honest re-run would have finished, so that it bills the
 * same runtime. Honest provider otherwise.
 */
export function lazyAuditor(): AuditorBehaviour {
  const honest = honestAuditor()
  return {
    joins: () => true,
    watches: () => true,
    plan: (task) => ({ readyAfter: honest.plan(task).readyAfter, busyFor: 0 }),
    deliver: ({ task, results }) => ({
      digest: mostCommon(results),
      computeSec: 0,
      runtimeSec: Math.min(task.runtimeSec, task.maxRuntimeSec),
    }),
  }
}

/** The result most often among `results` (the first of them on a tie). */
export function mostCommon(results: readonly Hex[]): Hex | undefined {
  let best: Hex | undefined
  let most = 0
  for (const result of results) {
    const count = results.filter((r) => r === result).length
    if (count > most) [best, most] = [result, count]
  }
  return best
}

/** Seats `auditor` held in the run's audits, and how many of those results it upheld. */
export function auditSeats(record: RunRecord, auditor: Address) {
  const seated = record.tasks.filter((t) =>
    [...(t.audit?.seats.values() ?? [])].some((s) => same(s.account, auditor)),
  )
  return {
    seats: seated.length,
    upheld: seated.filter((t) => t.audit?.verdict === 'Upheld').length,
  }
}

export const lazyAuditorStrategy = {
  name: 'lazy-auditor',
  role: 'provider',
  doc: 'Joins every audit it may and reveals the audited result as the chain shows it (a seal; a failure report in the clear) without re-running it.',
  deviate: (cast) => {
    const account = cast.providers[0] as Address
    return {
      identity: [account],
      providers: new Map([[account, { ...honestProvider(), auditor: lazyAuditor() }]]),
    }
  },
  measure: (record, deviation) => {
    const { seats, upheld } = auditSeats(record, deviation.identity[0] as Address)
    return { audit_seats: seats, upheld }
  },
} satisfies Strategy
