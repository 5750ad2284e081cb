import { BaseError } from '../errors/base.js'

/** Shortens untrusted input quoted in a message (a CID string may be anything). */
function quote(input: string, max = 80): string {
  const text = input.length > max ? `${input.slice(0, max)}…` : input
  return JSON.stringify(text)
}

export type InvalidCidErrorType = InvalidCidError & { name: 'InvalidCidError' }

/** A string that is not a CID was given where a CID is expected. */
export class InvalidCidError extends BaseError {
  override name = 'InvalidCidError' as const
  readonly input: string

  constructor({ input, cause }: { input: string; cause?: unknown }) {
    super(`Invalid CID ${quote(input)}`, {
      cause,
      metaMessages: ['Pass a CID string such as bafy… (CIDv1, base32) or Qm… (CIDv0).'],
    })
    this.input = input
  }
}

export type UnsupportedCidErrorType = UnsupportedCidError & { name: 'UnsupportedCidError' }

/** A valid CID this SDK cannot verify or decode (an unknown hash function or codec). */
export class UnsupportedCidError extends BaseError {
  override name = 'UnsupportedCidError' as const
  readonly cid: string

  constructor({ cid, reason }: { cid: string; reason: string }) {
    super(`Unsupported CID ${cid}: ${reason}`, {
      metaMessages: [
        'Storage reads UnixFS content (dag-pb and raw blocks) hashed with sha2-256 or sha2-512.',
        'Re-import the content with `ipfs add --cid-version=1 --raw-leaves`.',
      ],
    })
    this.cid = cid
  }
}

export type ContentVerificationErrorType = ContentVerificationError & { name: 'ContentVerificationError' }

/** Bytes served for a block do not hash to its CID: the source is faulty, corrupted or malicious. */
export class ContentVerificationError extends BaseError {
  override name = 'ContentVerificationError' as const
  readonly cid: string
  /** Where the bytes came from, e.g. `gateway https://…` or `fs /var/…`. */
  readonly source: string
  /** Hex digest the CID commits to. */
  readonly expectedDigest: string
  /** Hex digest of the bytes that were served. */
  readonly actualDigest: string

  constructor({
    cid,
    source,
    expectedDigest,
    actualDigest,
    hint,
  }: {
    cid: string
    source: string
    expectedDigest: string
    actualDigest: string
    hint?: string | undefined
  }) {
    super(`Block ${cid} from ${source} failed verification: its bytes do not match the CID`, {
      details: `expected digest ${expectedDigest}, got ${actualDigest}`,
      metaMessages: [hint ?? 'Do not trust this source for this content; fetch it from another store.'],
    })
    this.cid = cid
    this.source = source
    this.expectedDigest = expectedDigest
    this.actualDigest = actualDigest
  }
}

export type BlockTooLargeErrorType = BlockTooLargeError & { name: 'BlockTooLargeError' }

/** A source served a block larger than any valid UnixFS block (2 MiB). */
export class BlockTooLargeError extends BaseError {
  override name = 'BlockTooLargeError' as const
  readonly cid: string
  readonly source: string

  constructor({ cid, source, limit }: { cid: string; source: string; limit: number }) {
    super(`Block ${cid} from ${source} is larger than ${limit} bytes`, {
      metaMessages: ['Valid blocks are at most 2 MiB: the source is faulty or hostile; use another one.'],
    })
    this.cid = cid
    this.source = source
  }
}

export type ContentNotFoundErrorType = ContentNotFoundError & { name: 'ContentNotFoundError' }

/** The store does not have a block of the requested content. */
export class ContentNotFoundError extends BaseError {
  override name = 'ContentNotFoundError' as const
  readonly cid: string
  readonly source: string

  constructor({ cid, source, cause }: { cid: string; source: string; cause?: unknown }) {
    super(`Block ${cid} not found in ${source}`, {
      cause,
      metaMessages: [
        'Check the CID, or read it from a store that has it (another gateway, the Kubo node that pinned it).',
      ],
    })
    this.cid = cid
    this.source = source
  }
}

