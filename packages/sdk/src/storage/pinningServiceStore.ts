import type { InvalidParametersErrorType } from '../errors/validation.js'
import type { ContentStore, ReadOptions, WriteOptions } from './ContentStore.js'
import { parseCid } from './cid.js'
import {
  type InvalidCidErrorType,
  PinFailedError,
  type PinFailedErrorType,
  PinningRateLimitedError,
  type PinningRateLimitedErrorType,
  PinningServiceError,
  type PinningServiceErrorType,
  PinningUnauthorizedError,
  type PinningUnauthorizedErrorType,
  PinTimeoutError,
  type PinTimeoutErrorType,
  type StorageRequestErrorType,
  type StorageTimeoutErrorType,
} from './errors.js'
import { baseUrl, discard, readLimited, timed } from './http.js'

/** Where a pin request stands at the service. */
export type PinStatusValue = 'queued' | 'pinning' | 'pinned' | 'failed'

/** A pin request as the service describes it (the API's `PinStatus`). */
export interface PinStatus {
  /** The service's id of this request: for `getPin`, and what `unpin` removes. */
  requestid: string
  status: PinStatusValue
  /** When the service received the request (RFC 3339). */
  created: string
  pin: { cid: string; name?: string; origins?: string[]; meta?: Record<string, string> }
  /** Multiaddrs of the service's nodes that will fetch the content. */
  delegates: string[]
  /** Vendor details, e.g. `status_details` with the reason of a failure. */
  info?: Record<string, string>
}

export interface PinOptions extends ReadOptions {
  /** The pin's name at the service (at most 255 characters). */
  name?: string | undefined
  /** Pin metadata, added to the store's `meta`. */
  meta?: Record<string, string> | undefined
  /** Wait until the service reports `pinned` (default: the store's `waitUntilPinned`). */
  waitUntilPinned?: boolean | undefined
}

export interface ListPinsOptions extends ReadOptions {
  /** Pins of these CIDs (at most 10). */
  cid?: string | readonly string[] | undefined
  name?: string | undefined
  /** Default: every status (the API's own default is `pinned` only). */
  status?: readonly PinStatusValue[] | undefined
  /** At most this many, newest first (1 to 1000, default 1000). */
  limit?: number | undefined
}

export interface PinningServiceStoreParameters {
  /** The store that holds the bytes: every write goes there first, and every read comes from it. */
  store: ContentStore
  /**
   * The Pinning Service API endpoint (the base of `/pins`), e.g. `https://api.pinata.cloud/psa`.
   */
  url: string
  /** The service's access token, sent as `Authorization: Bearer <accessToken>`. */
  accessToken: string
  /**
   * Public multiaddrs of a node that serves the wrapped store's content (`Pin.origins`, at most 20,
   * each ending in `/p2p/<peer id>`), so that the service fetches from it directly.
   */
  origins?: readonly string[] | undefined
  /** Metadata attached to every pin (`Pin.meta`), e.g. `{ app: 'gridforge' }`. */
  meta?: Record<string, string> | undefined
  /** Whether writes (and `pin`) wait until the service reports `pinned` (default `true`). */
  waitUntilPinned?: boolean | undefined
  /** How long to wait for `pinned` before `PinTimeoutError` (default 10 minutes). */
  pinTimeoutMs?: number | undefined
  /** Milliseconds between two status checks while waiting (default 2000). */
  pollIntervalMs?: number | undefined
  /** Limit for each request to the service (default 30 s). */
  timeoutMs?: number | undefined
  /** `fetch` to use (a mock in tests, an instrumented one). Defaults to `globalThis.fetch`. */
  fetch?: typeof globalThis.fetch | undefined
  /** Extra headers sent with every request to the service. */
  headers?: Record<string, string> | undefined
}

export type PinningServiceStoreReturnType = ContentStore & {
  /**
   * Asks the service to pin `cid` (reusing a request for the same CID that has not failed) and,
   * unless told not to, waits until it is `pinned`. Returns the request's last status.
   */
  pin(cid: string, options?: PinOptions): Promise<PinStatus>
  /** The status of one pin request (`GET /pins/{requestid}`). */
  getPin(requestId: string, options?: ReadOptions): Promise<PinStatus>
  /** The pin requests of this token, newest first (`GET /pins`). */
  listPins(options?: ListPinsOptions): Promise<PinStatus[]>
  /** Removes every pin request of `cid` (`DELETE /pins/{requestid}`) and returns how many there were. */
  unpin(cid: string, options?: ReadOptions): Promise<number>
}

/** Thrown by `pinningServiceStore()` itself. */
export type PinningServiceStoreErrorType = InvalidParametersErrorType

/** Errors `pin` (and so every write) may throw, besides the wrapped store's. */
export type PinningServicePinErrorType =
  | InvalidCidErrorType
  | PinningUnauthorizedErrorType
  | PinningRateLimitedErrorType
  | PinningServiceErrorType
  | PinFailedErrorType
  | PinTimeoutErrorType
  | StorageRequestErrorType
  | StorageTimeoutErrorType

