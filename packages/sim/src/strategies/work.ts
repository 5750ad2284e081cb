/** What strategies hand in when they do not do the work. */
import { type Address, keccak256, toHex } from 'viem'
import type { AuditorBehaviour } from './types.js'

/** Seconds a provider that does not compute takes to hand in after claiming. */
export const NO_WORK_SEC = 30

/** A digest nobody computed: what a provider hands in without running the task. */
export function garbage(tag: string, taskId: bigint, account?: Address): `0x${string}` {
  return keccak256(toHex(`garbage|${tag}|${taskId}|${account ?? ''}`))
}

/** An account that never joins an audit (a client's second account registered for another purpose). */
export const noAudits: AuditorBehaviour = {
  joins: () => false,
  plan: () => ({ readyAfter: NO_WORK_SEC, busyFor: 0 }),
  deliver: () => ({ digest: undefined, computeSec: 0, runtimeSec: 0 }),
}
