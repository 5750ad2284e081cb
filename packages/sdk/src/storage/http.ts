import { BaseError } from '../errors/base.js'
import { InvalidParametersError } from '../errors/validation.js'
import { StorageRequestError, StorageTimeoutError } from './errors.js'

/** Options shared by the HTTP stores. */
export interface HttpClientParameters {
  /** Base URL of the node, e.g. `http://127.0.0.1:5001` (Kubo RPC) or `https://trustless-gateway.link`. */
  url: string
  /** `fetch` to use (a mock in tests, an instrumented one, or a polyfill). Defaults to `globalThis.fetch`. */
  fetch?: typeof globalThis.fetch | undefined
  /** Headers sent with every request, e.g. `{ authorization: 'Bearer …' }`. */
  headers?: Record<string, string> | undefined
  /** Limit in milliseconds for each request (headers and body). */
  timeoutMs?: number | undefined
}

/** The base URL without a trailing `/`, and a form of it safe to print (no credentials). */
export function baseUrl(url: string, action: string): { base: string; display: string } {
  let parsed: URL | undefined
  try {
    parsed = new URL(url)
  } catch {}
  if (parsed === undefined || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:'))
    throw new InvalidParametersError({
      action,
      fields: [
        { path: 'url', message: 'must be an absolute http:// or https:// URL, e.g. http://127.0.0.1:5001' },
      ],
    })
  const base = parsed.toString().replace(/\/+$/, '')
  parsed.username = ''
  parsed.password = ''
  return { base, display: parsed.toString().replace(/\/+$/, '') }
}

/**
 * Runs `run` (a request and the reading of its body) under one signal combining the caller's
 * `signal` and a `timeoutMs` timer, and turns failures into typed errors: the timer into
 * {@link StorageTimeoutError}, network failures into {@link StorageRequestError}; the caller's
 * abort reason is rethrown as is.
 */
export async function timed<T>(
  display: string,
  options: { timeoutMs?: number | undefined; signal?: AbortSignal | undefined },
  run: (signal: AbortSignal | undefined) => Promise<T>,
): Promise<T> {
  options.signal?.throwIfAborted()
  const timeout = options.timeoutMs === undefined ? undefined : AbortSignal.timeout(options.timeoutMs)
  const signals = [options.signal, timeout].filter((signal): signal is AbortSignal => signal !== undefined)
  const signal = signals.length <= 1 ? signals[0] : AbortSignal.any(signals)
  try {
    return await run(signal)
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason
    if (timeout?.aborted)
      throw new StorageTimeoutError({ url: display, timeoutMs: options.timeoutMs as number })
    if (error instanceof BaseError) throw error
    // A failure of our own (an invalid chunk in a streamed upload body) surfaces as a fetch TypeError's cause.
    const own = ownError(error)
    if (own !== undefined) throw own
    throw new StorageRequestError({ url: display, cause: error })
  }
}

function ownError(error: unknown, depth = 0): BaseError | undefined {
  if (depth > 8 || error === null || typeof error !== 'object') return undefined
  if (error instanceof BaseError) return error
  return 'cause' in error ? ownError(error.cause, depth + 1) : undefined
}

/** Reads a response body, giving up (and cancelling it) once it passes `limit` bytes. */
export async function readLimited(
  response: Response,
  limit: number,
  onLimit: () => Error,
): Promise<Uint8Array> {
  if (response.body === null) return new Uint8Array()
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let length = 0
  try {
    while (true) {
      const { done, value } = await reader.read()
      if (done) break
      length += value.byteLength
      if (length > limit) {
        await reader.cancel().catch(() => {})
        throw onLimit()
      }
      chunks.push(value)
    }
  } finally {
    reader.releaseLock()
  }
  if (chunks.length === 1) return chunks[0] as Uint8Array
  const bytes = new Uint8Array(length)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.byteLength
  }
  return bytes
}

/** Discards a response body (so that the connection is released). */
export async function discard(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => {})
}
