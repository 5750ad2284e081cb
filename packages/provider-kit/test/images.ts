import { existsSync, readFileSync } from 'node:fs'
import { Readable } from 'node:stream'
import { pack } from 'tar-stream'
import type { Hex } from 'viem'
import { docker, testLabel } from './docker.js'

export interface BuildTestImageParameters {
  /** `name[:tag]` (default tag `latest`). */
  tag: string
  /** Extra files, by absolute path inside the image. */
  files?: Readonly<Record<string, string | Uint8Array>> | undefined
  /** The image's ENTRYPOINT (default none). */
  entrypoint?: readonly string[] | undefined
  /** The image's CMD (default `["sh"]`). */
  cmd?: readonly string[] | undefined
}

export interface TestImage {
  /** The image Id, `sha256:…`: the digest of its config. */
  id: string
  /** The Id as the bytes32 a source puts on chain. */
  digest: Hex
  /** `name:tag`. */
  ref: string
}

/** Where the static busybox is on the test host. */
const busyboxPaths = ['/usr/bin/busybox', '/bin/busybox', '/usr/local/bin/busybox']

/**
 * Builds a tiny image, with no registry: `FROM scratch`, a static
 * `/bin/busybox` from this host and its applets linked into `/bin`, plus
 * `files`. Same inputs, same image: the build cache makes a repeat call take
 * milliseconds and return the same Id.
 *
 * @example
 * const image = await buildTestImage({ tag: 'gridforge-test/busybox:runtime', files: { '/app/run.sh': 'echo hi' } })
 * await runtime.prepareImage({ image: image.ref, imageDigest: image.digest })
 */
export async function buildTestImage({
  tag,
  files = {},
  entrypoint,
  cmd,
}: BuildTestImageParameters): Promise<TestImage> {
  const busyboxPath = busyboxPaths.find((candidate) => existsSync(candidate))
  if (busyboxPath === undefined)
    throw new Error(`The tests need a static busybox at one of ${busyboxPaths.join(', ')}`)
  const ref = tag.slice(tag.lastIndexOf('/') + 1).includes(':') ? tag : `${tag}:latest`

  const dockerfile = [
    'FROM scratch',
    'COPY busybox /bin/busybox',
    'RUN ["/bin/busybox", "--install", "-s", "/bin"]',
    ...(Object.keys(files).length > 0 ? ['COPY files/ /'] : []),
    'ENV PATH=/bin',
    `ENTRYPOINT ${JSON.stringify(entrypoint ?? [])}`,
    `CMD ${JSON.stringify(cmd ?? ['sh'])}`,
    `LABEL ${testLabel}=image`,
  ].join('\n')

  const context = pack()
  context.entry({ name: 'Dockerfile' }, dockerfile)
  context.entry({ name: 'busybox', mode: 0o755 }, readFileSync(busyboxPath))
  for (const [path, content] of Object.entries(files)) {
    const body = typeof content === 'string' ? content : Buffer.from(content)
    context.entry({ name: `files/${path.replace(/^\/+/, '')}`, mode: 0o755, mtime: new Date(0) }, body)
  }
  context.finalize()
  // tar-stream packs into a streamx stream; dockerode wants a Node one.
  const chunks: Uint8Array[] = []
  for await (const chunk of context) chunks.push(chunk as Uint8Array)

  const stream = await docker().buildImage(Readable.from([Buffer.concat(chunks)]), {
    t: ref,
    rm: true,
    forcerm: true,
  })
  await new Promise<void>((resolve, reject) => {
    docker().modem.followProgress(stream, (error: Error | null, events: { error?: string }[]) => {
      const failed = events.find((event) => event.error !== undefined)
      if (error !== null || failed !== undefined)
        reject(error ?? new Error(`Building ${ref} failed: ${failed?.error}`))
      else resolve()
    })
  })
  const { Id } = await docker().getImage(ref).inspect()
  return { id: Id, digest: `0x${Id.replace(/^sha256:/, '')}`, ref }
}
