import { isFinalStatus, type Task } from '@gridforge/sdk'
import type { Address } from 'viem'

/** A task the agent may take: known from an event or the start-up scan, not in flight, not refused. */
export interface Candidate {
  taskId: bigint
  sourceId: number
  inputCID: string | undefined
  /**
   * When to read it again (ms since the epoch): 0 at the next look; a time for a
   * postponed task or a claim that comes due; `undefined` until an event about it
   * (or, for `waiting`, until capacity frees or the provider subscribes).
   */
  lookAt: number | undefined
  waiting?: 'capacity' | 'subscription' | undefined
}

/**
 * The tasks the agent keeps an eye on. Events make them due for a look
 * (`touch`); nothing else reads the chain, so the agent's cost follows what
 * happens in the market, not how long it has existed.
 */
export function createTaskBook() {
  const candidates = new Map<bigint, Candidate>()
  const refused = new Set<bigint>()
  return {
    /** Adds a task (due at once), unless refused before. */
    add(taskId: bigint, sourceId: number, inputCID: string | undefined) {
      if (refused.has(taskId)) return
      const known = candidates.get(taskId)
      candidates.set(taskId, { taskId, sourceId, inputCID: inputCID ?? known?.inputCID, lookAt: 0 })
    },
    get: (taskId: bigint) => candidates.get(taskId),
    has: (taskId: bigint) => candidates.has(taskId),
    /** Never looks at the task again. */
    refuse(taskId: bigint) {
      refused.add(taskId)
      candidates.delete(taskId)
    },
    isRefused: (taskId: bigint) => refused.has(taskId),
    /** Forgets the task (final, taken, or in flight). */
    remove(taskId: bigint) {
      candidates.delete(taskId)
    },
    /** An event about the task: look at it again. */
    touch(taskId: bigint) {
      const candidate = candidates.get(taskId)
      if (candidate !== undefined) Object.assign(candidate, { lookAt: 0, waiting: undefined })
    },
    /** Look again at every task waiting for `reason` (and, for a subscription, of `sourceId`). */
    release(reason: 'capacity' | 'subscription', sourceId?: number) {
      for (const candidate of candidates.values())
        if (candidate.waiting === reason && (sourceId === undefined || candidate.sourceId === sourceId))
          Object.assign(candidate, { lookAt: 0, waiting: undefined })
    },
    /** Looks at the task again at `time` (ms), or when `waiting` ends. */
    later(taskId: bigint, time: number | undefined, waiting?: Candidate['waiting']) {
      const candidate = candidates.get(taskId)
      if (candidate !== undefined) Object.assign(candidate, { lookAt: time, waiting })
    },
    /** Tasks due for a look at `now`, oldest first. */
    due(now: number): Candidate[] {
      return [...candidates.values()]
        .filter((candidate) => candidate.lookAt !== undefined && candidate.lookAt <= now)
        .sort((a, b) => (a.taskId < b.taskId ? -1 : 1))
    },
    /** The earliest future look, ms. */
    nextLook(): number | undefined {
      let next: number | undefined
      for (const { lookAt } of candidates.values())
        if (lookAt !== undefined && (next === undefined || lookAt < next)) next = lookAt
      return next
    },
    ids: () => [...candidates.keys()],
  }
}

export type TaskBook = ReturnType<typeof createTaskBook>

/** What the chain alone says about taking a task now (`chainNow`, seconds). */
export type Assessment =
  | { kind: 'gone' }
  | { kind: 'mine'; slot: number }
  | { kind: 'take'; reopen: number | undefined }
  /** Every slot is taken: look again when the earliest claim comes due (chain seconds). */
  | { kind: 'full'; dueAt: number | undefined }

/** {@link Assessment} of `task` for `provider`. */
export function assess(task: Task, provider: Address, chainNow: number): Assessment {
  if (isFinalStatus(task.status) || task.deadline.getTime() / 1000 <= chainNow) return { kind: 'gone' }
  // A result is in and held for its audit draw, or under audit: nothing left to claim (audits are joined apart).
  if (task.status === 'Held' || task.status === 'Auditing') return { kind: 'gone' }
  const mine = task.slots.find((slot) => slot.provider === provider && slot.status !== 'Free')
  if (mine !== undefined) return { kind: 'mine', slot: mine.index }
  // The market refuses a claim due after the deadline (runtime limit + claim grace from now): such a task
  // can never be taken again, and preparing it would be wasted.
  if (task.deadline.getTime() / 1000 < chainNow + task.requirements.maxRuntimeSec) return { kind: 'gone' }
  if (task.status === 'Open' && task.slots.some((slot) => slot.status === 'Free'))
    return { kind: 'take', reopen: undefined }
  const claimed = task.slots.filter((slot) => slot.status === 'Claimed' && slot.dueAt !== undefined)
  const overdue = claimed.find((slot) => (slot.dueAt as Date).getTime() / 1000 < chainNow)
  if (overdue !== undefined) return { kind: 'take', reopen: overdue.index }
  const dues = claimed.map((slot) => Math.floor((slot.dueAt as Date).getTime() / 1000))
  return { kind: 'full', dueAt: dues.length === 0 ? undefined : Math.min(...dues) }
}
