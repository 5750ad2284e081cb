import { existsSync } from 'node:fs'
import { chmod, copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Hex } from 'viem'
import { buildImage } from '../src/runtime/docker/buildImage.js'
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
 * `files`, through the provider kit's own `buildImage` (a build context
 * directory). Same inputs, same image: the build cache makes a repeat call
 * quick and return the same Id.
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

  const context = await mkdtemp(path.join(tmpdir(), 'gridforge-test-image-'))
  try {
    await writeFile(
      path.join(context, 'Dockerfile'),
      [
        'FROM scratch',
        'COPY busybox /bin/busybox',
        'RUN ["/bin/busybox", "--install", "-s", "/bin"]',
        ...(Object.keys(files).length > 0 ? ['COPY files/ /'] : []),
        'ENV PATH=/bin',
        `ENTRYPOINT ${JSON.stringify(entrypoint ?? [])}`,
        `CMD ${JSON.stringify(cmd ?? ['sh'])}`,
        `LABEL ${testLabel}=image`,
      ].join('\n'),
    )
    await copyFile(busyboxPath, path.join(context, 'busybox'))
    await chmod(path.join(context, 'busybox'), 0o755)
    for (const [file, content] of Object.entries(files)) {
      const target = path.join(context, 'files', file.replace(/^\/+/, ''))
      await mkdir(path.dirname(target), { recursive: true })
      await writeFile(target, content)
      await chmod(target, 0o755)
    }
    const { id, digest } = await buildImage({ context, tag: ref, docker: docker() })
    return { id, digest, ref }
  } finally {
    await rm(context, { recursive: true, force: true })
  }
}
