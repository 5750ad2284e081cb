/**
 * The subset of Kubo's RPC API that `kuboStore()` from `@gridforge/sdk/storage` uses, answered
 * from a `ContentStore` through its public interface only.
 *
 * | endpoint                   | what it does                                                       |
 * | -------------------------- | ------------------------------------------------------------------ |
 * | `POST /api/v0/add`         | imports the multipart files (NDJSON answer, root last)             |
 * | `POST /api/v0/block/get`   | the raw bytes of one block (`store.getBlock`)                      |
 * | `POST /api/v0/block/stat`  | `{ Key, Size }` of one block                                       |
 * | `POST /api/v0/pin/add`     | checks the whole DAG is here, every block verified                 |
 */
import {
  ContentNotFoundError,
  type ContentStore,
  type DirectoryEntry,
  unixfsImportSettings,
} from '@gridforge/sdk/storage'
import { base16 } from 'multiformats/bases/base16'
import { base32 } from 'multiformats/bases/base32'
import { base36 } from 'multiformats/bases/base36'
import { base58btc } from 'multiformats/bases/base58'
import { CID } from 'multiformats/cid'
import { dagBlocks } from './dagBlocks.js'

/** A request the server answers with a Kubo error (`{ Message, Code: 0, Type: 'error' }`). */
export class RpcError extends Error {
  constructor(
    message: string,
    readonly status = 500,
  ) {
    super(message)
  }
}

/** An RPC endpoint: the request (body read, size checked) and its query to the answer. */
export type RpcEndpoint = (request: Request, query: URLSearchParams) => Promise<Response>

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
/** The multibases Kubo accepts in `arg`. */
const cidDecoder = base32.decoder.or(base36.decoder).or(base58btc.decoder).or(base16.decoder)

/**
 * The endpoints, by path under `/api/v0/`.
 *
 * @example
 * const endpoints = kuboRpcEndpoints(fsStore({ root }))
 * await endpoints['block/stat']?.(request, new URLSearchParams({ arg: cid }))
 */
export function kuboRpcEndpoints(store: ContentStore): Record<string, RpcEndpoint> {
  return {
    add: (request, query) => add(store, request, query),
    'block/get': async (_request, query) => {
      const bytes = await store.getBlock(argument(query).toString())
      return new Response(bytes.slice(), {
        headers: { 'content-type': 'application/octet-stream', 'x-content-length': String(bytes.byteLength) },
      })
    },
    'block/stat': async (_request, query) => {
      const cid = argument(query)
      const { byteLength } = await store.getBlock(cid.toString())
      return Response.json({ Key: query.get('arg'), Size: byteLength })
    },
    'pin/add': async (_request, query) => {
      const cid = argument(query)
      // Everything stays in the store: pinning checks that every block of the DAG is here and sound.
      const scope = query.get('recursive') === 'false' ? 'block' : 'all'
      for await (const _block of dagBlocks(store, cid, { scope }));
      return Response.json({ Pins: [query.get('arg')] })
    },
  }
}

/** Kubo's message for an error. */
export function rpcErrorMessage(error: unknown): string {
  if (error instanceof ContentNotFoundError)
    return `block was not found locally (offline): ipld: could not find ${error.cid}`
  if (error instanceof Error) return (error as { shortMessage?: string }).shortMessage ?? error.message
  return String(error)
}

/** The `arg` query parameter, a CID. */
function argument(query: URLSearchParams): CID {
  const arg = query.get('arg')
  if (arg === null || arg === '') throw new RpcError('argument "cid" is required')
  try {
    return CID.parse(arg, cidDecoder)
  } catch (error) {
    throw new RpcError(`invalid cid ${JSON.stringify(arg.slice(0, 100))}: ${rpcErrorMessage(error)}`)
  }
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

/** `POST /api/v0/add`: imports the parts with the store (the SDK's UnixFS settings) and lists what it added. */
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
    throw new RpcError(`could not read the multipart body: ${rpcErrorMessage(cause)}`)
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