/** Default limit for each request to a pinning service. */
export const DEFAULT_PINNING_TIMEOUT_MS = 30_000
/** Default time `pin` waits for `pinned`. */
export const DEFAULT_PIN_TIMEOUT_MS = 10 * 60_000

const statuses: readonly PinStatusValue[] = ['queued', 'pinning', 'pinned', 'failed']

/**
 * A {@link ContentStore} that pins what it stores to any service speaking the standard
 * [IPFS Pinning Service API](https://ipfs.github.io/pinning-services-api-spec/) (Pinata, and any
 * compliant service or self-hosted node). The bytes live in the wrapped `store` (a Kubo node, or an
 * `fsStore` served by a node the service can reach, given as `origins`); each write stores there,
 * then asks the service to pin the CID (`POST /pins`) and, by default, polls
 * `GET /pins/{requestid}` until the service reports `pinned`. Reads go to the wrapped store.
 *
 * The service refusing the token throws `PinningUnauthorizedError`, HTTP 429
 * `PinningRateLimitedError` (while waiting, the service's `Retry-After` is honoured instead), a
 * `failed` pin `PinFailedError`, no `pinned` within `pinTimeoutMs` `PinTimeoutError` (the request
 * stays at the service), other answers `PinningServiceError`.
 *
 * @example
 * import { kuboStore, pinningServiceStore } from '@gridforge/sdk/storage'
 *
 * const store = pinningServiceStore({
 *   store: kuboStore({ url: 'http://127.0.0.1:5001' }),
 *   url: 'https://api.pinata.cloud/psa',
 *   accessToken: process.env.PINATA_JWT!,
 *   origins: ['/dns4/node.example.com/tcp/4001/p2p/12D3KooW…'],
 * })
 * const cid = await store.putJson({ hello: 'world' }) // stored on the node, then pinned at Pinata
 */
export function pinningServiceStore(
  parameters: PinningServiceStoreParameters,
): PinningServiceStoreReturnType {
  const { store } = parameters
  const { base, display } = baseUrl(parameters.url, 'pinningServiceStore')
  const fetch = parameters.fetch ?? globalThis.fetch
  const timeoutMs = parameters.timeoutMs ?? DEFAULT_PINNING_TIMEOUT_MS
  const pinTimeoutMs = parameters.pinTimeoutMs ?? DEFAULT_PIN_TIMEOUT_MS
  const pollIntervalMs = parameters.pollIntervalMs ?? 2_000
  const waitByDefault = parameters.waitUntilPinned ?? true
  const headers = {
    ...parameters.headers,
    accept: 'application/json',
    authorization: `Bearer ${parameters.accessToken}`,
  }

  /** One request to the service; a failing status becomes a typed error. */
  async function request(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    signal: AbortSignal | undefined,
    body?: unknown,
  ): Promise<unknown> {
    const url = `${display}${path}`
    return timed(url, { timeoutMs, signal }, async (combined) => {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: combined,
      })
      if (!response.ok) throw await serviceError(url, response)
      if (method === 'DELETE') {
        await discard(response)
        return undefined
      }
      const text = await readText(response)
      try {
        return JSON.parse(text)
      } catch {
        throw new PinningServiceError({
          url,
          status: response.status,
          reason: 'the answer is not JSON',
          details: text.slice(0, 200),
        })
      }
    })
  }

  async function getPin(requestId: string, options: ReadOptions = {}): Promise<PinStatus> {
    const path = `/pins/${encodeURIComponent(requestId)}`
    return pinStatusOf(`${display}${path}`, await request('GET', path, options.signal))
  }

  async function listPins(options: ListPinsOptions = {}): Promise<PinStatus[]> {
    const query = new URLSearchParams()
    const cids =
      options.cid === undefined ? [] : typeof options.cid === 'string' ? [options.cid] : options.cid
    if (cids.length > 0) query.set('cid', cids.map((cid) => parseCid(cid).toString()).join(','))
    if (options.name !== undefined) query.set('name', options.name)
    query.set('status', (options.status ?? statuses).join(','))
    query.set('limit', String(options.limit ?? 1000))
    const path = `/pins?${query.toString()}`
    const answer = await request('GET', path, options.signal)
    const results = (answer as { results?: unknown } | null)?.results
    if (!Array.isArray(results))
      throw new PinningServiceError({
        url: `${display}${path}`,
        status: 200,
        reason: 'the answer has no `results` list',
      })
    return results.map((result) => pinStatusOf(`${display}${path}`, result))
  }

  /** Polls until the request is `pinned`; `failed` and the deadline throw. */
  async function waitUntilPinned(status: PinStatus, signal: AbortSignal | undefined): Promise<PinStatus> {
    const deadline = Date.now() + pinTimeoutMs
    let current = status
    let wait = pollIntervalMs
    for (;;) {
      if (current.status === 'pinned') return current
      if (current.status === 'failed')
        throw new PinFailedError({
          cid: current.pin.cid,
          requestId: current.requestid,
          details: current.info?.status_details,
        })
      const remaining = deadline - Date.now()
      if (remaining <= 0)
        throw new PinTimeoutError({
          cid: current.pin.cid,
          requestId: current.requestid,
          status: current.status,
          timeoutMs: pinTimeoutMs,
        })
      await sleep(Math.min(wait, remaining), signal)
      try {
        current = await getPin(current.requestid, { signal })
        wait = pollIntervalMs
      } catch (error) {
        // Waiting is what the caller asked for: a rate limit while polling only slows it down.
        if (!(error instanceof PinningRateLimitedError)) throw error
        wait = Math.max(error.retryAfterMs ?? 2 * pollIntervalMs, pollIntervalMs)
      }
    }
  }

  async function pin(cid: string, options: PinOptions = {}): Promise<PinStatus> {
    const canonical = parseCid(cid).toString()
    // A request for this CID that has not failed is reused: storing the same content twice
    // (equal JSON documents, a retried upload) does not queue a second pin.
    const existing = (
      await listPins({ cid: canonical, status: ['pinned', 'pinning', 'queued'], signal: options.signal })
    ).find((status) => sameCid(status.pin.cid, canonical))
    const meta = { ...parameters.meta, ...options.meta }
    const status =
      existing ??
      pinStatusOf(
        `${display}/pins`,
        await request('POST', '/pins', options.signal, {
          cid: canonical,
          ...(options.name === undefined ? {} : { name: options.name }),
          ...(parameters.origins === undefined ? {} : { origins: [...parameters.origins] }),
          ...(Object.keys(meta).length === 0 ? {} : { meta }),
        }),
      )
    return (options.waitUntilPinned ?? waitByDefault) ? waitUntilPinned(status, options.signal) : status
  }

  const pinned = async (cid: string, options: WriteOptions | undefined) => {
    await pin(cid, { signal: options?.signal })
    return cid
  }

  return {
    description: `${store.description}, pinned to ${display}`,
    put: async (content, options) => pinned(await store.put(content, options), options),
    putJson: async (value, options) => pinned(await store.putJson(value, options), options),
    putDirectory: async (entries, options) => pinned(await store.putDirectory(entries, options), options),
    get: (cid, options) => store.get(cid, options),
    getBlock: (cid, options) => store.getBlock(cid, options),
    has: (cid, options) => store.has(cid, options),
    ls: (cid, options) => store.ls(cid, options),
    pin,
    getPin,
    listPins,
    async unpin(cid, options = {}) {
      const requests = await listPins({ cid, signal: options.signal })
      for (const { requestid } of requests)
        await request('DELETE', `/pins/${encodeURIComponent(requestid)}`, options.signal)
      return requests.length
    },
  }
}

