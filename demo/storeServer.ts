/**
 * A content store directory served over the subset of Kubo's RPC API that
 * `kuboStore()` from `@gridforge/sdk/storage` uses, so that a browser page (the
 * dashboard) can upload inputs and read outputs, logs and receipts from the
 * same directory the local provider agent writes with `fsStore()`. Development
 * only: bound to 127.0.0.1, no authentication.
 *
 * | endpoint                   | what it does                                                       |
 * | -------------------------- | ------------------------------------------------------------------ |
 * | `POST /api/v0/add`         | imports the multipart files (NDJSON answer, root last)             |
 * | `POST /api/v0/block/get`   | the raw bytes of one block                                         |
 * | `POST /api/v0/block/stat`  | `{ Key, Size }` of one block                                       |
 * | `POST /api/v0/pin/add`     | checks the whole DAG is here (`fsStore` keeps everything)          |
 *
 * Errors are Kubo's: HTTP 500 with `{ Message, Code: 0, Type: 'error' }`
 * (413 for a body over the limit, 403 for a foreign origin, 404 for an
 * unknown endpoint, 405 for a method other than POST).
 *
 * @example
 * await using server = await startStoreServer({ root: '/tmp/store', port: 5050 })
 * const kubo = kuboStore({ url: server.url })
 * const cid = await kubo.put(new TextEncoder().encode('hello'))
 */
import { readFile, stat } from 'node:fs/promises'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import {
  ContentNotFoundError,
  type ContentStore,
  type DirectoryEntry,
  fsStore,
  NotADirectoryError,
  unixfsImportSettings,
} from '@gridforge/sdk/storage'

export interface StartStoreServerParameters {
  /** Directory of the `fsStore` (created on first write); the agent must use the same one. */
  root: string
  /** Default: a free port. */
  port?: number | undefined
  /** Largest request body in bytes; a bigger one is answered 413 (default 64 MiB). */
  maxBodyBytes?: number | undefined
}

export interface StoreServer extends AsyncDisposable {
  /** `http://127.0.0.1:<port>`: the `url` to give `kuboStore()`. */
  url: string
  port: number
  /** The store the server reads and writes (an `fsStore` on `root`). */
  store: ContentStore
  /** Closes the server and every open connection; idempotent. */
  stop(): Promise<void>
}

/** Default request body limit: 64 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024 * 1024

/** Origins allowed to call the server from a browser: any port of the local host. */
const allowedOrigin = /^http:\/\/(127\.0\.0\.1|localhost)(:\d{1,5})?$/

/** `add` query parameters that would change the CIDs, and the only value each may have here. */
const importSettings: Record<string, { value: string; fallback: string }> = {
  'cid-version': { value: String(unixfsImportSettings.cidVersion), fallback: '0' },
  'raw-leaves': { value: String(unixfsImportSettings.rawLeaves), fallback: 'false' },
  chunker: { value: `size-${unixfsImportSettings.chunkSize}`, fallback: 'size-262144' },
  hash: { value: unixfsImportSettings.hash, fallback: 'sha2-256' },
  trickle: { value: 'false', fallback: 'false' },
}
/** `add` flags this server does not implement. */
const unsupportedFlags = ['only-hash', 'inline', 'nocopy', 'fscache', 'preserve-mode', 'preserve-mtime']

/** A request the server answers with a Kubo error. */
class RpcError extends Error {
  constructor(
    message: string,
    readonly status = 500,
  ) {
    super(message)
  }
}

/**
 * Starts the store server on 127.0.0.1.
 *
 * @example
 * const server = await startStoreServer({ root: '/tmp/store' })
 * console.log(server.url) // http://127.0.0.1:41234
 * await server.stop()
 */
