import {
  auditReseededSlot,
  ContractRevertedError,
  finalizeTask,
  getAudit,
  isFinalStatus,
  joinAudit,
  type Task,
  type TaskAudit,
} from '@gridforge/sdk'
import { getBlockNumber } from 'viem/actions'
import { readAndDecide } from '../decide.js'
import { messageOf } from '../errorKind.js'
import { gasLimits } from '../gasLimits.js'
import type { JournalEntry } from '../journal.js'
import { auditCheckOf, preparedRun } from './prepare.js'
import { next, type Step, type StepContext, type StepResult, seconds, type TaskMemory } from './step.js'

/**
 * `joining` → `joined` (an audit of another provider's result): once the
 * round's tickets can be drawn (two blocks after the round opened), decides
 * how the result is checked ({@link auditCheckOf}), prepares what runs (the
 * task's source or its validator: source, image, input and, for a validator,
 * the result: nothing is locked yet, so what cannot run is dropped for free)
 * and joins the round, locking the task's collateral. A ticket worse than
 * every seated one is an everyday loss (dropped, logged at debug level); a
 * round whose joining closed, or that is over, is dropped too.
 */
export const join: Step = async (context, entry, memory) => {
  const decided = await readAndDecide(context, entry, memory)
  if (decided !== undefined) return decided
  const { client, deployment, logger } = context
  const taskId = BigInt(entry.taskId)
  const audit = await getAudit(client, { deployment, taskId })
  const round = entry.audit?.round
  if (audit.verdict !== 'pending' || audit.round !== round)
    return { drop: `audit round ${round} is over (now round ${audit.round}, ${audit.verdict})`, quiet: true }
  const joinDeadline = seconds(audit.joinDeadline)
  if ((await context.chainNow()) > joinDeadline) return { drop: 'joining the audit closed', quiet: true }
  // Tickets are drawn from the hash of the block after the round opened: joining opens a block later.
  const readyBlock = (audit.seedBlock ?? 0n) + 2n
  if ((await getBlockNumber(client, { cacheTime: 0 })) < readyBlock)
    return { wait: { untilBlock: readyBlock } }
  const check = entry.audit?.check ?? (await auditCheckOf(context, memory.task as Task))
  const checking = { ...entry, audit: { ...(entry.audit as NonNullable<JournalEntry['audit']>), check } }
  const prepared = await preparedRun(context, checking, memory, true)
  // The validator runs on the GPUs taken for the task: it may not need more.
  if (prepared.source.requirements.minGpus > entry.gpus.length)
    return {
      drop: `the validator (source ${prepared.source.sourceId}) needs ${prepared.source.requirements.minGpus} GPUs, the task ${entry.gpus.length}`,
    }
  let slot: number
  try {
    const joined = await context.transact(() =>
      joinAudit(client, { deployment, taskId, gas: gasLimits.joinAudit }),
    )
    slot = joined.slot
  } catch (error) {
    if (error instanceof ContractRevertedError) {
      if (error.errorName === 'TaskMarketAuditTicketTooHigh')
        return { drop: 'our audit ticket is worse than every seated one', quiet: true }
      // Sent on a node a block behind: joining opens at the block it names.
      if (error.errorName === 'TaskMarketDrawNotReady')
        return { wait: { untilBlock: BigInt(error.args[1] as bigint) } }
    }
    throw error
  }
  // Nobody joined for 256 blocks: the round was opened again from this block; join it two blocks later.
  if (slot === auditReseededSlot) return { wait: {} }
  // The seat is due (its commitment) by the round's commitment deadline.
  const commitDeadline = seconds(audit.commitDeadline)
  logger.info('joined an audit', {
    round,
    slot,
    joinDeadline,
    check: check === 'rerun' ? check : `validator ${check.validator}`,
  })
  return next(entry, {
    step: 'joined',
    slot,
    dueAt: commitDeadline,
    audit: { round: audit.round, joinDeadline, commitDeadline, check },
  })
}

/**
 * `joined` → `claimed`: holds the seat until joining closes (a better ticket
 * may still take it: the seat's collateral is unlocked and the task dropped).
 * Then the audit runs like a consensus replica from `claimed` on, due by the
 * round's commitment deadline.
 */
