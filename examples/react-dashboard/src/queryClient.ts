import { BaseError, ContractRevertedError, InvalidParametersError } from '@gridforge/sdk'
import { QueryClient } from '@tanstack/react-query'
import { hashFn } from 'wagmi/query'

/**
 * The app's TanStack query client. Query keys hold bigints (task ids), so every key is hashed
 * the way wagmi does (`JSON.stringify` cannot). A revert (no such task) or a bad parameter gives
 * the same answer every time: shown at once, not retried; network failures are retried.
 */
export const queryClient = new QueryClient({
  defaultOptions: { queries: { queryKeyHashFn: hashFn, retry: shouldRetry } },
})

function shouldRetry(failureCount: number, error: unknown): boolean {
  const final =
    error instanceof BaseError &&
    error.walk(
      (cause) => cause instanceof ContractRevertedError || cause instanceof InvalidParametersError,
    ) !== null
  return !final && failureCount < 3
}
