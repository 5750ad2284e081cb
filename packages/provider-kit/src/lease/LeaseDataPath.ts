import type { Address } from 'viem'
import type { LeaseUpstream } from '../runtime/LeaseRuntime.js'

/**
 * What a data path in front of the gateway may do on its own for a lease: proxy
 * a plain HTTP request straight to `upstream` when it carries a valid session
 * token of `renter` for the lease, for the next `validMs` milliseconds. Every
 * other request (no pass, an expired one, no or another token, a WebSocket, the
 * gateway's own paths) goes to the gateway, which answers it as it always does.
 */
export interface LeasePass {
  upstream: LeaseUpstream
  renter: Address
  validMs: number
}

/**
 * A data path in front of a lease gateway (see `startNginxDataPath`): the
 * gateway hands it a pass per lease it would proxy now, and takes it back
 * (`undefined`) the moment it would not (lease ended, renter changed,
 * acknowledgements overdue, container stopped).
 */
export interface LeaseDataPath {
  setPass(leaseId: bigint, pass: LeasePass | undefined): void
}
