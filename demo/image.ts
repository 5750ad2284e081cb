import { existsSync, readFileSync } from 'node:fs'
import { Readable } from 'node:stream'
import type Docker from 'dockerode'
import { pack } from 'tar-stream'

/** Where Debian's busybox-static (and most distributions' busybox) puts the binary. */
const busyboxPaths = ['/bin/busybox', '/usr/bin/busybox', '/usr/local/bin/busybox']

/**
 * Builds the demo source's image on this host — no registry needed: `FROM
 * scratch` plus a static busybox (its shell, `wc`, `tr`, …). Returns the image
 * Id (`sha256:…`): the content digest the source pins on chain, or `undefined`
 * (with the reason) when there is no static busybox to put in it.
 */
export async function buildDemoImage(docker: Docker): Promise<{ id: string } | { reason: string }> {
  const busybox = busyboxPaths.find((path) => existsSync(path))
  if (busybox === undefined)
    return { reason: 'no busybox binary on this host (Debian/Ubuntu: apt-get install busybox-static)' }
  const binary = readFileSync(busybox)
  // A dynamically linked busybox names its loader; it would not run in an empty image.
  if (binary.includes('ld-linux') || binary.includes('ld-musl'))
    return { reason: `${busybox} is dynamically linked (Debian/Ubuntu: apt-get install busybox-static)` }
  const context = pack()
  context.entry(
    { name: 'Dockerfile' },
    'FROM scratch\nCOPY busybox /bin/busybox\nRUN ["/bin/busybox", "--install", "-s", "/bin"]\n',
  )
  context.entry({ name: 'busybox', mode: 0o755 }, binary)
  context.finalize()
  // tar-stream packs into a streamx stream; dockerode wants a Node one.
  const chunks: Uint8Array[] = []
  for await (const chunk of context) chunks.push(chunk as Uint8Array)
  const stream = await docker.buildImage(Readable.from([Buffer.concat(chunks)]), {
    t: 'gridforge-demo/wordcount:latest',
    rm: true,
  })
  const events = await new Promise<{ error?: string; aux?: { ID?: string } }[]>((resolve, reject) =>
    docker.modem.followProgress(stream, (error, output) => (error ? reject(error) : resolve(output))),
  )
  const failed = events.find((event) => event.error !== undefined)
  if (failed !== undefined) return { reason: `docker build failed: ${failed.error}` }
  const { Id } = await docker.getImage('gridforge-demo/wordcount:latest').inspect()
  return { id: Id }
}
