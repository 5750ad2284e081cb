import { ContractRevertedError, InvalidParametersError } from '@gridforge/sdk'
import { sleep as clockSleep, systemClock } from '../runtime/clock.js'

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
      const base = Math.min(maxDelay, initialDelay * 2 ** (attempt - 1))
      const delay = Math.round(base * (0.8 + Math.random() * 0.4))
      onRetry?.(error, attempt, delay)
      await wait(delay, signal)
    }
  }
}

/**
 * Whether an error may go away by trying again: network failures, timeouts,
 * an RPC or store that is down. Not: a contract revert, invalid input, or
 * content that failed verification — repeating those gives the same answer.
 */
export function isTransient(error: unknown): boolean {
  if (error instanceof ContractRevertedError || error instanceof InvalidParametersError) return false
  // A bare TypeError or RangeError is a bug, not an outage (network failures reach here wrapped by viem or the store).
  if (error instanceof TypeError || error instanceof RangeError || error instanceof SyntaxError) return false
  const names = new Set<string>()
  for (let cause: unknown = error; cause instanceof Error; cause = cause.cause) names.add(cause.name)
  const permanent = [
    'ContentVerificationError',
    'ContentTooLargeError',
    'InvalidDagError',
    'InvalidCidError',
    'UnsupportedCidError',
    'SourceMetadataTooLargeError',
    'ImageDigestMismatchError',
    'TaskRefusedError',
    'TransactionRevertedError',
    'ContractFunctionRevertedError',
  ]
  return !permanent.some((name) => names.has(name))
}
