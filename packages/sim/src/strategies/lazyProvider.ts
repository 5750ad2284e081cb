import { type Address, keccak256, toHex } from 'viem'
import type { ProviderBehaviour, Strategy } from './types.js'

/** Seconds a provider that does not compute takes to hand in after claiming. */
export const NO_WORK_SEC = 30

/** A digest nobody computed: what a provider hands in without running the task. */
export function garbage(tag: string, taskId: bigint, account?: Address): `0x${string}` {
  return keccak256(toHex(`garbage|${tag}|${taskId}|${account ?? ''}`))
}

/** Lazy provider: claims like an honest one but never runs the workload; hands in garbage at once. */
export function lazyProvider(account: Address): ProviderBehaviour {
  return {
    races: () => false,
    wants: () => true,
    plan: () => ({ readyAfter: NO_WORK_SEC, busyFor: 0 }),
    deliver: ({ task, now, claimedAt }) => ({
      digest: garbage('lazy', task.id, account),
      computeSec: 0,
      runtimeSec: now - claimedAt,
    }),
  }
}

export const lazyProviderStrategy = {
  name: 'lazy-provider',
  role: 'provider',
  doc: 'Claims like an honest provider, never runs the workload and hands in garbage at once.',
  deviate: (cast) => {
    const account = cast.providers[0] as Address
    return { identity: [account], providers: new Map([[account, lazyProvider(account)]]) }
  },
} satisfies Strategy