export const awaitJoinClose: Step = async (context, entry, memory) => {
  const decided = await readAndDecide(context, entry, memory)
  if (decided !== undefined) return decided
  // Read from the chain: a join resumed from the journal may not have its round's deadlines yet.
  const audit = await getAudit(context.client, {
    deployment: context.deployment,
    taskId: BigInt(entry.taskId),
  })
  const joinDeadline = seconds(audit.joinDeadline)
  if ((await context.chainNow()) <= joinDeadline) return { wait: { untilChainTime: joinDeadline + 1 } }
  context.logger.info('holds its audit seat: running the task', { slot: entry.slot })
  const commitDeadline = seconds(audit.commitDeadline)
  return next(entry, {
    step: 'claimed',
    dueAt: commitDeadline,
    audit: { ...entry.audit, round: audit.round, joinDeadline, commitDeadline },
  })
}

/**
 * `committed` (an audit): waits for every seated auditor to commit, which
 * opens the reveal window; once the round's commitment deadline passed, moves
 * the round on itself (`finalizeTask`: the late auditors are slashed and the
 * reveal opens).
 */
export const awaitAuditReveal: Step = async (context, entry, memory) => {
  const decided = await readAndDecide(context, entry, memory)
  if (decided !== undefined) return decided
  return advanceAudit(context, entry, memory)
}

/**
 * `auditing` (the provider's own result, drawn for an audit) and `revealed`
 * (an auditor's, after its reveal): watches the audit until it settles the
 * task, moving each round on with `finalizeTask` once its joining, commitment
 * or reveal time is over and nobody else did. Upheld (or lapsed: nobody
 * joined), the provider is paid; overturned, it is slashed. An auditor whose
 * result stands is paid when the audit settles.
 */
export const watchAudit: Step = async (context, entry, memory) => {
  const { client, deployment, logger } = context
  const taskId = BigInt(entry.taskId)
  const decided = await readAndDecide(context, entry, memory)
  const task = memory.task as NonNullable<typeof memory.task>
  if (isFinalStatus(task.status)) {
    const { verdict } = await getAudit(client, { deployment, taskId })
    const role = entry.audit === undefined ? 'our result' : 'the audited result'
    logger.info('audit settled', { verdict, status: task.status, of: role })
    if (decided !== undefined && 'next' in decided) return { next: { ...decided.next, verdict } }
    return next(entry, { step: 'done', verdict })
  }
  if (decided !== undefined) return decided
  return advanceAudit(context, entry, memory)
}

/**
 * Waits until the audit round's current phase ends (joining when nobody
 * joined, the commitments when someone did, the reveals once they opened),
 * then calls `finalizeTask` to move it on (a revert means someone else did,
 * or the round moved by itself: the task is read again either way).
 */
async function advanceAudit(
  context: StepContext,
  entry: JournalEntry,
  memory: TaskMemory,
): Promise<StepResult> {
  const { client, deployment, logger } = context
  const taskId = BigInt(entry.taskId)
  const task = memory.task as NonNullable<typeof memory.task>
  const audit = await getAudit(client, { deployment, taskId })
  if (audit.verdict !== 'pending') return { wait: {} }
  const deadline = phaseEnd(audit, task)
  const now = await context.chainNow()
  if (now <= deadline) return { wait: { untilChainTime: deadline + 1 } }
  try {
    await context.transact(() => finalizeTask(client, { deployment, taskId }))
    logger.info('moved the audit on', { round: audit.round })
  } catch (error) {
    if (context.signal.aborted) throw error
    // Someone else moved it first, or the round moved by itself; a settlement-less answer (a new round) is fine too.
    logger.debug('moving the audit on did not go through', { error: messageOf(error) })
  }
  return { wait: { untilChainTime: now + 1 } }
}

/** When the round's current phase is over and `finalizeTask` may move it on (chain seconds). */
function phaseEnd(audit: TaskAudit, task: NonNullable<TaskMemory['task']>): number {
  if (task.revealDeadline !== undefined) return seconds(task.revealDeadline)
  const end = audit.firstSlot + audit.auditors
  const seated = task.slots.some((slot) => slot.index >= audit.firstSlot && slot.index < end && slot.provider)
  return seconds(seated ? audit.commitDeadline : audit.joinDeadline)
}
