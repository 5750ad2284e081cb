import * as z from 'zod/mini'
import { InvalidParametersError, type InvalidParametersErrorType } from '../errors/validation.js'
import {
  IndexerParameterError,
  type IndexerParameterErrorType,
  IndexerRequestError,
  type IndexerRequestErrorType,
  IndexerResponseError,
  type IndexerResponseErrorType,
} from './errors.js'

/** Why an action read the chain over RPC although it was given an indexer. */
export interface IndexerFallback {
  /** The action, e.g. `listTasks`. */
  action: string
  /** What went wrong with the indexer. */
  error: IndexerRequestError | IndexerResponseError
}

export type CreateIndexerClientParameters = {
  /** Base URL of the indexer's REST API, e.g. `http://127.0.0.1:42069`. */
  url: string
  /** `fetch` to use (a mock in tests, an instrumented one, or a polyfill). Defaults to `globalThis.fetch`. */
  fetch?: typeof globalThis.fetch | undefined
  /** Headers sent with every request, e.g. `{ authorization: 'Bearer …' }`. */
  headers?: Record<string, string> | undefined
  /**
   * Limit in milliseconds for each request (default 10,000): past it the
   * request counts as failed, and actions read the chain instead.
   */
  timeoutMs?: number | undefined
  /**
   * Called when an action reads the chain over RPC because the indexer could
   * not answer (unreachable, too slow, HTTP 5xx, or an answer of another API
   * version). Without it the fallback is silent.
   */
  onFallback?: ((fallback: IndexerFallback) => void) | undefined
}

/** A GET of the indexer's API: the path, its query parameters (undefined ones are left out), and the body's schema. */
export interface IndexerRequest<schema extends z.ZodMiniType> {
  path: string
  query?: Record<string, string | undefined> | undefined
  schema: schema
  signal?: AbortSignal | undefined
}

/** An indexer's REST API, as list and statistics actions read it (see `createIndexerClient`). */
export interface IndexerClient {
  /** The base URL, without credentials. */
  url: string
  onFallback: ((fallback: IndexerFallback) => void) | undefined
  /** GETs a route and parses its JSON body with `schema`. */
  get<schema extends z.ZodMiniType>(request: IndexerRequest<schema>): Promise<z.output<schema>>
}

export type CreateIndexerClientReturnType = IndexerClient

export type CreateIndexerClientErrorType = InvalidParametersErrorType

/** What `IndexerClient.get` throws. */
export type IndexerErrorType = IndexerRequestErrorType | IndexerResponseErrorType | IndexerParameterErrorType

/** The body of the indexer's 400 and 404 answers. */
const errorBody = /* @__PURE__ */ z.object({
  error: z.object({ parameter: z.optional(z.string()), message: z.string() }),
})

/**
 * A client of the Gridforge indexer's REST API (`@gridforge/indexer`). Pass it,
 * or just its URL, as `indexer` to the list and statistics actions
 * (`listTasks`, `listLeases`, `listSources`, `getNetworkStats`) or to `gridforgeActions`:
 * they read the indexer, and the chain over RPC when it cannot answer.
 *
 * @example
 * import { createIndexerClient, gridforgeActions } from '@gridforge/sdk'
 *
 * const indexer = createIndexerClient({
 *   url: 'http://127.0.0.1:42069',
 *   onFallback: ({ action, error }) => console.warn(`${action} read the chain: ${error.shortMessage}`),
 * })
 * const gridforge = client.extend(gridforgeActions({ deployment, indexer }))
 * const open = await gridforge.listTasks({ status: 'Open' })
 */
export function createIndexerClient(
  parameters: CreateIndexerClientParameters,
): CreateIndexerClientReturnType {
  const { timeoutMs = 10_000, onFallback } = parameters
  const { base, authorization } = baseUrl(parameters.url)
  const headers = { accept: 'application/json', ...authorization, ...parameters.headers }
  const fetchFn = parameters.fetch ?? globalThis.fetch
  return {
    url: base,
    onFallback,
    async get({ path, query = {}, schema, signal }) {
      const search = new URLSearchParams(
        Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined),
      ).toString()
      const target = `${path}${search === '' ? '' : `?${search}`}`
      const request = `GET ${base}${target}`
      const timeout = AbortSignal.timeout(timeoutMs)
      let response: Response
      let body: unknown
      try {
        response = await fetchFn(`${base}${target}`, {
          headers,
          signal: signal === undefined ? timeout : AbortSignal.any([signal, timeout]),
        })
        if (response.status >= 500) throw new IndexerRequestError({ request, status: response.status })
        body = await response.json().catch((cause: unknown) => {
          // A body cut short by the timeout (or the caller) is no answer, not a malformed one.
          if (timeout.aborted || signal?.aborted) throw cause
          throw new IndexerResponseError({ request, status: response.status, problem: 'not JSON', cause })
        })
      } catch (error) {
        if (signal?.aborted) throw signal.reason
        if (error instanceof IndexerRequestError || error instanceof IndexerResponseError) throw error
        throw new IndexerRequestError({
          request,
          timeoutMs: timeout.aborted ? timeoutMs : undefined,
          cause: error,
        })
      }
      if (response.status === 400) {
        const refusal = errorBody.safeParse(body)
        throw new IndexerParameterError({
          request,
          parameter: refusal.data?.error.parameter,
          message: refusal.data?.error.message ?? JSON.stringify(body),
        })
      }
      if (response.status !== 200) {
        const message = errorBody.safeParse(body).data?.error.message
        throw new IndexerResponseError({
          request,
          status: response.status,
          problem: `HTTP ${response.status}${message === undefined ? '' : `: ${message}`}`,
          body,
        })
      }
      const parsed = schema.safeParse(body)
      if (!parsed.success) {
        const issue = parsed.error.issues[0]
        throw new IndexerResponseError({
          request,
          status: 200,
          problem: `${issue?.path.join('.') || '(body)'}: ${issue?.message}`,
          cause: parsed.error,
        })
      }
      return parsed.data
    },
  }
}

/**
 * The base URL without a trailing `/` nor credentials (`fetch` refuses URLs
 * with them, and messages print the URL): those become a Basic authorization.
 */
function baseUrl(url: string): { base: string; authorization: { authorization: string } | undefined } {
  let parsed: URL | undefined
  try {
    parsed = new URL(url)
  } catch {}
  if (parsed === undefined || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:'))
    throw new InvalidParametersError({
      action: 'createIndexerClient',
      fields: [
        {
          path: 'url',
          message: `must be an absolute http:// or https:// URL, e.g. http://127.0.0.1:42069, got ${JSON.stringify(url)}`,
        },
      ],
    })
  const credentials =
    parsed.username === '' && parsed.password === ''
      ? undefined
      : `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`
  parsed.username = ''
  parsed.password = ''
  return {
    base: parsed.toString().replace(/\/+$/, ''),
    authorization: credentials === undefined ? undefined : { authorization: `Basic ${btoa(credentials)}` },
  }
}
