/**
 * Waiting tasks, each until its next chain event or a time limit: the market
 * watch wakes a task when an event names it, so a waiting task costs no
 * requests while nothing happens to it.
 */
export class Wakeups {
  readonly #waiters = new Map<bigint, () => void>()
  readonly #signal: AbortSignal

  constructor(signal: AbortSignal) {
    this.#signal = signal
  }

  /** Resolves at the next {@link wake} of `taskId`, after `ms`, or when the agent stops. */
  next(taskId: bigint, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer)
        this.#waiters.delete(taskId)
        this.#signal.removeEventListener('abort', done)
        resolve()
      }
      const timer = setTimeout(done, Math.min(ms, 2 ** 31 - 1))
      this.#waiters.set(taskId, done)
      this.#signal.addEventListener('abort', done, { once: true })
    })
  }

  /** An event about `taskId`: its waiting step runs again. */
  wake(taskId: bigint): void {
    this.#waiters.get(taskId)?.()
  }

  /** Ends every wait (the agent is stopping). */
  wakeAll(): void {
    for (const wake of [...this.#waiters.values()]) wake()
  }
}