export type ContentTooLargeErrorType = ContentTooLargeError & { name: 'ContentTooLargeError' }

/** Reading stopped because the content is larger than the `maxBytes` the caller allowed. */
export class ContentTooLargeError extends BaseError {
  override name = 'ContentTooLargeError' as const
  readonly cid: string
  readonly maxBytes: number

  constructor({
    cid,
    maxBytes,
    size,
  }: { cid: string; maxBytes: number; size?: bigint | number | undefined }) {
    super(
      size === undefined
        ? `Content ${cid} is larger than maxBytes (${maxBytes} bytes)`
        : `Content ${cid} is ${size} bytes, more than maxBytes (${maxBytes} bytes)`,
      { metaMessages: ['Raise `maxBytes` if you trust this content, or stream it with `store.get(cid)`.'] },
    )
    this.cid = cid
    this.maxBytes = maxBytes
  }
}

export type InvalidDagErrorType = InvalidDagError & { name: 'InvalidDagError' }

/** A block verified against its CID but is not valid UnixFS (malformed, inconsistent sizes, too deep). */
export class InvalidDagError extends BaseError {
  override name = 'InvalidDagError' as const
  readonly cid: string

  constructor({ cid, reason, cause }: { cid: string; reason: string; cause?: unknown }) {
    super(`Invalid UnixFS data in ${cid}: ${reason}`, {
      cause,
      metaMessages: [
        'This CID does not address well-formed UnixFS content; ask its producer to re-import it.',
      ],
    })
    this.cid = cid
  }
}

export type NotAFileErrorType = NotAFileError & { name: 'NotAFileError' }

/** `get` was asked for something that is not a file (a directory or a symlink). */
export class NotAFileError extends BaseError {
  override name = 'NotAFileError' as const
  readonly cid: string
  readonly path: string

  constructor({ cid, path, type }: { cid: string; path: string; type: string }) {
    super(`${path === '' ? cid : `${cid}/${path}`} is a ${type}, not a file`, {
      metaMessages:
        type === 'directory'
          ? ['List it with `store.ls(cid)` and read a file inside with `{ path }`.']
          : ['Symlinks are not followed: read the file they point to by its own path.'],
    })
    this.cid = cid
    this.path = path
  }
}

export type NotADirectoryErrorType = NotADirectoryError & { name: 'NotADirectoryError' }

/** A path goes through, or `ls` was asked for, something that is not a directory. */
export class NotADirectoryError extends BaseError {
  override name = 'NotADirectoryError' as const
  readonly cid: string
  readonly path: string

  constructor({ cid, path, type }: { cid: string; path: string; type: string }) {
    super(`${path === '' ? cid : `${cid}/${path}`} is a ${type}, not a directory`, {
      metaMessages: ['Read files with `store.get(cid)`; only directories can be listed or entered.'],
    })
    this.cid = cid
    this.path = path
  }
}

export type PathNotFoundErrorType = PathNotFoundError & { name: 'PathNotFoundError' }

/** A directory has no entry for the requested path. */
export class PathNotFoundError extends BaseError {
  override name = 'PathNotFoundError' as const
  readonly cid: string
  readonly path: string

  constructor({ cid, path }: { cid: string; path: string }) {
    super(`No entry ${quote(path)} in directory ${cid}`, {
      metaMessages: ['List the directory with `store.ls(cid)` to see the names it has.'],
    })
    this.cid = cid
    this.path = path
  }
}

export type InvalidPathErrorType = InvalidPathError & { name: 'InvalidPathError' }

/** A path inside a directory is malformed (`..`, `.`, empty segments, NUL bytes). */
export class InvalidPathError extends BaseError {
  override name = 'InvalidPathError' as const
  readonly path: string

  constructor({ path, reason }: { path: string; reason: string }) {
    super(`Invalid path ${quote(path)}: ${reason}`, {
      metaMessages: ['Use a relative path of plain names separated by `/`, e.g. `outputs/result.json`.'],
    })
    this.path = path
  }
}

