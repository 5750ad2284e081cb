/**
 * Time as the runtimes see it: the deadline timer, the output-size poll and the
 * fallback start/finish times all go through this, so a test can drive them
 * without waiting (testcontainers-node's rule: retries and timeouts take an
 * injectable clock).
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number
  /** Calls `callback` once after `ms` milliseconds; the returned function cancels it. */
  setTimeout(callback: () => void, ms: number): () => void
}

/**
 * The real clock: `Date.now` and `setTimeout`. Timers are unref'd so a pending
 * deadline never keeps the process alive on its own.
 *
 * @example
 * const cancel = systemClock.setTimeout(() => console.log('late'), 1_000)
 * cancel()
 */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout(callback, ms) {
    // Node caps timers at 2^31-1 ms (~24.8 days) and fires at once beyond it.
    const timer = setTimeout(callback, Math.min(Math.max(0, ms), 2 ** 31 - 1))
    timer.unref()
    return () => clearTimeout(timer)
  },
}

/** Resolves after `ms` on `clock`, or at once when `signal` aborts. */
export function sleep(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve()
    const done = () => {
      cancel()
      signal?.removeEventListener('abort', done)
      resolve()
    }
    const cancel = clock.setTimeout(done, ms)
    signal?.addEventListener('abort', done, { once: true })
  })
}
