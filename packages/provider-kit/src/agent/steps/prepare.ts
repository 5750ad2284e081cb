import type { Task } from '@gridforge/sdk'
import { errorKind, messageOf } from '../errorKind.js'
import { TaskRefusedError } from '../errors.js'
import type { PreparedTask } from '../prepareTask.js'
import type { StepContext } from './step.js'

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