export type InvalidDirectoryEntryErrorType = InvalidDirectoryEntryError & {
  name: 'InvalidDirectoryEntryError'
}

/** An entry passed to `putDirectory` / `importPath` cannot be imported. */
export class InvalidDirectoryEntryError extends BaseError {
  override name = 'InvalidDirectoryEntryError' as const
  readonly path: string

  constructor({ path, reason }: { path: string; reason: string }) {
    super(`Invalid directory entry ${quote(path)}: ${reason}`, {
      metaMessages: [
        'Entry paths are relative (`a/b.txt`), without `.`, `..` or empty segments, and each path appears once.',
      ],
    })
    this.path = path
  }
}

export type InvalidContentErrorType = InvalidContentError & { name: 'InvalidContentError' }

/** Content passed to `put` is not bytes, an async iterable of bytes or a ReadableStream of bytes. */
export class InvalidContentError extends BaseError {
  override name = 'InvalidContentError' as const

  constructor({ reason }: { reason: string }) {
    super(`Invalid content: ${reason}`, {
      metaMessages: ['Pass a Uint8Array, an AsyncIterable<Uint8Array> or a ReadableStream<Uint8Array>.'],
    })
  }
}

export type InvalidJsonValueErrorType = InvalidJsonValueError & { name: 'InvalidJsonValueError' }

/** `putJson` was given a value that has no deterministic JSON form. */
export class InvalidJsonValueError extends BaseError {
  override name = 'InvalidJsonValueError' as const
  /** JSON pointer of the bad value (`` for the root). */
  readonly pointer: string

