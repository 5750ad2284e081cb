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
  // A dynamically linked busybox needs its loader and libc: it would not run in an empty image.
  if (hasInterpreter(binary))
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

/** Whether an ELF executable asks for a program interpreter (a `PT_INTERP` header): dynamically linked. */
function hasInterpreter(elf: Buffer): boolean {
  if (elf.length < 64 || elf.readUInt32BE(0) !== 0x7f454c46 || elf[5] !== 1) return false
  const is64 = elf[4] === 2
  const phoff = is64 ? Number(elf.readBigUInt64LE(0x20)) : elf.readUInt32LE(0x1c)
  const phentsize = elf.readUInt16LE(is64 ? 0x36 : 0x2a)
  const phnum = elf.readUInt16LE(is64 ? 0x38 : 0x2c)
  for (let index = 0; index < phnum; index++) {
    const offset = phoff + index * phentsize
    if (offset + 4 <= elf.length && elf.readUInt32LE(offset) === 3) return true
  }
  return false
}
