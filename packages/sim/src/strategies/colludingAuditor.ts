import type { Address } from 'viem'
import { type Engine, type RunRecord, same } from '../market/engine.js'
import { registerProvider } from '../market/world.js'
import { grid } from '../units.js'
import { honestAuditor } from './honestProvider.js'
import { lazyProvider } from './lazyProvider.js'
import type { AuditorBehaviour, ProviderBehaviour, Strategy } from './types.js'
import { NO_WORK_SEC } from './work.js'

/**
 * Colluding auditor: a provider's second account, registered with `colluderStake` of stake, that joins the
 * first round of every audit of its partner's results (watching: always there, busy or not) and commits to
 * whatever its partner submitted — garbage included — without computing: holding the round's one seat
 * upholds the result. It stays out of its partner's later rounds, where it could not decide alone and would be
 * outvoted. It audits everybody else honestly and claims no tasks. Its partner is a lazy provider.
 */
export function colludingAuditor(partner: Address): ProviderBehaviour {
  const honest = honestAuditor()
  const partners = (audit: { provider: Address }) => same(audit.provider, partner)
  return auditOnly({
    joins: (_task, audit) => !partners(audit) || audit.round === 1,
    watches: (_task, audit) => partners(audit),
    // It commits when an honest re-run would have finished, so that it bills the same runtime.
    plan: honest.plan,
    deliver: (context) =>
      partners(context)
        ? {
            // The seal on chain is no use to it (the market seals what auditors reveal): its partner, the same
            // operator, hands it the digest of whatever it submitted.
            digest: context.task.delivered.get(partner) ?? context.resultDigest,
            computeSec: 0,
            runtimeSec: Math.min(context.task.runtimeSec, context.task.maxRuntimeSec),
          }
        : honest.deliver(context),
  })
}

/** A registered account that claims nothing and audits as `auditor` does. */
function auditOnly(auditor: AuditorBehaviour): ProviderBehaviour {
  return {
    watches: () => false,
    wants: () => false,
    plan: () => ({ readyAfter: NO_WORK_SEC, busyFor: 0 }),
    deliver: () => ({ digest: undefined, computeSec: 0, runtimeSec: 0 }),
    auditor,
  }
}

/** The audits of `partner`'s results in a run, and what became of them. */
export function partnerAudits(record: RunRecord, partner: Address, colluder: Address) {
  const audited = record.tasks.filter((t) => t.audit?.drawn === true && same(t.audit.provider, partner))
  const garbage = (t: (typeof audited)[number]) => t.delivered.get(partner) !== t.correct
  const captured = audited.filter((t) =>
    [...(t.audit?.seats.values() ?? [])].some((s) => s.round === 1 && same(s.account, colluder)),
  )
  return {
    audited: audited.length,
    captured: captured.length,
    garbage_upheld: audited.filter((t) => garbage(t) && t.audit?.verdict === 'Upheld').length,
    garbage_overturned: audited.filter((t) => garbage(t) && t.audit?.verdict === 'Overturned').length,
  }
}

/** The pair: the partner (first provider) and its second account (first spare account). */
function pair(cast: { providers: readonly Address[]; spare: readonly Address[] }) {
  return [cast.providers[0], cast.spare[0]] as [Address, Address]
}

/** Stakes `colluderStake` for the second account, registers it and subscribes it to the source. */
function registerSecond(second: Address) {
  return (engine: Engine) =>
    registerProvider(
      engine.tx,
      engine.contracts,
      second,
      grid(engine.params.colluderStake),
      engine.world.sourceId,
    )
}

export const honestAuditorBaseline = {
  name: 'honest-auditor',
  role: 'provider',
  doc: 'An honest provider whose second account, staked like the colluding auditor, audits honestly and claims nothing.',
  deviate: (cast) => {
    const [partner, second] = pair(cast)
    return {
      identity: [partner, second],
      providers: new Map([[second, auditOnly(honestAuditor())]]),
      prepare: registerSecond(second),
    }
  },
} satisfies Strategy

export const colludingAuditorStrategy = {
  name: 'colluding-auditor',
  role: 'provider',
  doc: "A lazy provider's second account joins the audits of its results and upholds whatever it submitted, garbage included.",
  baseline: 'honest-auditor',
  deviate: (cast) => {
    const [partner, second] = pair(cast)
    return {
      identity: [partner, second],
      providers: new Map([
        [partner, lazyProvider(partner)],
        [second, colludingAuditor(partner)],
      ]),
      prepare: registerSecond(second),
    }
  },
  measure: (record, deviation) => {
    const [partner, second] = deviation.identity as [Address, Address]
    return partnerAudits(record, partner, second)
  },
} satisfies Strategy
