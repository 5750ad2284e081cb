import type { Address } from 'viem'
import { same } from '../market/engine.js'
import { honestProvider } from './honestProvider.js'
import type { ProviderBehaviour, Strategy } from './types.js'
import { garbage } from './work.js'

/**
 * Colluding pair: two independent providers that agree to vote together on consensus tasks. They cannot join
 * each other — a k > 1 task's seats go to the best stake-weighted tickets of the race, not to who claims first —
 * so both watch the market and join every seat race they may (always there for consensus tasks), and where the
 * race seats both of them and together they hold a strict majority, both hand in the same garbage without
 * computing; honest everywhere else.
 */
export function colludingPair(pair: readonly [Address, Address]): Map<Address, ProviderBehaviour> {
  const inPair = (holder: Address) => pair.some((a) => same(a, holder))
  const behaviours = new Map<Address, ProviderBehaviour>()
  for (const account of pair) {
    const honest = honestProvider()
    behaviours.set(account, {
      watches: (task) => task.replicas > 1,
      wants: () => true,
      plan: honest.plan,
      deliver: (context) => {
        const held = context.holders.filter(inPair).length
        if (context.task.replicas > 1 && held >= 2 && held * 2 > context.task.replicas) {
          return {
            digest: garbage('pair', context.task.id),
            computeSec: 0,
            runtimeSec: context.task.runtimeSec,
          }
        }
        return honest.deliver(context)
      },
    })
  }
  return behaviours
}

export const colludingPairStrategy = {
  name: 'colluding-pair',
  role: 'provider',
  doc: 'Two providers join every seat race of consensus tasks and both hand in garbage where their tickets won a majority.',
  deviate: (cast) => {
    const pair = [cast.providers[0], cast.providers[1]] as [Address, Address]
    return { identity: pair, providers: colludingPair(pair) }
  },
} satisfies Strategy
