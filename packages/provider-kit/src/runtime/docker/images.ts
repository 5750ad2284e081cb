import type Docker from 'dockerode'
import { ContainerEngineError, ImageUnavailableError } from '../../errors.js'
import { statusCode } from './engineResponse.js'
import { followProgress, progressFailure } from './progressStream.js'

/** An image's `GET /images/{name}/json`, `undefined` when the engine has no such image. */
export async function inspectImage(
  docker: Docker,
  name: string,
): Promise<Docker.ImageInspectInfo | undefined> {
  try {
    return await docker.getImage(name).inspect()
  } catch (error) {
    if (statusCode(error) === 404) return undefined
    throw new ContainerEngineError(`Could not inspect image ${name}`, { cause: error })
  }
}

export interface PullImageParameters {
  /** Give up after this many milliseconds. */
  timeoutMs: number
  signal?: AbortSignal | undefined
}

/**
 * Pulls `reference` and waits for the pull to finish; a failed pull (the
 * engine reports it inside the stream) throws with the engine's message.
 */
export async function pullImage(
  docker: Docker,
  reference: string,
  { timeoutMs, signal }: PullImageParameters,
): Promise<void> {
  const abortSignal = AbortSignal.any([AbortSignal.timeout(timeoutMs), ...(signal ? [signal] : [])])
  const failure = progressFailure(await followProgress(await docker.pull(reference, { abortSignal })))
  if (failure !== undefined) throw new Error(failure)
}

export interface EnsureImageParameters extends PullImageParameters {
  /** Pull when the engine does not have the image (false: refuse). */
  pull: boolean
}

/**
 * The image `reference` names, pulled first when missing and `pull` allows.
 * Throws {@link ImageUnavailableError} (the cause says why) when it is not
 * there and cannot be pulled.
 */
export async function ensureImage(
  docker: Docker,
  reference: string,
  { pull, ...pullParameters }: EnsureImageParameters,
): Promise<Docker.ImageInspectInfo> {
  const found = await inspectImage(docker, reference)
  if (found !== undefined) return found
  if (!pull)
    throw new ImageUnavailableError({
      image: reference,
      cause: new Error('not on this host, and pulling is off'),
    })
  try {
    await pullImage(docker, reference, pullParameters)
  } catch (error) {
    throw new ImageUnavailableError({ image: reference, cause: error })
  }
  const pulled = await inspectImage(docker, reference)
  if (pulled === undefined)
    throw new ImageUnavailableError({
      image: reference,
      cause: new Error(`${reference} is missing after the pull`),
    })
  return pulled
}