/** The typed error of a failing answer (its body is the API's `Failure`: `{ error: { reason, details } }`). */
async function serviceError(url: string, response: Response): Promise<Error> {
  const text = await readText(response).catch(() => '')
  let reason = response.statusText || `HTTP ${response.status}`
  let details: string | undefined = text.trim().slice(0, 500) || undefined
  try {
    const failure = (JSON.parse(text) as { error?: { reason?: unknown; details?: unknown } }).error
    if (typeof failure?.reason === 'string') reason = failure.reason
    details = typeof failure?.details === 'string' ? failure.details : undefined
  } catch {}
  if (response.status === 401 || response.status === 403)
    return new PinningUnauthorizedError({ url, status: response.status, details })
  if (response.status === 429)
    return new PinningRateLimitedError({ url, retryAfterMs: retryAfter(response.headers.get('retry-after')) })
  return new PinningServiceError({ url, status: response.status, reason, details })
}

/** `Retry-After` in milliseconds: seconds, or an HTTP date. */
function retryAfter(header: string | null): number | undefined {
  if (header === null) return undefined
  const seconds = Number(header)
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000
  const date = Date.parse(header)
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now())
}

async function readText(response: Response): Promise<string> {
  const bytes = await readLimited(response, 1024 * 1024, () => new Error('the answer is over 1 MiB'))
  return new TextDecoder().decode(bytes)
}

/** Checks the fields this store relies on; anything else from the service is kept as it is. */
function pinStatusOf(url: string, value: unknown): PinStatus {
  const status = value as Partial<PinStatus> | null
  if (
    typeof status?.requestid !== 'string' ||
    !statuses.includes(status.status as PinStatusValue) ||
    typeof status.pin?.cid !== 'string'
  )
    throw new PinningServiceError({
      url,
      status: 200,
      reason: 'the answer is not a PinStatus',
      details: JSON.stringify(value)?.slice(0, 200),
    })
  return { delegates: [], created: '', ...status } as PinStatus
}

/** Services may answer with another form of the CID (CIDv0, another base). */
function sameCid(a: string, b: string): boolean {
  try {
    return parseCid(a).toV1().equals(parseCid(b).toV1())
  } catch {
    return false
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  signal?.throwIfAborted()
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal?.reason)
    }
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}
