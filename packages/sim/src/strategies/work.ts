/** What strategies hand in when they do not do the work. */
import { type Address, keccak256, toHex } from 'viem'

/** Seconds a provider that does not compute takes to hand in after claiming. */
export const NO_WORK_SEC = 30

/** A digest nobody computed: what a provider hands in without running the task. */
export function garbage(tag: string, taskId: bigint, account?: Address): `0x${string}` {
  return keccak256(toHex(`garbage|${tag}|${taskId}|${account ?? ''}`))
}
