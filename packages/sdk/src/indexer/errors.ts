import { BaseError } from '../errors/base.js'

export type IndexerRequestErrorType = IndexerRequestError & { name: 'IndexerRequestError' }

/**
 * The indexer gave no usable answer: it could not be reached, it did not answer
 * in time, or it failed (HTTP 5xx). Actions given an indexer read the chain over
 * RPC instead, and pass this error to the indexer's `onFallback`.
 */
export class IndexerRequestError extends BaseError {
  override name = 'IndexerRequestError' as const
  /** The request, without credentials: `GET http://127.0.0.1:42069/tasks?client=0x…`. */
  readonly request: string
  /** The HTTP status of a failed answer; undefined when none came. */
  readonly status: number | undefined

  constructor({
    request,
    status,
    timeoutMs,
    cause,
  }: { request: string; status?: number | undefined; timeoutMs?: number | undefined; cause?: unknown }) {
    super(
      status !== undefined
        ? `The indexer failed to answer ${request} (HTTP ${status})`
        : timeoutMs !== undefined
          ? `The indexer did not answer ${request} within ${timeoutMs} ms`
          : `The indexer could not be reached: ${request}`,
      {
        cause,
        metaMessages:
          status !== undefined
            ? ["Check the indexer's log: it logs what failed."]
            : ['Check that the indexer runs (`pnpm indexer`) and that its URL is reachable from here.'],
      },
    )
    this.request = request
    this.status = status
  }
}

export type IndexerResponseErrorType = IndexerResponseError & { name: 'IndexerResponseError' }

/**
 * The indexer answered with something the SDK cannot read: a status other than
 * 200 or 400 (a URL that is not the indexer's API answers 404), or a body that
 * is not what its API describes (another version of the indexer). Actions given
 * an indexer read the chain over RPC instead, and pass this error to `onFallback`.
 */
export class IndexerResponseError extends BaseError {
  override name = 'IndexerResponseError' as const
  readonly request: string
  readonly status: number
  /** The answer's JSON body, when it had one (an error's `{ error: { parameter, message } }`). */
  readonly body: unknown

  constructor({
    request,
    status,
    problem,
    cause,
    body,
  }: { request: string; status: number; problem: string; cause?: unknown; body?: unknown }) {
    super(`The indexer's answer to ${request} cannot be read: ${problem}`, {
      cause,
      metaMessages: [
        status === 404
          ? 'Is this the URL of the Gridforge indexer (its routes are listed at /openapi.json)?'
          : 'Run an indexer of the same release as this SDK (its API is described at /openapi.json).',
      ],
    })
    this.request = request
    this.status = status
    this.body = body
  }
}

export type IndexerParameterErrorType = IndexerParameterError & { name: 'IndexerParameterError' }

/**
 * The indexer refused a request parameter (HTTP 400). Not a reason to read the
 * chain instead: the same parameter is wrong whichever way it is read.
 * `parameter` names it, as the indexer's `{ error: { parameter, message } }` does.
 */
export class IndexerParameterError extends BaseError {
  override name = 'IndexerParameterError' as const
  readonly request: string
  /** The request parameter at fault (a query or path parameter of the indexer's API). */
  readonly parameter: string | undefined

  constructor({
    request,
    parameter,
    message,
  }: { request: string; parameter: string | undefined; message: string }) {
    super(
      parameter === undefined
        ? `The indexer refused ${request}: ${message}`
        : `The indexer refused \`${parameter}\`: ${message}`,
      {
        details: request,
        metaMessages: [
          'Fix that parameter; the indexer lists what each route takes at /openapi.json.',
          'A parameter the SDK accepts and the indexer refuses means an indexer of another release: upgrade it.',
        ],
      },
    )
    this.request = request
    this.parameter = parameter
  }
}
