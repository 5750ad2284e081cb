import { expect, vi } from 'vitest'

/**
 * Waits until `filters` log watches on `transport` have their filters
 * installed on the node and have polled them: from then on, no event of the
 * chain is missed. (Hardhat's new filters include the latest block: mine one
 * first when that block holds an event the test must not see.)
 */
export async function filterInstalled(transport: { methods(): string[] }, filters = 1) {
  await vi.waitFor(
    () => {
      const methods = transport.methods()
      const created = methods.flatMap((method, index) => (method === 'eth_newFilter' ? [index] : []))
      expect(created.length).toBeGreaterThanOrEqual(filters)
      const last = created[filters - 1] ?? 0
      const polls = methods.slice(last).filter((method) => method === 'eth_getFilterChanges')
      expect(polls.length).toBeGreaterThanOrEqual(filters)
    },
    { timeout: 10_000, interval: 20 },
  )
}

/** How many times `method` was called. */
export function callsOf(transport: { methods(): string[] }, method: string): number {
  return transport.methods().filter((called) => called === method).length
}
