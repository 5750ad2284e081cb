import type { Address } from 'viem'
import { type RunRecord, same } from '../market/engine.js'
import { honestProvider } from './honestProvider.js'
import type { ProviderBehaviour, Strategy } from './types.js'
import { garbage } from './work.js'

/**
 * Sybil operator: one operator holding a fraction `f` of the provider accounts (and so of the providers' stake:
 * every account stakes alike). The seats of a consensus task are raced for with stake-weighted tickets, so
 * speed and account count win it nothing: its accounts watch the market and join every seat race they may
 * (always there, where an honest provider is online with the online probability), each with its ticket, and
 * hold what their tickets win — more accounts only split the same stake. They vote as one: where they hold a
 * strict majority of a consensus task's seats they all hand in the same garbage without computing; elsewhere the
 * operator computes once and every account it has on the task hands in that result. On single-replica tasks its
 * accounts are honest providers.
 */
export function sybilOperator(accounts: readonly Address[]): Map<Address, ProviderBehaviour> {
  const mine = (holders: readonly Address[]) => holders.filter((h) => accounts.some((a) => same(a, h))).length
  const computed = new Set<bigint>()
  const behaviours = new Map<Address, ProviderBehaviour>()
  for (const account of accounts) {
    const honest = honestProvider()
    behaviours.set(account, {
      watches: (task) => task.replicas > 1,
      wants: () => true,
      plan: honest.plan,
      deliver: (context) => {
        const { task, holders } = context
        const held = mine(holders)
        if (task.replicas > 1 && held >= 2 && held * 2 > task.replicas) {
          return { digest: garbage('sybil', task.id), computeSec: 0, runtimeSec: task.runtimeSec }
        }
        const delivery = honest.deliver(context)
        // One run serves every account the operator has on the task.
        if (computed.has(task.id)) return { ...delivery, computeSec: 0 }
        computed.add(task.id)
        return delivery
      },
    })
  }
  return behaviours
}

/** The sybil's accounts: the first `f` of the providers (at least one). */
export function sybilAccounts(providers: readonly Address[], fraction: number): Address[] {
  return providers.slice(0, Math.max(1, Math.round(fraction * providers.length)))
}

/**
 * Share of the consensus tasks (k ≥ 2) that were settled in which the sybil's accounts handed in a strict
 * majority of the results: what it takes to decide the result alone.
 */
export function captureRate(record: RunRecord, accounts: readonly Address[]): number {
  const consensus = record.tasks.filter(
    (t) => t.replicas > 1 && t.outcome !== undefined && t.delivered.size > 0,
  )
  if (consensus.length === 0) return 0
  const captured = consensus.filter((t) => {
    const held = [...t.delivered.keys()].filter((p) => accounts.some((a) => same(a, p))).length
    return held >= 2 && held * 2 > t.replicas
  })
  return captured.length / consensus.length
}

export const sybilOperatorStrategy = {
  name: 'sybil-operator',
  role: 'provider',
  doc: 'Holds a fraction f of the providers, joins every seat race, votes as one: garbage where its tickets won a majority.',
  deviate: (cast, { sybilFraction }) => {
    const accounts = sybilAccounts(cast.providers, sybilFraction)
    return { identity: accounts, providers: sybilOperator(accounts) }
  },
  measure: (record, deviation) => ({ capture_rate: captureRate(record, deviation.identity) }),
} satisfies Strategy
