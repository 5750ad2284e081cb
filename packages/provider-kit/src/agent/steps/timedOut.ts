import { ContractRevertedError } from '@gridforge/sdk'
import type { JournalEntry } from '../journal.js'
import { timeoutReportableAt } from '../runFailure.js'
import type { StepContext, StepResult, TaskMemory } from './step.js'

/**
 * Before a `timedOut` failure is submitted (1 replica) or committed (replicas
 * > 1 and audits, whose reveal checks the commitment's time): a wait until the
 * task's runtime limit has passed since the claim, when the chain would still
 * refuse it (`TaskMarketTimeoutTooEarly`; a refused reveal is a slashed one).
 * The run was killed at that limit, but it started after the claim by the
 * time preparing took, and chain time is not this host's. `undefined`: go on.
 * The claim is due later (limit + the market's claim grace).
 */
export async function untilTimeoutCounts(
  context: Pick<StepContext, 'chainNow' | 'logger'>,
  entry: JournalEntry,
  memory: TaskMemory,
): Promise<StepResult | undefined> {
  if (entry.failure?.kind !== 'timedOut' || entry.slot === undefined || memory.task === undefined)
    return undefined
  const at = timeoutReportableAt(memory.task, entry.slot)
  if (at === undefined || (await context.chainNow()) >= at) return undefined
  context.logger.debug('the timeout counts once the runtime limit has passed since the claim', { at })
  return { wait: { untilChainTime: at } }
}

/**
 * After a refusal: `TaskMarketTimeoutTooEarly` (a node behind the chain, or a
 * clock ahead of it, answered before the limit had passed) is a wait until a
 * second after it has; any other error is not this one's (`undefined`).
 */
export function timeoutRefusal(
  error: unknown,
  entry: JournalEntry,
  memory: TaskMemory,
): StepResult | undefined {
  if (!(error instanceof ContractRevertedError) || error.errorName !== 'TaskMarketTimeoutTooEarly')
    return undefined
  const at =
    memory.task === undefined || entry.slot === undefined
      ? undefined
      : timeoutReportableAt(memory.task, entry.slot)
  return { wait: { untilChainTime: at === undefined ? undefined : at + 1 } }
}
