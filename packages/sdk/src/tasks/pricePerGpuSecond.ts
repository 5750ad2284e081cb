import type { Requirements } from '../types/requirements.js'

/** What {@link pricePerGpuSecond} reads of a task: its price and its (merged) requirements. */
export interface PricedTerms {
  maxPayment: bigint
  /** 0n for a fixed price. */
  pricePerSecond: bigint
  requirements: Pick<Requirements, 'minGpus' | 'maxRuntimeSec'>
}

/**
 * Pay per GPU-second a task guarantees at worst, in base units: a metered
 * task pays `pricePerSecond`, a fixed-price one `maxPayment` spread over the
 * longest run it allows. Tasks without GPUs count as one GPU. This is how the
 * provider agent compares a task with its policy's `minPricePerGpuSecond`, and
 * how `quoteTask` compares it with the floors providers publish
 * (`setPriceFloor`): one function, so that a quote never disagrees with an
 * agent. Pass the task's requirements merged with the source's (a `Task`'s
 * are).
 *
 * @example
 * import { pricePerGpuSecond } from '@gridforge/sdk'
 *
 * const task = await client.getTask({ taskId: 7n })
 * console.log(pricePerGpuSecond(task)) // base units per GPU-second
 */
export function pricePerGpuSecond(task: PricedTerms): bigint {
  const gpus = BigInt(Math.max(1, task.requirements.minGpus))
  const perSecond =
    task.pricePerSecond > 0n
      ? task.pricePerSecond
      : task.maxPayment / BigInt(Math.max(1, task.requirements.maxRuntimeSec))
  return perSecond / gpus
}
