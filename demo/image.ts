import { existsSync, readFileSync } from 'node:fs'
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { buildImage, ImageBuildError, probeDocker } from '@gridforge/provider-kit'

/** Where Debian's busybox-static (and most distributions' busybox) puts the binary. */
const busyboxPaths = ['/bin/busybox', '/usr/bin/busybox', '/usr/local/bin/busybox']

/**
 * Builds the demo source's image on this host — no registry needed: `FROM
 * scratch` plus a static busybox (its shell, `wc`, `tr`, …), through the
 * provider kit's `buildImage`. Returns the image Id (`sha256:…`): the content
 * digest the source pins on chain, or the reason there is none (no Docker
 * engine answers, no static busybox to put in the image, a failed build).
 */
export async function buildDemoImage(): Promise<{ id: string } | { reason: string }> {
  const engine = await probeDocker()
  if (!engine.reachable)
    return { reason: `no Docker engine answers (${engine.error}); start one with: bash scripts/docker.sh` }
  const busybox = busyboxPaths.find((candidate) => existsSync(candidate))
  if (busybox === undefined)
    return { reason: 'no busybox binary on this host (Debian/Ubuntu: apt-get install busybox-static)' }
  // A dynamically linked busybox needs its loader and libc: it would not run in an empty image.
  if (hasInterpreter(readFileSync(busybox)))
    return { reason: `${busybox} is dynamically linked (Debian/Ubuntu: apt-get install busybox-static)` }
  const context = await mkdtemp(path.join(tmpdir(), 'gridforge-demo-image-'))
  try {
    await writeFile(
      path.join(context, 'Dockerfile'),
      'FROM scratch\nCOPY busybox /bin/busybox\nRUN ["/bin/busybox", "--install", "-s", "/bin"]\n',
    )
    await copyFile(busybox, path.join(context, 'busybox'))
    const { id } = await buildImage({ context, tag: 'gridforge-demo/wordcount:latest' })
    return { id }
  } catch (error) {
    if (error instanceof ImageBuildError) return { reason: `docker build failed: ${error.details}` }
    throw error
  } finally {
    await rm(context, { recursive: true, force: true })
  }
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
