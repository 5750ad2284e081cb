/** The parts of an image reference `[registry/]name[:tag][@sha256:<64 hex>]`. */
export interface ImageReference {
  /** `[registry/]name`, as written. */
  repository: string
  tag: string | undefined
  /** The pinned digest's 64 hex characters, lowercase, without `sha256:`. */
  digest: string | undefined
}

/**
 * Splits an image reference. Returns `undefined` when it is not one (an `@`
 * that is not followed by a sha256 digest, an empty name).
 *
 * @example
 * parseImageReference('ghcr.io/acme/llm:1.2@sha256:ab…') // { repository: 'ghcr.io/acme/llm', tag: '1.2', digest: 'ab…' }
 * parseImageReference('localhost:5000/app') // { repository: 'localhost:5000/app', tag: undefined, digest: undefined }
 */
export function parseImageReference(reference: string): ImageReference | undefined {
  let rest = reference
  let digest: string | undefined
  const at = rest.indexOf('@')
  if (at >= 0) {
    const match = /^sha256:([0-9a-fA-F]{64})$/.exec(rest.slice(at + 1))
    if (match === null) return undefined
    digest = (match[1] as string).toLowerCase()
    rest = rest.slice(0, at)
  }
  let tag: string | undefined
  // A colon after the last slash is a tag; one before it is a registry port.
  const colon = rest.lastIndexOf(':')
  if (colon > rest.lastIndexOf('/')) {
    tag = rest.slice(colon + 1)
    rest = rest.slice(0, colon)
    if (tag === '') return undefined
  }
  if (rest === '' || /\s/.test(rest)) return undefined
  return { repository: rest, tag, digest }
}
