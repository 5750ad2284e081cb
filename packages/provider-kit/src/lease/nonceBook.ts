import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { Clock } from '../runtime/clock.js'

/**
 * The gateway's sign-in nonces: each signs in once, within `ttlMs` of its
 * issue, so a captured sign-in message cannot be replayed.
 *
 * A nonce carries its own expiry and an HMAC under the gateway's secret, so
 * issuing one stores nothing: asking for nonces by the million cannot fill
 * the gateway's memory nor push out a renter's nonce. Only used nonces are
 * remembered, until they expire, and a nonce is only used by a sign-in whose
 * signature checked out.
 */
export interface NonceBook {
  issue(): { nonce: string; expiresAt: number }
  /** True once for a nonce this book issued that has not expired; false ever after. */
  consume(nonce: string): boolean
}

export function nonceBook({
  clock,
  ttlMs,
  secret,
}: {
  clock: Clock
  ttlMs: number
  secret: Uint8Array
}): NonceBook {
  // Insertion order is use order; with one ttl, also expiry order: the first keys expire first.
  const used = new Map<string, number>()
  // Hex only: EIP-4361 nonces are alphanumeric.
  const mac = (body: string) =>
    createHmac('sha256', secret).update(`nonce:${body}`).digest('hex').slice(0, 32)
  return {
    issue() {
      const expiresAt = clock.now() + ttlMs
      const body = `${randomBytes(12).toString('hex')}${expiresAt.toString(16).padStart(12, '0')}`
      return { nonce: `${body}${mac(body)}`, expiresAt }
    },
    consume(nonce) {
      const now = clock.now()
      for (const [old, expiresAt] of used) {
        if (expiresAt > now) break
        used.delete(old)
      }
      if (!/^[0-9a-f]{68}$/.test(nonce) || used.has(nonce)) return false
      const body = nonce.slice(0, 36)
      if (!timingSafeEqual(Buffer.from(nonce.slice(36)), Buffer.from(mac(body)))) return false
      const expiresAt = Number.parseInt(body.slice(24), 16)
      if (now >= expiresAt) return false
      used.set(nonce, expiresAt)
      return true
    },
  }
}
