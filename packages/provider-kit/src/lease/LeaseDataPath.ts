import type { LeaseUpstream } from '../runtime/LeaseRuntime.js'

/**
 * What a data path in front of the gateway may do on its own for a lease, for
 * the next `validMs` milliseconds: proxy a plain HTTP request straight to
 * `upstream` when it carries one of `sessions`, the session tokens the gateway
 * itself verified for the lease and its renter (named by their mac, the part
 * that cannot be forged). Every other request (no pass, an expired one, a
 * token the gateway has not verified yet, a WebSocket, the gateway's own paths)
 * goes to the gateway, which answers it as it always does.
 */
export interface LeasePass {
  upstream: LeaseUpstream
  validMs: number
  /** The lease's origin (`http://7.localhost:8480`): a session cookie sent from elsewhere is the gateway's to judge. */
  origin: string
  /** The gateway's session cookie. */
  cookieName: string
  /** Verified sessions: each token's mac, and milliseconds until it expires. Secrets: they open the lease. */
  sessions: readonly { mac: string; validMs: number }[]
}

/**
 * A data path in front of a lease gateway (see `nginxDataPath`): the gateway
 * hands it a pass per lease it would proxy now, and takes it back
 * (`undefined`) the moment it would not (lease ended, acknowledgements overdue,
 * container stopped).
 */
export interface LeaseDataPath {
  setPass(leaseId: bigint, pass: LeasePass | undefined): void
}
