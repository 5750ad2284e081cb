/** Options every Gridforge error accepts. */
export interface BaseErrorParameters {
  cause?: unknown
  /** Technical detail (a revert reason, an HTTP status, …) shown after the message. */
  details?: string | undefined
  /** What to do next, one line each. */
  metaMessages?: readonly string[] | undefined
  name?: string | undefined
}

export type BaseErrorType = BaseError & { name: 'GridforgeError' }

/**
 * The base of every error the SDK throws, shaped like viem's: a one-line
 * `shortMessage`, `metaMessages` that say what to do next, the `cause`, and
 * `walk()` to find a cause of a given kind.
 *
 * @example
 * import { BaseError } from '@gridforge/sdk'
 *
 * try {
 *   await client.submitTask({ sourceId: 1, input: 'bafy…', maxPayment: '5' })
 * } catch (error) {
 *   if (error instanceof BaseError) console.error(error.shortMessage, error.metaMessages)
 * }
 */
export class BaseError extends Error {
  override name = 'GridforgeError'
  readonly shortMessage: string
  readonly details: string
  readonly metaMessages: readonly string[]

  constructor(shortMessage: string, parameters: BaseErrorParameters = {}) {
    const details =
      parameters.details ??
      (parameters.cause instanceof BaseError
        ? parameters.cause.details
        : parameters.cause instanceof Error
          ? parameters.cause.message
          : '')
    const message = [
      shortMessage,
      ...(parameters.metaMessages !== undefined && parameters.metaMessages.length > 0
        ? ['', ...parameters.metaMessages]
        : []),
      ...(details !== '' && details !== shortMessage ? ['', `Details: ${details}`] : []),
    ].join('\n')
    super(message, parameters.cause === undefined ? undefined : { cause: parameters.cause })
    this.shortMessage = shortMessage
    this.details = details
    this.metaMessages = parameters.metaMessages ?? []
    if (parameters.name !== undefined) this.name = parameters.name
  }

  /** The deepest cause, or the first one (this error included) for which `predicate` is true. */
  walk(predicate?: (error: unknown) => boolean): unknown {
    return walk(this, predicate)
  }
}

function walk(error: unknown, predicate?: (error: unknown) => boolean): unknown {
  if (predicate?.(error)) return error
  if (error !== null && typeof error === 'object' && 'cause' in error && error.cause !== undefined) {
    return walk(error.cause, predicate)
  }
  return predicate === undefined ? error : null
}
