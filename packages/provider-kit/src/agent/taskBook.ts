import { isFinalStatus, type Task } from '@gridforge/sdk'
import type { Address } from 'viem'
import type { SeatRace } from './seatRace.js'

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
  /** Chain seconds: not worth a look before then (a seat race this provider lost, until it ends). */
  notBefore?: number | undefined
  /** Replicas > 1, once read: the race for its seats (it does not change). */
  race?: SeatRace | undefined
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
      candidates.set(taskId, {
        ...known,
        taskId,
        sourceId,
        inputCID: inputCID ?? known?.inputCID,
        lookAt: 0,
        waiting: undefined,
      })
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
    /** The task is not worth a look before chain time `notBefore` (seconds). */
    hold(taskId: bigint, notBefore: number) {
      const candidate = candidates.get(taskId)
      if (candidate !== undefined) candidate.notBefore = notBefore
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

/**
 * {@link Assessment} of `task` for `provider`. `race`: the seat race of a task with replicas > 1 when a
 * claim now still races (see `seatRace.ts`): its seats, all held, still go to better tickets.
 */
export function assess(
  task: Task,
  provider: Address,
  chainNow: number,
  race?: { end: number } | undefined,
): Assessment {
  if (isFinalStatus(task.status) || task.deadline.getTime() / 1000 <= chainNow) return { kind: 'gone' }
  // A result is in and held for its audit draw, or under audit: nothing left to claim (audits are joined apart).
  if (task.status === 'Held' || task.status === 'Auditing') return { kind: 'gone' }
  const mine = task.slots.find((slot) => slot.provider === provider && slot.status !== 'Free')
  if (mine !== undefined) return { kind: 'mine', slot: mine.index }
  // The market refuses a claim due after the deadline (runtime limit + claim grace from its start: now, or
  // a raced seat's, the race's end): such a task can never be taken again, and preparing it would be wasted.
  const start = race === undefined ? chainNow : race.end + 1
  if (task.deadline.getTime() / 1000 < start + task.requirements.maxRuntimeSec) return { kind: 'gone' }
  if (task.status === 'Open' && task.slots.some((slot) => slot.status === 'Free'))
    return { kind: 'take', reopen: undefined }
  // Every seat is held, but the race is on: a better ticket takes the worst seat.
  if (race !== undefined && task.status === 'Claimed') return { kind: 'take', reopen: undefined }
  const claimed = task.slots.filter((slot) => slot.status === 'Claimed' && slot.dueAt !== undefined)
  const overdue = claimed.find((slot) => (slot.dueAt as Date).getTime() / 1000 < chainNow)
  if (overdue !== undefined) return { kind: 'take', reopen: overdue.index }
  const dues = claimed.map((slot) => Math.floor((slot.dueAt as Date).getTime() / 1000))
  return { kind: 'full', dueAt: dues.length === 0 ? undefined : Math.min(...dues) }
}
