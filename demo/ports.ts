import { createServer as createNetServer } from 'node:net'

/** `port` when nothing listens on it on 127.0.0.1, otherwise a free port. */
export async function preferredPort(port: number, log: (line: string) => void = () => {}): Promise<number> {
  const listen = (candidate: number) =>
    new Promise<number | undefined>((resolve) => {
      const server = createNetServer()
      server.once('error', () => resolve(undefined))
      server.listen(candidate, '127.0.0.1', () => {
        const address = server.address()
        server.close(() =>
          resolve(typeof address === 'object' && address !== null ? address.port : undefined),
        )
      })
    })
  const chosen = (await listen(port)) ?? (await listen(0))
  if (chosen === undefined) throw new Error('no free port on 127.0.0.1')
  if (chosen !== port) log(`Port ${port} is taken: using ${chosen}`)
  return chosen
}
