import type { Socket } from 'node:net'
import type { Logger } from '../logger.js'
import type { Clock } from '../runtime/clock.js'
import type { LeaseSession } from './sessionToken.js'

/**
 * The WebSockets the gateway holds open, per lease, with the session that
 * opened each. A WebSocket outlives the request that opened it, so every
 * `intervalMs` each one is checked again and cut once `refusal` says why
 * (its session expired, its lease ended).
 */
export interface OpenWebSockets {
  add(leaseId: bigint, socket: Socket, session: LeaseSession): void
  /** Cuts every open WebSocket of the lease. */
  cut(leaseId: bigint): void
  /** Cuts them all and stops checking. */
  close(): void
}

export function openWebSockets({
  clock,
  intervalMs,
  refusal,
  logger,
}: {
  clock: Clock
  intervalMs: number
  /** Why the socket's renter may no longer use the lease, `undefined` while they may. */
  refusal(leaseId: bigint, session: LeaseSession): Promise<string | undefined>
  logger: Logger
}): OpenWebSockets {
  const open = new Map<bigint, Map<Socket, LeaseSession>>()
  let closed = false
  let cancel = () => {}

  async function recheck(): Promise<void> {
    for (const [leaseId, sockets] of open) {
      for (const [socket, session] of sockets) {
        const reason = await refusal(leaseId, session)
        if (reason === undefined) continue
        logger.info('cutting a WebSocket', { leaseId, renter: session.renter, reason })
        socket.destroy()
        sockets.delete(socket)
      }
    }
  }

  const schedule = () => {
    if (closed) return
    cancel = clock.setTimeout(() => {
      recheck()
        .catch((error: unknown) => logger.error('WebSocket recheck failed', { error }))
        .finally(schedule)
    }, intervalMs)
  }
  schedule()

  const cut = (leaseId: bigint) => {
    for (const socket of open.get(leaseId)?.keys() ?? []) socket.destroy()
    open.delete(leaseId)
  }

  return {
    add(leaseId, socket, session) {
      const sockets = open.get(leaseId) ?? new Map()
      open.set(leaseId, sockets)
      sockets.set(socket, session)
      socket.once('close', () => sockets.delete(socket))
    },
    cut,
    close() {
      closed = true
      cancel()
      for (const leaseId of [...open.keys()]) cut(leaseId)
    },
  }
}
