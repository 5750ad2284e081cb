import type { Address } from 'viem'
import type { ClientBehaviour, Strategy } from './types.js'

/** Seconds between submission and deadline of a honeypot that cannot be finished in time. */
const HONEYPOT_DEADLINE_SEC = 600

/**
 * Honeypot client: wants no results; half its tasks leave far less time before the deadline than a run
 * takes, the other half have inputs that make every honest run time out at the source's limit. Providers
 * that claim them cannot deliver, and the client ends the claims and collects its share of the slashes.
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
} satisfies Strategy