  constructor({ pointer, reason }: { pointer: string; reason: string }) {
    super(`Cannot encode value at ${pointer === '' ? 'the root' : `\`${pointer}\``} as JSON: ${reason}`, {
      metaMessages: [
        'Use strings, finite numbers, booleans, null, arrays and plain objects; encode bigints as strings.',
      ],
    })
    this.pointer = pointer
  }
}

export type InvalidJsonContentErrorType = InvalidJsonContentError & { name: 'InvalidJsonContentError' }

/** Content read with `getJson` is not UTF-8 JSON. */
export class InvalidJsonContentError extends BaseError {
  override name = 'InvalidJsonContentError' as const
  readonly cid: string

  constructor({ cid, cause }: { cid: string; cause?: unknown }) {
    super(`Content ${cid} is not valid UTF-8 JSON`, {
      cause,
      metaMessages: ['Check that this CID is the JSON document you expect (read it with `getBytes`).'],
    })
    this.cid = cid
  }
}

export type ReadOnlyStoreErrorType = ReadOnlyStoreError & { name: 'ReadOnlyStoreError' }

/** A write was attempted on a read-only store (a gateway reader). */
export class ReadOnlyStoreError extends BaseError {
  override name = 'ReadOnlyStoreError' as const

  constructor({ store, operation }: { store: string; operation: string }) {
    super(`${store} is read-only: cannot ${operation}`, {
      metaMessages: ['Write with `fsStore`, `memoryStore` or `kuboStore`, and read from the gateway.'],
    })
  }
}

export type StorageTimeoutErrorType = StorageTimeoutError & { name: 'StorageTimeoutError' }

/** A remote store did not answer within `timeoutMs`. */
export class StorageTimeoutError extends BaseError {
  override name = 'StorageTimeoutError' as const
  readonly url: string
  readonly timeoutMs: number

  constructor({ url, timeoutMs }: { url: string; timeoutMs: number }) {
    super(`${url} did not answer within ${timeoutMs} ms`, {
      metaMessages: [
        'The node may not have the content or may be overloaded: try another gateway or node,',
        'or raise `timeoutMs` for slow links.',
      ],
    })
    this.url = url
    this.timeoutMs = timeoutMs
  }
}

export type StorageRequestErrorType = StorageRequestError & { name: 'StorageRequestError' }

/** An HTTP request to a remote store failed (network error, unexpected status). */
export class StorageRequestError extends BaseError {
  override name = 'StorageRequestError' as const
  readonly url: string
  readonly status: number | undefined

  constructor({
    url,
    status,
    cause,
    hint,
  }: { url: string; status?: number; cause?: unknown; hint?: string }) {
    super(
      status === undefined ? `Request to ${url} failed` : `Request to ${url} failed with HTTP ${status}`,
      { cause, metaMessages: [hint ?? 'Check the URL and that the node is reachable from here.'] },
    )
    this.url = url
    this.status = status
  }
}

export type KuboRpcErrorType = KuboRpcError & { name: 'KuboRpcError' }

/** The Kubo RPC API answered with an error (HTTP 500 with `{ Message }`, or another failing status). */
export class KuboRpcError extends BaseError {
  override name = 'KuboRpcError' as const
  readonly endpoint: string
  readonly status: number
  /** Kubo's own message. */
  readonly kuboMessage: string

  constructor({ endpoint, status, message }: { endpoint: string; status: number; message: string }) {
    super(`Kubo ${endpoint} failed (HTTP ${status}): ${message}`, {
      metaMessages:
        status === 403
          ? ['Kubo refused the request: allow this origin in API.HTTPHeaders or use the right RPC URL.']
          : status === 404 || status === 405
            ? ['Is this the Kubo RPC URL (port 5001), not a gateway (port 8080)?']
            : ["Check the Kubo daemon's log; the message above comes from Kubo."],
    })
    this.endpoint = endpoint
    this.status = status
    this.kuboMessage = message
  }
}

export type KuboCidMismatchErrorType = KuboCidMismatchError & { name: 'KuboCidMismatchError' }

/** Kubo stored the content under a CID other than the one computed locally: its import settings differ. */
export class KuboCidMismatchError extends BaseError {
  override name = 'KuboCidMismatchError' as const
  /** The CID computed locally with `unixfsImportOptions`. */
  readonly expected: string
  /** The CID Kubo returned. */
  readonly actual: string

  constructor({ expected, actual }: { expected: string; actual: string }) {
    super(`Kubo returned CID ${actual}, but the content's CID is ${expected}`, {
      metaMessages: [
        'The node imports with other settings (chunker, HAMT threshold or an old Kubo version).',
        'Use a current Kubo with default Import.* settings; the SDK sends --cid-version=1 --raw-leaves.',
      ],
    })
    this.expected = expected
    this.actual = actual
  }
}

export type StorageIoErrorType = StorageIoError & { name: 'StorageIoError' }

/** The filesystem refused an operation of `fsStore` / `importPath` (permissions, disk full, …). */
export class StorageIoError extends BaseError {
  override name = 'StorageIoError' as const
  readonly path: string

  constructor({ path, operation, cause }: { path: string; operation: string; cause: unknown }) {
    super(`Could not ${operation} ${path}`, {
      cause,
      metaMessages: [
        'Check that the path exists, is readable and writable by this process, and the disk is not full.',
      ],
    })
    this.path = path
  }
}

export type PinningUnauthorizedErrorType = PinningUnauthorizedError & { name: 'PinningUnauthorizedError' }

/** The pinning service refused the access token (HTTP 401 or 403). */
export class PinningUnauthorizedError extends BaseError {
  override name = 'PinningUnauthorizedError' as const
  readonly url: string
  readonly status: number

  constructor({ url, status, details }: { url: string; status: number; details?: string | undefined }) {
    super(`The pinning service at ${url} refused the access token (HTTP ${status})`, {
      details,
      metaMessages: [
        'Check `accessToken`: it must be a token of this service allowed to use its Pinning Service API',
        '(Pinata: an API key with the pinning permissions, sent as its JWT), and not expired or revoked.',
      ],
    })
    this.url = url
    this.status = status
  }
}

export type PinningRateLimitedErrorType = PinningRateLimitedError & { name: 'PinningRateLimitedError' }

