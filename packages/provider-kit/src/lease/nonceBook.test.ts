import { expect, test } from 'vitest'
import type { Clock } from '../runtime/clock.js'
import { nonceBook } from './nonceBook.js'

test('a nonce signs in once, before it expires, and only on the gateway that issued it', () => {
  let now = 1_000_000
  const clock: Clock = { now: () => now, setTimeout: () => () => {} }
  const secret = new Uint8Array(32).fill(7)
  const book = nonceBook({ clock, ttlMs: 60_000, secret })
  const { nonce, expiresAt } = book.issue()
  expect(nonce).toMatch(/^[0-9a-f]{68}$/)
  expect(expiresAt).toBe(1_060_000)
  expect(book.consume(nonce)).toBe(true)
  expect(book.consume(nonce)).toBe(false)

  const late = book.issue().nonce
  now += 60_000
  expect(book.consume(late)).toBe(false)

  const other = nonceBook({ clock, ttlMs: 60_000, secret: new Uint8Array(32).fill(8) })
  expect(book.consume(other.issue().nonce)).toBe(false)
  // A forged expiry breaks the mac.
  const fresh = book.issue().nonce
  const forged = `${fresh.slice(0, 24)}${'f'.repeat(12)}${fresh.slice(36)}`
  expect(book.consume(forged)).toBe(false)
  expect(book.consume('abc')).toBe(false)
})
