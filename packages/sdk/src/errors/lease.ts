import { BaseError } from './base.js'

export type LeaseNotFoundErrorType = LeaseNotFoundError & { name: 'LeaseNotFoundError' }

/** No lease with this id exists in the deployment's lease market. */
export class LeaseNotFoundError extends BaseError {
  override name = 'LeaseNotFoundError' as const
  readonly leaseId: bigint

  constructor({ leaseId, cause }: { leaseId: bigint; cause?: unknown }) {
    super(`Lease ${leaseId} does not exist.`, {
      cause,
      metaMessages: ['Check the lease id and that the deployment is the one the lease was requested on.'],
    })
    this.leaseId = leaseId
  }
}

export type LeaseGatewayErrorType = LeaseGatewayError & { name: 'LeaseGatewayError' }

/** A provider's lease gateway refused a request or could not be reached. */
export class LeaseGatewayError extends BaseError {
  override name = 'LeaseGatewayError' as const
  /** The HTTP status, or `undefined` when the gateway could not be reached. */
  readonly status: number | undefined
  readonly url: string

  constructor({
    url,
    status,
    reason,
    cause,
  }: { url: string; status?: number | undefined; reason: string; cause?: unknown }) {
    super(
      `The lease gateway at ${url} ${status === undefined ? 'could not be reached' : `answered ${status}`}: ${reason}`,
      {
        cause,
        metaMessages: [gatewayAdvice(status)],
      },
    )
    this.status = status
    this.url = url
  }
}

/** What a renter can do about each answer of a gateway. */
function gatewayAdvice(status: number | undefined): string {
  switch (status) {
    case undefined:
      return 'Check the gateway URL (the provider publishes it) and your connection, then try again.'
    case 401:
      return 'Sign in again (signInToLease): the session expired or the nonce was used.'
    case 403:
      return "Sign in with the lease's renter account, from the lease's own origin."
    case 404:
      return 'Check the lease id and the gateway: this gateway does not serve that lease.'
    case 409:
      return 'The gateway holds a newer acknowledgement: sign one with a later `at` and at least as many seconds.'
    case 410:
      return 'The lease is not active (not accepted yet, ended or settled): read it with getLease.'
    case 422:
      return "Sign acknowledgements with the lease's ackSigner (the session key named at request)."
    default:
      return 'Try again later; if it persists, tell the provider.'
  }
}
