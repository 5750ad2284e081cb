/**
 * The lease gateway in a process of its own, as the agent runs it: the
 * renter's requests (bench/leaseGateway.ts) then do not share an event loop
 * with it. Forked with IPC: takes `{ renter, leaseMarket, upstream }`, serves
 * lease 1 for `renter` at `upstream`, answers `{ url, publicHost }`; exits on
 * disconnect.
 */
import type { Address } from 'viem'
import { startLeaseGateway } from '../src/lease/leaseGateway.js'
import type { LeaseUpstream } from '../src/runtime/LeaseRuntime.js'
import { fakeAuthority } from '../test/lease.js'

process.once(
  'message',
  async (message: { renter: Address; leaseMarket: Address; upstream: LeaseUpstream }) => {
    const authority = fakeAuthority()
    authority.leases.set(1n, { renter: message.renter, provider: message.renter, active: true })
    const gateway = await startLeaseGateway({ chainId: 31337, leaseMarket: message.leaseMarket, authority })
    gateway.serveLease(1n, message.upstream)
    process.once('disconnect', () => void gateway.close().then(() => process.exit(0)))
    process.send?.({ url: gateway.url, publicHost: gateway.publicHost })
  },
)
