import type { Address } from 'viem'
import { defaultValue, same, taskValue } from '../market/engine.js'
import { registerProvider } from '../market/world.js'
import { grid } from '../units.js'
import type { ClientBehaviour, ProviderBehaviour, Strategy } from './types.js'
import { garbage, NO_WORK_SEC, noAudits } from './work.js'

/**
 * Vetoing client: registers a second account as a provider (stake `vetoerStake`); on its own two-replica tasks
 * that account joins the race for the seats — it takes one as often as its stake-weighted ticket lets it, not
 * at will — and, seated, reveals a different result after the honest reveal, so that no majority forms and the
 * client is refunded — while it reads the honest result from the reveal. Replicas that disagree open a dispute:
 * an auditor re-runs the task, the honest replica is paid and the vetoer's collateral is slashed (refunded only
 * if no auditor comes).
 */
export function vetoingClient(client: Address, vetoer: Address) {
  const own = (task: { client: Address; replicas: number }) =>
    same(task.client, client) && task.replicas === 2
  const provider: ProviderBehaviour = {
    watches: (task) => own(task),
    wants: (task) => own(task),
    plan: () => ({ readyAfter: NO_WORK_SEC, busyFor: 0 }),
    deliver: ({ task }) => ({ digest: garbage('veto', task.id, vetoer), computeSec: 0, runtimeSec: 0 }),
    revealsLast: true,
    // Registered to veto, not to audit.
    auditor: noAudits,
  }
  const behaviour: ClientBehaviour = {
    value: (task, outcome, params) => {
      const honestReveal = [...task.delivered].some(
        ([p, digest]) => !same(p, vetoer) && digest === task.correct,
      )
      return own(task) && honestReveal ? taskValue(task, params) : defaultValue(task, outcome, params)
    },
  }
  return { provider, behaviour }
}

export const vetoingClientStrategy = {
  name: 'vetoing-client',
  role: 'client',
  doc: 'Its second account races for a seat of its own k=2 tasks and reveals a different result, for a refund (a dispute audits it).',
  deviate: (cast) => {
    const client = cast.clients[0] as Address
    const vetoer = cast.spare[0] as Address
    const veto = vetoingClient(client, vetoer)
    return {
      identity: [client, vetoer],
      providers: new Map([[vetoer, veto.provider]]),
      client: { account: client, behaviour: veto.behaviour },
      prepare: async (engine) => {
        await registerProvider(
          engine.tx,
          engine.contracts,
          vetoer,
          grid(engine.params.vetoerStake),
          engine.world.sourceId,
        )
      },
    }
  },
} satisfies Strategy
