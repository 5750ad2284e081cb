import { generateSiweNonce } from 'viem/siwe'
import type { Clock } from '../runtime/clock.js'

/**
 * The sign-in nonces a gateway has issued and not yet seen used: each one
 * signs in once, within `ttlMs` of its issue, so a captured sign-in message
 * cannot be replayed. At most `capacity` are kept (the oldest go first), so
 * asking for nonces cannot fill the gateway's memory.
 */
export interface NonceBook {
  issue(): { nonce: string; expiresAt: number }
  /** True once for a nonce this book issued that has not expired; false ever after. */
  consume(nonce: string): boolean
}

export function nonceBook({
  clock,
  ttlMs,
  capacity = 10_000,
}: {
  clock: Clock
  ttlMs: number
  capacity?: number
}): NonceBook {
  // Insertion order is issue order: the first keys are the oldest.
  const issued = new Map<string, number>()
  return {
    issue() {
      const now = clock.now()
      for (const [nonce, expiresAt] of issued) {
        if (expiresAt > now && issued.size < capacity) break
        issued.delete(nonce)
      }
      // 96 alphanumerics: EIP-4361 asks for at least 8.
      const nonce = generateSiweNonce()
      const expiresAt = now + ttlMs
      issued.set(nonce, expiresAt)
      return { nonce, expiresAt }
    },
    consume(nonce) {
      const expiresAt = issued.get(nonce)
      issued.delete(nonce)
      return expiresAt !== undefined && clock.now() < expiresAt
    },
  }
}
