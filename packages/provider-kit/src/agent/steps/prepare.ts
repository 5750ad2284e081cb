import { getSource, getTaskResult, type Task } from '@gridforge/sdk'
import { taskWithInput } from '../decide.js'
import { errorKind, messageOf } from '../errorKind.js'
import { TaskRefusedError } from '../errors.js'
import type { AuditCheck, JournalEntry } from '../journal.js'
import type { PreparedTask } from '../prepareTask.js'
import type { StepContext, TaskMemory } from './step.js'

/** What preparing a task before its claim came to. */
export type Preparation = { prepared: PreparedTask } | { refused: string } | { postponed: string }

/**
 * Before any claim: reads and checks the source, its metadata, the image and
 * the input. Nothing is on chain yet, so a failure costs nothing: hostile or
 * unusable content refuses the task for good; anything that may pass later
 * (the input not in the store yet, the store or the engine down) postpones it.
 */
export async function prepareToClaim(
  context: Pick<StepContext, 'prepare' | 'signal'>,
  task: Task & { inputCID: string },
): Promise<Preparation> {
  try {
    return { prepared: await context.prepare(task, true) }
  } catch (error) {
    if (context.signal.aborted) throw error
    if (error instanceof TaskRefusedError) return { refused: error.reason }
    if (errorKind(error) === 'permanent') return { refused: messageOf(error) }
    return { postponed: messageOf(error) }
  }
}

/**
 * What a claimed task (or a joined audit) runs, prepared once per process and
 * again on a resumed claim (`fetch` the input unless a container has it): the
 * task's source, or for an audit that checks with a validator
 * (`entry.audit.check`), the validator with the result beside the input.
 */
export async function preparedRun(
  context: Pick<StepContext, 'client' | 'deployment' | 'prepare'>,
  entry: JournalEntry,
  memory: TaskMemory,
  fetch: boolean,
): Promise<PreparedTask> {
  if (memory.prepared === undefined) {
    const task = await taskWithInput(context, entry, memory)
    const check = entry.audit?.check
    const validator =
      check === undefined || check === 'rerun'
        ? undefined
        : { sourceId: check.validator, resultCID: check.resultCID }
    memory.prepared = await context.prepare(task, fetch, validator)
  }
  return memory.prepared
}

/**
 * How an audit checks the provider's result. A source with a validator whose
 * result is not a failure: its validator runs on the task's input and the
 * result (the CID of the provider's `ResultSubmitted` event, read at the block
 * the result was held in), and the auditor reveals whether it passed. A
 * deterministic source, or a failure of any source: the task's source runs
 * again, and the auditor reveals what it found (an output or the same failure).
 * The dispute of a task with replicas > 1 (their results differ) always runs
 * the source again: the market compares what the auditors find with the
 * replicas' results.
 */
export async function auditCheckOf(
  context: Pick<StepContext, 'client' | 'deployment'>,
  task: Pick<Task, 'taskId' | 'sourceId' | 'replicas' | 'failed' | 'slots'>,
): Promise<AuditCheck> {
  if (task.replicas > 1) return 'rerun'
  const { client, deployment } = context
  const { validator } = await getSource(client, { deployment, sourceId: task.sourceId })
  if (validator === undefined || task.failed) return 'rerun'
  const { results } = await getTaskResult(client, {
    deployment,
    taskId: task.taskId,
    fromBlock: task.slots[0]?.submittedBlock,
  })
  const held = results.find((result) => result.slot === 0)
  // A node behind the chain, or one that lost the logs: read again.
  if (held === undefined) throw new Error(`the ResultSubmitted event of task ${task.taskId} was not found`)
  return { validator, resultCID: held.resultCID }
}