/** The pinning service answered HTTP 429: too many requests for this token. */
export class PinningRateLimitedError extends BaseError {
  override name = 'PinningRateLimitedError' as const
  readonly url: string
  /** How long the service asked to wait (its `Retry-After`), when it said. */
  readonly retryAfterMs: number | undefined

  constructor({ url, retryAfterMs }: { url: string; retryAfterMs?: number | undefined }) {
    super(
      `The pinning service at ${url} is rate limiting this token${
        retryAfterMs === undefined ? '' : ` (retry after ${Math.ceil(retryAfterMs / 1000)} s)`
      }`,
      {
        metaMessages: [
          `Wait ${retryAfterMs === undefined ? 'a minute' : `${Math.ceil(retryAfterMs / 1000)} s`} and try again, pin fewer CIDs at once,`,
          'or raise the limits of your plan at the service. Content already stored stays in the wrapped store.',
        ],
      },
    )
    this.url = url
    this.retryAfterMs = retryAfterMs
  }
}

export type PinningServiceErrorType = PinningServiceError & { name: 'PinningServiceError' }

/** The pinning service answered with an error (its `Failure` body: `{ error: { reason, details } }`). */
export class PinningServiceError extends BaseError {
  override name = 'PinningServiceError' as const
  readonly url: string
  readonly status: number
  /** The service's machine-readable reason (`BAD_REQUEST`, `INSUFFICIENT_FUNDS`, …). */
  readonly reason: string

  constructor({
    url,
    status,
    reason,
    details,
  }: { url: string; status: number; reason: string; details?: string | undefined }) {
    super(`Pinning service request ${url} failed with HTTP ${status}: ${reason}`, {
      details,
      metaMessages: [
        status === 409 || /funds|payment|quota/i.test(reason)
          ? 'The account at the pinning service has no funds or quota left: top it up, then pin again.'
          : status === 404
            ? 'The service does not know this pin request (removed, or made with another token).'
            : status >= 500
              ? 'The pinning service failed: retry later; the content stays in the wrapped store.'
              : 'Is `url` the Pinning Service API endpoint of the service (Pinata: https://api.pinata.cloud/psa)?',
      ],
    })
    this.url = url
    this.status = status
    this.reason = reason
  }
}

export type PinFailedErrorType = PinFailedError & { name: 'PinFailedError' }

/** The pinning service gave up on a pin request (`status: failed`). */
export class PinFailedError extends BaseError {
  override name = 'PinFailedError' as const
  readonly cid: string
  readonly requestId: string

  constructor({ cid, requestId, details }: { cid: string; requestId: string; details?: string | undefined }) {
    super(`The pinning service could not pin ${cid} (request ${requestId} failed)`, {
      details,
      metaMessages: [
        'The service could not fetch the content: serve it from a node the service can reach and pass',
        "that node's public multiaddrs as `origins`, then pin again (a failed request is not retried).",
      ],
    })
    this.cid = cid
    this.requestId = requestId
  }
}

export type PinTimeoutErrorType = PinTimeoutError & { name: 'PinTimeoutError' }

/** A pin request was not `pinned` within `pinTimeoutMs`; the service keeps working on it. */
export class PinTimeoutError extends BaseError {
  override name = 'PinTimeoutError' as const
  readonly cid: string
  readonly requestId: string
  /** The last status the service reported (`queued` or `pinning`). */
  readonly status: string
  readonly timeoutMs: number

  constructor({
    cid,
    requestId,
    status,
    timeoutMs,
  }: { cid: string; requestId: string; status: string; timeoutMs: number }) {
    super(`${cid} was still ${status} at the pinning service after ${timeoutMs} ms (request ${requestId})`, {
      metaMessages: [
        'The request stays at the service and may still succeed: check it later with `getPin(requestId)`,',
        'raise `pinTimeoutMs`, or pass `origins` so that the service finds the content sooner.',
      ],
    })
    this.cid = cid
    this.requestId = requestId
    this.status = status
    this.timeoutMs = timeoutMs
  }
}
