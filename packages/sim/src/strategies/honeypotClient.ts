import type { Address } from 'viem'
import { type RunRecord, same } from '../market/engine.js'
import type { ClientBehaviour, Strategy } from './types.js'

/** Seconds between submission and deadline of a honeypot that cannot be finished in time. */
const HONEYPOT_DEADLINE_SEC = 600

/**
 * Honeypot client: wants no results; half its tasks leave far less time before the deadline than a run
 * takes, the other half have inputs that make every honest run time out at the source's limit. It hopes
 * that providers claim them, cannot deliver and are slashed, its share of the slashes its gain; but the market
 * refuses claims that would be due after the deadline (the first half expire unclaimed), and an honest provider
 * hands a timed-out run in as a failure report (`TimedOut`, accepted once the limit has passed since the
 * claim): never slashed, paid the source's failure terms — the failure fee of a fixed price, the runtime used
 * of a metered one — which the honeypot pays.
 */
export function honeypotClient(): ClientBehaviour {
  return {
    shape: (task) =>
      task.index % 2 === 0
        ? { ...task, deadlineAfter: HONEYPOT_DEADLINE_SEC }
        : { ...task, runtimeSec: task.maxRuntimeSec * 2 },
    value: () => 0,
  }
}

export const honeypotClientStrategy = {
  name: 'honeypot-client',
  role: 'client',
  // It wants no results: its honest alternative is to stay out of the market, which earns nothing.
  baseline: 'abstain',
  doc: 'Submits tasks that cannot be finished in the claim window or whose inputs make runs time out.',
  deviate: (cast) => {
    const client = cast.clients[0] as Address
    return { identity: [client], client: { account: client, behaviour: honeypotClient() } }
  },
  measure: (record, deviation) => honeypotTasks(record, deviation.identity[0] as Address),
} satisfies Strategy

/** What became of the honeypot's tasks in a run: handed in as failure reports, or expired. */
export function honeypotTasks(record: RunRecord, client: Address) {
  const own = record.tasks.filter((t) => same(t.client, client))
  return {
    failure_reports: own.filter((t) => t.outcome?.status === 'Completed' && t.outcome.failed).length,
    expired: own.filter((t) => t.outcome?.status === 'Expired').length,
  }
}
