import { getTask, isFinalStatus, type Task } from '@gridforge/sdk'
import type { Address } from 'viem'
import { isBefore, type JournalEntry } from './journal.js'
import { abandon, next, type StepContext, type StepResult, seconds } from './steps/step.js'

/**
 * What the chain says the task's next step is, given where the journal says
 * it is: the one place every step comes to when a transaction was refused, a
 * resumed step may already have reached the chain, or a wait ends. Returns
 * `undefined` when the chain agrees with the journal (carry on with the step).
 *
 * `refusal` is why the chain refused the step's transaction, when it did: if
 * the chain does not show the step done, the task ends with it.
 */
export function decide(
  entry: JournalEntry,
  task: Task,
  address: Address,
  refusal?: string,
): StepResult | undefined {
  if (entry.audit !== undefined) return decideAudit(entry, task, address, refusal)
  const slot =
    entry.slot === undefined
      ? task.slots.find((s) => s.provider === address && s.status !== 'Free')
      : task.slots[entry.slot]
  const mine = slot !== undefined && slot.provider === address && slot.status !== 'Free'

  if (entry.step === 'claiming') {
    // A claim whose answer was lost (the node went away after mining it) shows as our slot.
    if (mine)
      return next(entry, {
        step: 'claimed',
        slot: slot.index,
        dueAt: seconds(slot.dueAt),
        seatFinalAt: entry.replicas > 1 ? seconds(slot.claimedAt) : undefined,
      })
    if (refusal === undefined) return { drop: 'the claim did not reach the chain' }
    if (!task.slots.some((s) => s.status === 'Free'))
      return { drop: 'another provider claimed the task first' }
    return { drop: `the market refused the claim: ${refusal}`, refused: true }
  }
  if (!mine) {
    // A raced seat (replicas > 1) that a better ticket took before it was final: every seat of the race
    // starts at the same time, and the market unlocked our collateral. Nothing of ours is on chain.
    if (
      entry.step === 'claimed' &&
      entry.seatFinalAt !== undefined &&
      slot?.provider !== undefined &&
      seconds(slot.claimedAt) === entry.seatFinalAt
    )
      return { drop: 'a better ticket took our seat before the race ended (its collateral was unlocked)' }
    const why = isFinalStatus(task.status)
      ? `the task ended ${task.status}`
      : 'it was reopened after its due time'
    return abandon(entry, `the slot is no longer ours (${why})${refusal === undefined ? '' : `: ${refusal}`}`)
  }
  if (slot.status === 'Forfeited' && entry.replicas > 1) {
    // A replica's slot forfeits when its reveal did not come (the task then settled or went to a dispute
    // without it), or when the auditors of a dispute did not confirm its result.
    const revealed = entry.step === 'revealed' || entry.step === 'auditing'
    return abandon(
      entry,
      revealed
        ? "the dispute's auditors did not confirm our result: the collateral was slashed"
        : 'our reveal did not come in time: the collateral was slashed',
    )
  }
  if (slot.status === 'Submitted' || slot.status === 'Forfeited') {
    // A single-replica result is settled, held for its audit draw, or under audit; revealed results of
    // replicas that differ are disputed (audited like a held result) until the auditors settle the task.
    if (task.status === 'Held') return changed(entry, next(entry, { step: 'held' }))
    if (task.status === 'Auditing') return changed(entry, next(entry, { step: 'auditing' }))
    if (slot.status === 'Forfeited')
      return abandon(entry, 'the result was overturned by its audit: the collateral was slashed')
    if (entry.replicas === 1 && task.status === 'Failed')
      return abandon(entry, 'the audit reached no verdict: the client was refunded, the collateral unlocked')
    // A replica's revealed result counts once the task settles: the last reveal, or the reveal window's end.
    return changed(entry, next(entry, { step: isFinalStatus(task.status) ? 'done' : 'revealed' }))
  }
  if (isFinalStatus(task.status))
    return abandon(entry, `the task ended ${task.status} before our result counted`)
  if (slot.status === 'Committed') {
    const step = task.status === 'Revealing' && !isBefore('revealing', entry.step) ? 'revealing' : 'committed'
    if (isBefore(entry.step, step)) return next(entry, { step })
  }
  if (refusal !== undefined) return abandon(entry, `${entry.step} was refused: ${refusal}`)
  return undefined
}

