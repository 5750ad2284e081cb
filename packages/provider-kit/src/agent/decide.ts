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
  const slot =
    entry.slot === undefined
      ? task.slots.find((s) => s.provider === address && s.status !== 'Free')
      : task.slots[entry.slot]
  const mine = slot !== undefined && slot.provider === address && slot.status !== 'Free'

  if (entry.step === 'claiming') {
    // A claim whose answer was lost (the node went away after mining it) shows as our slot.
    if (mine) return next(entry, { step: 'claimed', slot: slot.index, dueAt: seconds(slot.dueAt) })
    if (refusal === undefined) return { drop: 'the claim did not reach the chain' }
    if (!task.slots.some((s) => s.status === 'Free'))
      return { drop: 'another provider claimed the task first' }
    return { drop: `the market refused the claim: ${refusal}`, refused: true }
  }
  if (!mine) {
    const why = isFinalStatus(task.status)
      ? `the task ended ${task.status}`
      : 'it was reopened after its due time'
    return abandon(entry, `the slot is no longer ours (${why})${refusal === undefined ? '' : `: ${refusal}`}`)
  }
  if (slot.status === 'Submitted') return changed(entry, next(entry, { step: 'done' }))
  if (slot.resultDigest !== undefined)
    return changed(entry, next(entry, { step: isFinalStatus(task.status) ? 'done' : 'revealed' }))
  if (isFinalStatus(task.status))
    return abandon(entry, `the task ended ${task.status} before our result counted`)
  if (slot.status === 'Committed') {
    const step = task.status === 'Revealing' && !isBefore('revealing', entry.step) ? 'revealing' : 'committed'
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
  memory.task = { ...task, inputCID: task.inputCID ?? memory.task?.inputCID }
  return decide(entry, task, context.address, refusal)
}

/** The task as remembered, read (with its input CID) when it is not. */
export async function taskWithInput(
  context: Pick<StepContext, 'client' | 'deployment'>,
  entry: JournalEntry,
  memory: { task?: (Task & { inputCID?: string | undefined }) | undefined },
): Promise<Task & { inputCID: string }> {
  if (memory.task?.inputCID === undefined) {
    const taskId = BigInt(entry.taskId)
    memory.task = await getTask(context.client, {
      deployment: context.deployment,
      taskId,
      includeInput: true,
    })
  }
  return memory.task as Task & { inputCID: string }
}
