import { BaseError } from '@gridforge/sdk'

export type ImageDigestMismatchErrorType = ImageDigestMismatchError & { name: 'ImageDigestMismatchError' }

/** The image's digest is not the source's on-chain `imageDigest`: it must not run. */
export class ImageDigestMismatchError extends BaseError {
  override name = 'ImageDigestMismatchError' as const
  readonly image: string
  readonly expected: string
  readonly actual: readonly string[]

  constructor({ image, expected, actual }: { image: string; expected: string; actual: readonly string[] }) {
    super(`Image ${image} is not the one the source pins`, {
      details: `expected sha256:${expected.replace(/^0x/, '')}, image has ${actual.length === 0 ? 'no digest' : actual.join(', ')}`,
      metaMessages: [
        'Refusing to run it. The source metadata or the local image was tampered with, or the source was published with the wrong digest.',
      ],
    })
    this.image = image
    this.expected = expected
    this.actual = actual
  }
}

export type ImageUnavailableErrorType = ImageUnavailableError & { name: 'ImageUnavailableError' }

/** The image is not present locally and could not be pulled. */
export class ImageUnavailableError extends BaseError {
  override name = 'ImageUnavailableError' as const
  readonly image: string

  constructor({ image, cause }: { image: string; cause?: unknown }) {
    super(`Image ${image} is not on this host and could not be pulled`, {
      cause,
      metaMessages: [
        'Check that the registry is reachable from this host, or load the image with `docker load`.',
      ],
    })
    this.image = image
  }
}

export type ContainerEngineErrorType = ContainerEngineError & { name: 'ContainerEngineError' }

/** The container engine refused or failed a request (not what the container did: that is a run outcome). */
export class ContainerEngineError extends BaseError {
  override name = 'ContainerEngineError' as const

  constructor(
    shortMessage: string,
    { cause, metaMessages }: { cause?: unknown; metaMessages?: string[] } = {},
  ) {
    super(shortMessage, {
      cause,
      metaMessages: metaMessages ?? ['Run `gridforge-provider doctor` to check the Docker engine.'],
    })
  }
}

export type ImageBuildErrorType = ImageBuildError & { name: 'ImageBuildError' }

/** `docker build` failed: the engine refused the context or a Dockerfile step failed. */
export class ImageBuildError extends BaseError {
  override name = 'ImageBuildError' as const
  readonly tag: string
  /** The build's last output lines, what `docker build` printed before the failure. */
  readonly output: string

  constructor({ tag, output, cause }: { tag: string; output: string; cause?: unknown }) {
    super(`Building image ${tag} failed`, {
      cause,
      metaMessages: [
        ...(output === '' ? [] : ['The build printed:', output]),
        'Check the Dockerfile and that every file it copies is in the build context.',
      ],
    })
    this.tag = tag
    this.output = output
  }
}

export type LeaseServiceNotReadyErrorType = LeaseServiceNotReadyError & { name: 'LeaseServiceNotReadyError' }

/** A lease's container started, but its service never accepted a connection on its port. */
export class LeaseServiceNotReadyError extends BaseError {
  override name = 'LeaseServiceNotReadyError' as const
  readonly leaseId: bigint
  /** The container's last log lines, when it stopped. */
  readonly logs: string

  constructor({ leaseId, reason, logs }: { leaseId: bigint; reason: string; logs: string }) {
    super(`The service of lease ${leaseId} is not answering: ${reason}`, {
      metaMessages: [
        ...(logs === '' ? [] : ['The container printed:', logs]),
        "Check that the source's command listens on its port on all of the container's addresses (0.0.0.0), not only on 127.0.0.1.",
      ],
    })
    this.leaseId = leaseId
    this.logs = logs
  }
}

export type NginxUnavailableErrorType = NginxUnavailableError & { name: 'NginxUnavailableError' }

/** The lease gateway's nginx data path cannot run: nginx or its njs module is missing, or nginx refused to start. */
export class NginxUnavailableError extends BaseError {
  override name = 'NginxUnavailableError' as const

  constructor({ reason }: { reason: string }) {
    super(`The nginx data path of the lease gateway cannot run: ${reason}`, {
      metaMessages: [
        'Install nginx and its njs module (Debian, Ubuntu: `apt-get install nginx-light libnginx-mod-http-js`), or pass their paths; or leave the data path out: the gateway then proxies every request itself.',
      ],
    })
  }
}
