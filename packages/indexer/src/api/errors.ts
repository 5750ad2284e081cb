/**
 * The API's errors: a request parameter that cannot be used (400) and an id
 * nothing answers to (404). Both name the parameter, so that a client can
 * point at the field; the body is `{ error: { parameter, message } }`.
 */

/** What the API answers with when a request fails. */
export interface ErrorBody {
  error: {
    /** The request parameter at fault (query or path), when one is. */
    parameter?: string
    message: string
    /** Of a 409 about a task: its status, which is why the request cannot be answered. */
    taskStatus?: string
  }
}

/** A request parameter that cannot be used: answered with 400. */
export class ParameterError extends Error {
  override name = 'ParameterError' as const
  readonly status = 400 as const
  readonly parameter: string

  /** `problem` says what is wrong and what is allowed; the message starts with the parameter's name. */
  constructor(parameter: string, problem: string) {
    super(`${parameter}: ${problem}`)
    this.parameter = parameter
  }

  body(): ErrorBody {
    return { error: { parameter: this.parameter, message: this.message } }
  }
}

/** An id (a path parameter) that names nothing indexed: answered with 404. */
export class NotFoundError extends Error {
  override name = 'NotFoundError' as const
  readonly status = 404 as const
  readonly parameter: string

  constructor(parameter: string, message: string) {
    super(message)
    this.parameter = parameter
  }

  body(): ErrorBody {
    return { error: { parameter: this.parameter, message: this.message } }
  }
}

/**
 * What the request names exists but is in no state to answer it (a task no
 * longer open, a source deactivated): answered with 409, naming the parameter.
 */
export class ConflictError extends Error {
  override name = 'ConflictError' as const
  readonly status = 409 as const
  readonly parameter: string
  readonly taskStatus: string | undefined

  constructor(parameter: string, message: string, taskStatus?: string) {
    super(message)
    this.parameter = parameter
    this.taskStatus = taskStatus
  }

  body(): ErrorBody {
    return {
      error: {
        parameter: this.parameter,
        message: this.message,
        ...(this.taskStatus !== undefined && { taskStatus: this.taskStatus }),
      },
    }
  }
}

/** The indexer has not indexed what the answer needs yet (just started): 503, so that clients read the chain. */
export class NotIndexedError extends Error {
  override name = 'NotIndexedError' as const
  readonly status = 503 as const

  constructor(what: string) {
    super(`${what} is not indexed yet: ask again once the indexer has caught up`)
  }

  body(): ErrorBody {
    return { error: { message: this.message } }
  }
}
