/**
 * The floor of any gateway hop on this host: a TCP relay in a process of its own that copies bytes between
 * the client and the lease's service, with no HTTP parsing, no authentication and no metering. Forked with
 * IPC by bench/leaseGateway.ts: takes `{ upstream }`, answers its URL, exits on disconnect.
 */

import type { AddressInfo } from 'node:net'
import { connect, createServer } from 'node:net'
import type { LeaseUpstream } from '../src/runtime/LeaseRuntime.js'

process.once('message', ({ upstream }: { upstream: LeaseUpstream }) => {
  const server = createServer((client) => {
    client.setNoDelay(true)
    const service = connect(upstream.port, upstream.host)
    service.setNoDelay(true)
    client.pipe(service)
    service.pipe(client)
    service.on('error', () => client.destroy())
    client.on('error', () => service.destroy())
  })
  server.listen(0, '127.0.0.1', () => {
    process.send?.(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)
  })
  process.once('disconnect', () => process.exit(0))
})
