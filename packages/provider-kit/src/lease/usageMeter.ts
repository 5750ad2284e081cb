import type { Clock } from '../runtime/clock.js'

/** One exchange the gateway served for a lease: an HTTP request, or a WebSocket from upgrade to close. */
export interface LeaseExchange {
  leaseId: bigint
  kind: 'http' | 'websocket'
  /** Who proxied it: the gateway, or its data path (nginx) on its own. */
  via: 'gateway' | 'data path'
  /** The service's status (101 for a WebSocket it accepted); 502 when it could not be reached. */
  status: number
  /** Bytes from the renter to the service (bodies and frames, not the gateway's headers). */
  bytesIn: number
  /** Bytes from the service to the renter. */
  bytesOut: number
  /** Milliseconds since the epoch. */
  startedAt: number
  endedAt: number
}

/** What a lease has used through the gateway since it started serving it. */
export interface LeaseUsage {
  leaseId: bigint
  requests: number
  webSockets: number
  bytesIn: number
  bytesOut: number
  /**
   * Milliseconds during which at least one exchange was open: the time the
   * renter was being served, however many connections at once.
   */
  servedMs: number
  /** Exchanges open now. */
  open: number
}

/**
 * Counts, per lease, what the gateway served: the figures a provider checks
 * a renter's usage acknowledgements against. Each finished exchange is also
 * passed to `onExchange`.
 */
export interface UsageMeter {
  /** Marks an exchange open; the returned function closes it with its figures. */
  open(
    leaseId: bigint,
    kind: LeaseExchange['kind'],
  ): (figures: Pick<LeaseExchange, 'status' | 'bytesIn' | 'bytesOut'>) => void
  /** Counts an exchange another data path served (see `LeaseDataPath`), told once it ended. */
  record(exchange: LeaseExchange): void
  usage(leaseId: bigint): LeaseUsage
}

export function usageMeter({
  clock,
  onExchange,
}: {
  clock: Clock
  onExchange?: ((exchange: LeaseExchange) => void) | undefined
}): UsageMeter {
  const leases = new Map<bigint, LeaseUsage & { openSince: number; recordedUntil: number }>()
  const entry = (leaseId: bigint) => {
    let found = leases.get(leaseId)
    if (found === undefined) {
      found = {
        leaseId,
        requests: 0,
        webSockets: 0,
        bytesIn: 0,
        bytesOut: 0,
        servedMs: 0,
        open: 0,
        openSince: 0,
        recordedUntil: 0,
      }
      leases.set(leaseId, found)
    }
    return found
  }
  return {
    open(leaseId, kind) {
      const lease = entry(leaseId)
      const startedAt = clock.now()
      if (lease.open++ === 0) lease.openSince = startedAt
      let closed = false
      return ({ status, bytesIn, bytesOut }) => {
        if (closed) return
        closed = true
        const endedAt = clock.now()
        if (--lease.open === 0) lease.servedMs += endedAt - lease.openSince
        if (kind === 'http') lease.requests++
        else lease.webSockets++
        lease.bytesIn += bytesIn
        lease.bytesOut += bytesOut
        try {
          onExchange?.({ leaseId, kind, via: 'gateway', status, bytesIn, bytesOut, startedAt, endedAt })
        } catch {
          // A failing hook must not take the gateway down with it.
        }
      }
    },
    record(exchange) {
      const lease = entry(exchange.leaseId)
      // Recorded exchanges arrive as they end: time already counted is not counted twice.
      lease.servedMs += Math.max(0, exchange.endedAt - Math.max(exchange.startedAt, lease.recordedUntil))
      lease.recordedUntil = Math.max(lease.recordedUntil, exchange.endedAt)
      if (exchange.kind === 'http') lease.requests++
      else lease.webSockets++
      lease.bytesIn += exchange.bytesIn
      lease.bytesOut += exchange.bytesOut
      try {
        onExchange?.(exchange)
      } catch {
        // As for the gateway's own exchanges.
      }
    },
    usage(leaseId) {
      const { openSince, recordedUntil: _recordedUntil, ...lease } = entry(leaseId)
      return { ...lease, servedMs: lease.servedMs + (lease.open > 0 ? clock.now() - openSince : 0) }
    },
  }
}
