import { sleep as clockSleep, systemClock } from '../runtime/clock.js'
import { isTransient } from './errorKind.js'

export { isTransient }

/** Waits `ms` milliseconds, or until `signal` aborts (then rejects). Injectable so retries can be tested without waiting. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>

export const sleep: Sleep = async (ms, signal) => {
  await clockSleep(systemClock, ms, signal)
  signal?.throwIfAborted()
}

export interface RetryOptions {
  /** First delay, ms (default 500); doubles each attempt. */
  initialDelay?: number | undefined
  /** Longest delay, ms (default 15 000). */
  maxDelay?: number | undefined
  /** Give up (rethrow) once this returns false; default: while the error is transient. */
  shouldRetry?: ((error: unknown, attempt: number) => boolean) | undefined
  /** Called before each wait. */
  onRetry?: ((error: unknown, attempt: number, delay: number) => void) | undefined
  signal?: AbortSignal | undefined
  sleep?: Sleep | undefined
}

/**
 * Runs `fn` until it succeeds, waiting with exponential backoff (and ±20 %
 * jitter, so agents that lost the same RPC do not come back in lockstep)
 * between attempts that failed with a transient error.
 *
 * @example
 * const task = await retry(() => getTask(client, { deployment, taskId }), { signal })
 */
export async function retry<T>(fn: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const {
    initialDelay = 500,
    maxDelay = 15_000,
    shouldRetry = (error) => isTransient(error),
    onRetry,
    signal,
    sleep: wait = sleep,
  } = options
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn()
    } catch (error) {
      if (signal?.aborted || !shouldRetry(error, attempt)) throw error
      const delay = backoffDelay(attempt, { initialDelay, maxDelay })
      onRetry?.(error, attempt, delay)
      await wait(delay, signal)
    }
  }
}

/**
 * The wait before retry number `attempt` (from 1): `initialDelay` doubled each attempt up to `maxDelay`, with
 * ±20 % jitter so that agents that lost the same RPC do not come back in lockstep.
 */
export function backoffDelay(attempt: number, { initialDelay = 500, maxDelay = 15_000 } = {}): number {
  const base = Math.min(maxDelay, initialDelay * 2 ** (attempt - 1))
  return Math.round(base * (0.8 + Math.random() * 0.4))
}
