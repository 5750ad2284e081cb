import { readdir } from 'node:fs/promises'
import type Docker from 'dockerode'
import type { Hex } from 'viem'
import { ContainerEngineError, ImageBuildError } from '../../errors.js'
import { dockerClient } from './dockerClient.js'
import { inspectImage } from './images.js'
import { followProgress, progressFailure } from './progressStream.js'

export interface BuildImageParameters {
  /** The build context: a directory holding a `Dockerfile` and what it copies (a `.dockerignore` is honoured). */
  context: string
  /** What to tag the image, `name[:tag]`. */
  tag: string
  /** The engine (default {@link dockerClient}`()`). */
  docker?: Docker | undefined
  signal?: AbortSignal | undefined
}

export interface BuildImageReturnType {
  /** The image Id, `sha256:…`: the digest of its config, which names every layer by content. */
  id: string
  /** The Id as the bytes32 a source pins on chain (`imageDigest`). */
  digest: Hex
}

export type BuildImageErrorType = ImageBuildError | ContainerEngineError

/**
 * Builds an image on this host from a build context directory, as `docker
 * build <context>` does, and returns its Id. An image built here and never
 * pushed has no registry digest: its Id is what a source pins on chain, and
 * {@link ContainerRuntime.prepareImage} accepts a local image by Id. The
 * engine's build cache makes a repeat build of the same context quick, with
 * the same Id.
 *
 * The context is packed by dockerode (tar-fs, gzip), so nothing is copied
 * into memory first: a context holding a large model file streams.
 *
 * @example
 * import { buildImage } from '@gridforge/provider-kit'
 *
 * // ./wordcount holds a Dockerfile: FROM scratch, COPY busybox /bin/busybox, …
 * const { id, digest } = await buildImage({ context: './wordcount', tag: 'acme/wordcount:1' })
 * await publishSource(client, { image: `acme/wordcount@${id}`, imageDigest: digest, … })
 */
export async function buildImage({
  context,
  tag,
  docker = dockerClient(),
  signal,
}: BuildImageParameters): Promise<BuildImageReturnType> {
  let src: string[]
  try {
    src = await readdir(context)
  } catch (error) {
    throw new ImageBuildError({ tag, output: '', cause: error })
  }
  let stream: NodeJS.ReadableStream
  try {
    // `rm`/`forcerm`: the intermediate containers of RUN steps go, failed or not.
    stream = await docker.buildImage(
      { context, src },
      { t: tag, rm: true, forcerm: true, abortSignal: signal },
    )
  } catch (error) {
    throw new ContainerEngineError(`The Docker engine refused to build ${tag}`, { cause: error })
  }
  const events = await followProgress(stream)
  const failure = progressFailure(events)
  if (failure !== undefined) {
    const output = events
      .flatMap((event) => event.stream?.split('\n') ?? [])
      .filter((line) => line.trim() !== '')
      .slice(-10)
      .join('\n')
    throw new ImageBuildError({ tag, output, cause: new Error(failure) })
  }
  const image = await inspectImage(docker, tag)
  if (image === undefined)
    throw new ImageBuildError({ tag, output: '', cause: new Error(`${tag} is missing after the build`) })
  return { id: image.Id, digest: `0x${image.Id.replace(/^sha256:/, '')}` }
}
