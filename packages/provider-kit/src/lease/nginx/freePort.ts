import { type AddressInfo, createServer } from 'node:net'

/** A port nothing listens on at `hostname` now (the system's pick), for a server that cannot report its own. */
export async function freePort(hostname = '127.0.0.1'): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, hostname, resolve)
  })
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}