export async function startStoreServer(parameters: StartStoreServerParameters): Promise<StoreServer> {
  const { root, port = 0, maxBodyBytes = DEFAULT_MAX_BODY_BYTES } = parameters
  const store = fsStore({ root })
  const blocks = blockFiles(root)

  const endpoints: Record<string, (request: Request, query: URLSearchParams) => Promise<Response>> = {
    add: (request, query) => add(store, request, query),
    'block/get': async (_request, query) => {
      const { bytes } = await blocks.read(argument(query))
      return new Response(bytes, {
        headers: { 'content-type': 'application/octet-stream', 'x-content-length': String(bytes.byteLength) },
      })
    },
    'block/stat': async (_request, query) => {
      const cid = argument(query)
      const size = await blocks.size(cid)
      return Response.json({ Key: cid, Size: size })
    },
    'pin/add': async (_request, query) => {
      const cid = argument(query)
      await walk(store, cid, query.get('recursive') !== 'false')
      return Response.json({ Pins: [cid] })
    },
  }

  const server = createServer((incoming, outgoing) => {
    void handle(incoming, outgoing).catch((error: unknown) => {
      if (!outgoing.headersSent) outgoing.writeHead(500)
      outgoing.end()
      console.error('storeServer: unexpected failure', error)
    })
  })

  async function handle(incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
    const origin = incoming.headers.origin
    const cors: Record<string, string> = {}
    if (origin !== undefined && allowedOrigin.test(origin)) {
      cors['access-control-allow-origin'] = origin
      cors['access-control-expose-headers'] = 'X-Stream-Output, X-Chunked-Output, X-Content-Length'
      cors.vary = 'Origin'
    }
    if (incoming.method === 'OPTIONS') {
      if (cors['access-control-allow-origin'] !== undefined) {
        cors['access-control-allow-methods'] = 'POST, OPTIONS'
        cors['access-control-allow-headers'] =
          incoming.headers['access-control-request-headers'] ?? 'content-type, authorization'
        cors['access-control-max-age'] = '600'
        if (incoming.headers['access-control-request-private-network'] === 'true')
          cors['access-control-allow-private-network'] = 'true'
      }
      outgoing.writeHead(204, cors).end()
      incoming.resume()
      return
    }

    const send = async (response: Response) => {
      outgoing.writeHead(response.status, { ...Object.fromEntries(response.headers), ...cors })
      if (response.body === null) {
        outgoing.end()
        return
      }
      for await (const chunk of response.body) outgoing.write(chunk)
      outgoing.end()
    }
    const fail = async (error: unknown) => {
      const status = error instanceof RpcError ? error.status : 500
      const message = errorMessage(error)
      await send(Response.json({ Message: message, Code: 0, Type: 'error' }, { status }))
    }

    try {
      const url = new URL(incoming.url ?? '/', 'http://127.0.0.1')
      if (origin !== undefined && cors['access-control-allow-origin'] === undefined)
        throw new RpcError(
          `origin ${origin} is not allowed (only http://127.0.0.1:* and http://localhost:*)`,
          403,
        )
      const endpoint = url.pathname.startsWith('/api/v0/') ? endpoints[url.pathname.slice(8)] : undefined
      if (endpoint === undefined) throw new RpcError(`404 page not found: ${url.pathname}`, 404)
      if (incoming.method !== 'POST') throw new RpcError(`method ${incoming.method} not allowed`, 405)
      const body = await readBody(incoming, maxBodyBytes)
      const request = new Request(url, {
        method: 'POST',
        headers: { 'content-type': incoming.headers['content-type'] ?? 'application/octet-stream' },
        body,
      })
      await send(await endpoint(request, url.searchParams))
    } catch (error) {
      // Node reads and drops whatever is left of the request body once the answer is sent.
      await fail(error)
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  const bound = (server.address() as AddressInfo).port
  let stopped: Promise<void> | undefined
  const stop = () => {
    stopped ??= new Promise<void>((resolve) => {
      server.close(() => resolve())
      server.closeAllConnections()
    })
    return stopped
  }
  return { url: `http://127.0.0.1:${bound}`, port: bound, store, stop, [Symbol.asyncDispose]: stop }
}

/**
 * Reads the request body, refusing (413) one over `limit` bytes, from its declared length or as it
 * arrives. The rest of a refused body is read and dropped, so that the client gets the answer.
 */
function readBody(incoming: IncomingMessage, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  const tooLarge = () => new RpcError(`request body over the limit of ${limit} bytes`, 413)
  const declared = Number(incoming.headers['content-length'])
  if (Number.isFinite(declared) && declared > limit) {
    incoming.resume()
    return Promise.reject(tooLarge())
  }
  return new Promise((resolve, reject) => {
    let chunks: Buffer[] = []
    let length = 0
    incoming.on('data', (chunk: Buffer) => {
      if (length > limit) return
      length += chunk.byteLength
      if (length > limit) {
        chunks = []
        reject(tooLarge())
      } else chunks.push(chunk)
    })
    incoming.once('end', () => resolve(Buffer.concat(chunks)))
    incoming.once('error', reject)
  })
}

/** The `arg` query parameter (a CID). */
function argument(query: URLSearchParams): string {
  const arg = query.get('arg')
  if (arg === null || arg === '') throw new RpcError('argument "cid" is required')
  return arg
}

function errorMessage(error: unknown): string {
  if (error instanceof ContentNotFoundError)
    return `block was not found locally (offline): ipld: could not find ${error.cid}`
  if (error instanceof Error) return (error as { shortMessage?: string }).shortMessage ?? error.message
  return String(error)
}

/** One part of an `add` request. */
interface Part {
  path: string
  type: 'file' | 'directory' | 'symlink'
  bytes: Uint8Array
}

/** An entry of Kubo's `add` answer. */
interface Added {
  Name: string
  Hash: string
  Size: string
}

/** `POST /api/v0/add`: imports the parts with `fsStore` (the SDK's UnixFS settings) and lists what it added. */
async function add(store: ContentStore, request: Request, query: URLSearchParams): Promise<Response> {
  for (const [name, { value, fallback }] of Object.entries(importSettings)) {
    const given = query.get(name) ?? fallback
    if (given !== value)
      throw new RpcError(`${name}=${given} is not supported by this store (only ${name}=${value})`)
  }
  for (const flag of unsupportedFlags)
    if (query.has(flag) && query.get(flag) !== 'false') throw new RpcError(`--${flag} is not supported`)

  let form: FormData
  try {
    form = await request.formData()
  } catch (cause) {
    throw new RpcError(`could not read the multipart body: ${errorMessage(cause)}`)
  }
  const parts: Part[] = []
  for (const value of form.values()) {
    if (typeof value === 'string') continue
    const bytes = new Uint8Array(await value.arrayBuffer())
    const type =
      value.type === 'application/x-directory'
        ? 'directory'
        : value.type === 'application/symlink'
          ? 'symlink'
          : 'file'
    parts.push({ path: decodeURIComponent(value.name).replace(/^\/+|\/+$/g, ''), type, bytes })
  }
  if (parts.length === 0) throw new RpcError('no files in the request (a multipart field "file")')

  const added: Added[] = []
  if (query.get('wrap-with-directory') === 'true') {
    const root = await store.putDirectory(entriesOf(parts))
    added.push(...(await listTree(store, root, '')), { Name: '', Hash: root, Size: '0' })
  } else {
    const tops = parts.filter((part) => !part.path.includes('/'))
    for (const top of tops) {
      if (top.type === 'file') {
        const cid = await store.put(top.bytes)
        added.push({ Name: top.path, Hash: cid, Size: String(top.bytes.byteLength) })
      } else if (top.type === 'directory') {
        const prefix = `${top.path}/`
        const inside = parts
          .filter((part) => part.path.startsWith(prefix))
          .map((part) => ({ ...part, path: part.path.slice(prefix.length) }))
        const cid = await store.putDirectory(entriesOf(inside))
        added.push(...(await listTree(store, cid, prefix)), { Name: top.path, Hash: cid, Size: '0' })
      } else {
        throw new RpcError('a symlink can only be added inside a directory (use wrap-with-directory)')
      }
    }
  }
  const body = added.map((entry) => `${JSON.stringify(entry)}\n`).join('')
  return new Response(body, { headers: { 'content-type': 'application/json', 'x-chunked-output': '1' } })
}

function entriesOf(parts: readonly Part[]): DirectoryEntry[] {
  return parts.map((part) =>
    part.type === 'file'
      ? { path: part.path, content: part.bytes }
      : part.type === 'directory'
        ? { path: part.path, type: 'directory' }
        : { path: part.path, type: 'symlink', target: new TextDecoder().decode(part.bytes) },
  )
}

/** Every entry under the directory `cid`, deepest first (the order Kubo reports them). */
async function listTree(store: ContentStore, cid: string, prefix: string): Promise<Added[]> {
  const added: Added[] = []
  for (const entry of await store.ls(cid)) {
    const name = `${prefix}${entry.name}`
    if (entry.type === 'directory') added.push(...(await listTree(store, entry.cid, `${name}/`)))
    added.push({ Name: name, Hash: entry.cid, Size: String(entry.size) })
  }
  return added
}

/** Reads the DAG of `cid` (every block, when `recursive`): a pin fails if a block is missing. */
async function walk(store: ContentStore, cid: string, recursive: boolean): Promise<void> {
  if (!(await store.has(cid))) throw new ContentNotFoundError({ cid, source: 'store' })
  if (!recursive) return
  let entries: Awaited<ReturnType<ContentStore['ls']>>
  try {
    entries = await store.ls(cid)
  } catch (error) {
    if (!(error instanceof NotADirectoryError)) throw error
    for await (const _chunk of store.get(cid));
    return
  }
  for (const entry of entries) if (entry.type !== 'symlink') await walk(store, entry.cid, true)
}

/**
 * Raw blocks of an `fsStore` directory, read from its documented layout:
 * `<root>/blocks/<xy>/<multihash in base32>`, where `xy` are the two characters
 * before the last one of the name (as `fsStore` picks them).
 */
function blockFiles(root: string) {
  const locate = (cid: string) => {
    const multihash = multihashOf(cid)
    const name = base32Encode(multihash.bytes)
    return { file: path.join(root, 'blocks', name.slice(-3, -1), name), multihash }
  }
  const notFound = (cid: string) => new ContentNotFoundError({ cid, source: 'store' })
  return {
    async read(cid: string): Promise<{ bytes: Uint8Array<ArrayBuffer> }> {
      const { file, multihash } = locate(cid)
      if (multihash.code === 0) return { bytes: multihash.digest.slice() }
      try {
        return { bytes: await readFile(file) }
      } catch (error) {
        if (isNotFound(error)) throw notFound(cid)
        throw error
      }
    },
    async size(cid: string): Promise<number> {
      const { file, multihash } = locate(cid)
      if (multihash.code === 0) return multihash.digest.byteLength
      try {
        return (await stat(file)).size
      } catch (error) {
        if (isNotFound(error)) throw notFound(cid)
        throw error
      }
    },
  }
}

function isNotFound(error: unknown): boolean {
  return error instanceof Error && 'code' in error && (error.code === 'ENOENT' || error.code === 'ENOTDIR')
}

const base32Alphabet = 'abcdefghijklmnopqrstuvwxyz234567'
const base58Alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'

/** The multihash of a CID string: CIDv0 (`Qm…`, base58btc) or CIDv1 in base32 (`b…`, what the SDK writes). */
function multihashOf(cid: string): { bytes: Uint8Array; code: number; digest: Uint8Array } {
  const invalid = (reason: string) =>
    new RpcError(`invalid cid ${JSON.stringify(cid.slice(0, 100))}: ${reason}`)
  let bytes: Uint8Array
  if (cid.length === 46 && cid.startsWith('Qm')) {
    bytes = base58Decode(cid) ?? new Uint8Array()
  } else if (cid.startsWith('b')) {
    const decoded = base32Decode(cid.slice(1))
    if (decoded === undefined) throw invalid('not base32')
    const reader = varints(decoded)
    if (reader.next() !== 1) throw invalid('only CID versions 0 and 1 exist')
    reader.next() // the codec (raw, dag-pb, …) does not change where the block lives
    bytes = decoded.subarray(reader.offset)
  } else {
    throw invalid('only base32 (b…) CIDv1 and base58btc (Qm…) CIDv0 are supported')
  }
  const reader = varints(bytes)
  const code = reader.next()
  const length = reader.next()
  const digest = bytes.subarray(reader.offset)
  if (code === undefined || length === undefined || digest.byteLength !== length)
    throw invalid('malformed multihash')
  return { bytes, code, digest }
}

function varints(bytes: Uint8Array) {
  let offset = 0
  return {
    get offset() {
      return offset
    },
    next(): number | undefined {
      let value = 0
      for (let shift = 0; shift < 63 && offset < bytes.length; shift += 7) {
        const byte = bytes[offset++] as number
        value += (byte & 0x7f) * 2 ** shift
        if (byte < 0x80) return value
      }
      return undefined
    },
  }
}

function base32Encode(bytes: Uint8Array): string {
  let out = ''
  let buffer = 0
  let bits = 0
  for (const byte of bytes) {
    buffer = ((buffer << 8) | byte) & 0xffff
    bits += 8
    while (bits >= 5) {
      out += base32Alphabet[(buffer >>> (bits - 5)) & 31]
      bits -= 5
    }
  }
  if (bits > 0) out += base32Alphabet[(buffer << (5 - bits)) & 31]
  return out
}

function base32Decode(text: string): Uint8Array | undefined {
  const out: number[] = []
  let buffer = 0
  let bits = 0
  for (const char of text) {
    const value = base32Alphabet.indexOf(char)
    if (value < 0) return undefined
    buffer = ((buffer << 5) | value) & 0xffff
    bits += 5
    if (bits >= 8) {
      out.push((buffer >>> (bits - 8)) & 0xff)
      bits -= 8
    }
  }
  return Uint8Array.from(out)
}

function base58Decode(text: string): Uint8Array | undefined {
  let value = 0n
  for (const char of text) {
    const digit = base58Alphabet.indexOf(char)
    if (digit < 0) return undefined
    value = value * 58n + BigInt(digit)
  }
  const hex = value.toString(16)
  const body = Buffer.from(hex.length % 2 === 0 ? hex : `0${hex}`, 'hex')
  const zeros = text.length - text.replace(/^1+/, '').length
  return Uint8Array.from([...new Uint8Array(zeros), ...body])
}