/**
 * {@link decide} for an auditor's entry: its slot is one of the audit's
 * (joined, committed or revealed), and the task stays `Auditing` until the
 * audit (of a held result, or the dispute of replicas whose results differ)
 * settles it.
 */
function decideAudit(
  entry: JournalEntry,
  task: Task,
  address: Address,
  refusal: string | undefined,
): StepResult | undefined {
  // Auditors hold the slots after the replicas'.
  const slot =
    entry.slot === undefined
      ? task.slots.find((s) => s.index >= entry.replicas && s.provider === address && s.status !== 'Free')
      : task.slots[entry.slot]
  const mine = slot !== undefined && slot.provider === address && slot.status !== 'Free'
  const final = isFinalStatus(task.status)
  if (!mine) {
    // Nothing of ours is on chain: no collateral is locked.
    if (entry.step === 'joining' && refusal === undefined && !final) return undefined
    if (entry.step === 'joining' || entry.step === 'joined')
      return {
        drop:
          refusal !== undefined
            ? `the market refused the join: ${refusal}`
            : final
              ? `the task ended ${task.status}`
              : 'a better ticket took our seat in the audit',
      }
    return abandon(entry, `the audit seat is no longer ours${refusal === undefined ? '' : `: ${refusal}`}`)
  }
  if (slot.status === 'Forfeited')
    return abandon(
      entry,
      'our audit seat was forfeited (slashed): its commitment or reveal came too late, or was outvoted',
    )
  if (slot.status === 'Submitted') {
    if (final) return changed(entry, next(entry, { step: 'done' }))
    return changed(entry, next(entry, { step: 'revealed' }))
  }
  if (final) return abandon(entry, `the task ended ${task.status} before our audit result counted`)
  if (entry.step === 'joining')
    return next(entry, { step: 'joined', slot: slot.index, dueAt: seconds(slot.dueAt) })
  if (slot.status === 'Committed') {
    const step =
      task.revealDeadline !== undefined && !isBefore('revealing', entry.step) ? 'revealing' : 'committed'
    if (isBefore(entry.step, step)) return next(entry, { step })
  }
  if (refusal !== undefined) return abandon(entry, `${entry.step} was refused: ${refusal}`)
  return undefined
}

/** `result`, unless it leaves the entry at the step it is at. */
function changed(entry: JournalEntry, result: StepResult): StepResult | undefined {
  return 'next' in result && result.next.step === entry.step ? undefined : result
}

/** Reads the task (remembering it) and {@link decide}s. */
export async function readAndDecide(
  context: Pick<StepContext, 'client' | 'deployment' | 'address'>,
  entry: JournalEntry,
  memory: { task?: (Task & { inputCID?: string | undefined }) | undefined },
  refusal?: string,
): Promise<StepResult | undefined> {
  const task = await getTask(context.client, { deployment: context.deployment, taskId: BigInt(entry.taskId) })
  memory.task = {
    ...task,
    inputCID: task.inputCID ?? memory.task?.inputCID,
    resultKey: task.resultKey ?? memory.task?.resultKey,
  }
  return decide(entry, task, context.address, refusal)
}

/**
 * The task as remembered, read (with its input CID and result key, from its submission) when it is not: the
 * market's backlog remembers input CIDs only.
 */
export async function taskWithInput(
  context: Pick<StepContext, 'client' | 'deployment'>,
  entry: JournalEntry,
  memory: { task?: (Task & { inputCID?: string | undefined }) | undefined },
): Promise<Task & { inputCID: string }> {
  if (memory.task?.inputCID === undefined || memory.task.resultKey === undefined) {
    const taskId = BigInt(entry.taskId)
    memory.task = await getTask(context.client, {
      deployment: context.deployment,
      taskId,
      includeInput: true,
    })
  }
  return memory.task as Task & { inputCID: string }
}
