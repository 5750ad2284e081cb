/** One part of a Kubo `add` request: a file, a directory or a symlink, by its path. */
export type MultipartPart =
  | { path: string; type: 'file'; content: Uint8Array | AsyncIterable<Uint8Array> }
  | { path: string; type: 'directory' }
  | { path: string; type: 'symlink'; target: string }

export interface MultipartBody {
  /** A `Blob` when every part is in memory, otherwise a stream read as it is sent. */
  body: Blob | ReadableStream<Uint8Array>
  contentType: string
  /** Whether `body` is a stream (fetch then needs `duplex: 'half'`). */
  streaming: boolean
}

const encoder = new TextEncoder()

/**
 * Encodes parts as the `multipart/form-data` body Kubo's `/api/v0/add` reads: each part's
 * filename is its URL-encoded path, directories are `application/x-directory` parts and
 * symlinks `application/symlink` parts whose body is the target. Parts must come in tree order
 * (a directory before its entries, a directory's entries contiguous), which Kubo requires.
 */
export function multipartBody(parts: readonly MultipartPart[]): MultipartBody {
  // getRandomValues, unlike randomUUID, also exists on plain-http browser pages.
  const random = crypto.getRandomValues(new Uint8Array(16))
  const boundary = `gridforge-${Array.from(random, (byte) => byte.toString(16).padStart(2, '0')).join('')}`
  const contentType = `multipart/form-data; boundary=${boundary}`
  const header = (part: MultipartPart) => {
    const type =
      part.type === 'file'
        ? 'application/octet-stream'
        : part.type === 'directory'
          ? 'application/x-directory'
          : 'application/symlink'
    return encoder.encode(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${encodeURIComponent(part.path)}"\r\nContent-Type: ${type}\r\n\r\n`,
    )
  }
  const newline = encoder.encode('\r\n')
  const end = encoder.encode(`--${boundary}--\r\n`)

  if (parts.every((part) => part.type !== 'file' || part.content instanceof Uint8Array)) {
    const pieces: Uint8Array[] = []
    for (const part of parts) {
      pieces.push(header(part))
      if (part.type === 'file') pieces.push(part.content as Uint8Array)
      if (part.type === 'symlink') pieces.push(encoder.encode(part.target))
      pieces.push(newline)
    }
    pieces.push(end)
    return { body: new Blob(pieces as BlobPart[]), contentType, streaming: false }
  }

  async function* generate(): AsyncGenerator<Uint8Array> {
    for (const part of parts) {
      yield header(part)
      if (part.type === 'file') {
        if (part.content instanceof Uint8Array) yield part.content
        else for await (const chunk of part.content) if (chunk.byteLength > 0) yield chunk
      }
      if (part.type === 'symlink') yield encoder.encode(part.target)
      yield newline
    }
    yield end
  }
  return { body: streamOf(generate()), contentType, streaming: true }
}

/** A pull-based stream over a generator: nothing is read before the consumer asks for it. */
function streamOf(generator: AsyncGenerator<Uint8Array>): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const next = await generator.next()
          if (next.done) controller.close()
          else controller.enqueue(next.value)
        } catch (error) {
          controller.error(error)
        }
      },
      async cancel() {
        await generator.return(undefined)
      },
    },
    { highWaterMark: 0 },
  )
}
