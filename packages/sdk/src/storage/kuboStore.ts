import type { CID } from 'multiformats/cid'
import { sha512 } from 'multiformats/hashes/sha2'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import { createBlockContentStore } from './blockContentStore.js'
import { DAG_PB_CODE, equalBytes, MAX_BLOCK_SIZE } from './blocks.js'
import type { Content, ContentStore, DirectoryEntry, ReadOptions, WriteOptions } from './ContentStore.js'
import { parseCid } from './cid.js'
import { contentChunks, type Tee, tee } from './content.js'
import { encodeJson } from './encodeJson.js'
import {
  BlockTooLargeError,
  ContentNotFoundError,
  type InvalidCidErrorType,
  KuboCidMismatchError,
  KuboRpcError,
  type KuboRpcErrorType,
  type StorageRequestErrorType,
  type StorageTimeoutErrorType,
} from './errors.js'
import { baseUrl, discard, type HttpClientParameters, readLimited, timed } from './http.js'
import { type MultipartPart, multipartBody } from './multipart.js'
import {
  compareEntryPaths,
  EntryPaths,
  importDirectoryEntries,
  importFileContent,
  unixfsImportSettings,
  validateEntry,
} from './unixfs.js'

export type KuboStoreParameters = HttpClientParameters

export type KuboStoreReturnType = ContentStore & {
  /** Pins `cid` recursively on the node (`/api/v0/pin/add`), fetching what it lacks. */
  pin(cid: string, options?: ReadOptions): Promise<void>
}

/** Thrown by `kuboStore()` itself; reads and writes throw `ContentStoreGetErrorType` / `ContentStoreWriteErrorType`. */
export type KuboStoreErrorType = InvalidParametersErrorType

export type KuboPinErrorType =
  | InvalidCidErrorType
  | KuboRpcErrorType
  | StorageRequestErrorType
  | StorageTimeoutErrorType

/** Default limit for each read request (`block/get`, `block/stat`). Uploads and pins have none: pass a `signal`. */
export const DEFAULT_KUBO_TIMEOUT_MS = 60_000

/** Kubo error messages that mean "this block is not here". */
const NOT_FOUND = /not found|could not find|no such/i

const discardBlock = () => {}

/**
 * A {@link ContentStore} backed by a Kubo node's RPC API (`http://127.0.0.1:5001` by default in Kubo).
 *
 * Writes go through `POST /api/v0/add` (multipart, streamed, pinned) with the import settings as
 * query parameters (`cid-version=1&raw-leaves=true&chunker=size-262144&hash=sha2-256`); the CID
 * is also computed locally from the same bytes, and a different answer from Kubo throws
 * `KuboCidMismatchError`. Reads fetch blocks with `/api/v0/block/get` and verify each one
 * (the node is not trusted); `has` uses `/api/v0/block/stat` offline. Kubo errors (HTTP 500
 * `{ Message }`) throw `KuboRpcError`. Works in browsers when the node allows the origin
 * (`API.HTTPHeaders`); streamed uploads need a browser that can stream request bodies.
 *
 * @example
 * import { kuboStore } from '@gridforge/sdk/storage'
 *
 * const kubo = kuboStore({ url: 'http://127.0.0.1:5001' })
 * const cid = await kubo.putJson({ hello: 'world' })
 * await kubo.pin(cid)
 */
export function kuboStore(parameters: KuboStoreParameters): KuboStoreReturnType {
  const { base, display } = baseUrl(parameters.url, 'kuboStore')
  const fetch = parameters.fetch ?? globalThis.fetch
  const timeoutMs = parameters.timeoutMs ?? DEFAULT_KUBO_TIMEOUT_MS
  const description = `kubo ${display}`

  const rpcUrl = (endpoint: string, query: Record<string, string>) =>
    `${base}/api/v0/${endpoint}?${new URLSearchParams(query).toString()}`

  /** POSTs to an RPC endpoint; a failing status becomes {@link KuboRpcError}. */
  async function rpc(
    endpoint: string,
    query: Record<string, string>,
    signal: AbortSignal | undefined,
    body?: { body: Blob | ReadableStream<Uint8Array>; contentType: string; streaming: boolean },
  ): Promise<Response> {
    const init: RequestInit & { duplex?: 'half' } = {
      method: 'POST',
      headers: { ...parameters.headers, ...(body === undefined ? {} : { 'content-type': body.contentType }) },
      signal,
    }
    if (body !== undefined) {
      init.body = body.body
      if (body.streaming) init.duplex = 'half'
    }
    const response = await fetch(rpcUrl(endpoint, query), init)
    if (!response.ok) throw await kuboError(endpoint, response)
    return response
  }

  async function kuboError(endpoint: string, response: Response): Promise<KuboRpcError> {
    let text = ''
    try {
      text = new TextDecoder().decode(
        await readLimited(response, 64 * 1024, () => new Error('long error body')),
      )
    } catch {}
    let message = text.trim()
    try {
      const json = JSON.parse(text) as { Message?: unknown }
      if (typeof json.Message === 'string') message = json.Message
    } catch {}
    return new KuboRpcError({
      endpoint,
      status: response.status,
      message: message.slice(0, 1000) || response.statusText || 'no message',
    })
  }

  /** Uploads parts with `/api/v0/add` and returns the CID of the last entry Kubo reports (the root). */
  function add(parts: MultipartPart[], wrap: boolean, signal: AbortSignal | undefined): Promise<string> {
    const query = {
      'cid-version': String(unixfsImportSettings.cidVersion),
      'raw-leaves': String(unixfsImportSettings.rawLeaves),
      chunker: `size-${unixfsImportSettings.chunkSize}`,
      hash: unixfsImportSettings.hash,
      trickle: 'false',
      pin: 'true',
      progress: 'false',
      'wrap-with-directory': String(wrap),
    }
    return timed(`${display}/api/v0/add`, { signal }, async (combined) => {
      const response = await rpc('add', query, combined, multipartBody(parts))
      return lastAddedCid(response)
    })
  }

  /** Reads Kubo's NDJSON answer line by line (it has one line per entry) and keeps the last CID. */
  async function lastAddedCid(response: Response): Promise<string> {
    let last: string | undefined
    let buffer = ''
    const decoder = new TextDecoder()
    const handle = (line: string) => {
      if (line.trim() === '') return
      let event: { Hash?: unknown; Message?: unknown; Type?: unknown }
      try {
        event = JSON.parse(line)
      } catch {
        throw new KuboRpcError({
          endpoint: 'add',
          status: response.status,
          message: `unexpected output: ${line.slice(0, 200)}`,
        })
      }
      if (event.Type === 'error' || (typeof event.Message === 'string' && event.Hash === undefined))
        throw new KuboRpcError({ endpoint: 'add', status: response.status, message: String(event.Message) })
      if (typeof event.Hash === 'string') last = event.Hash
    }
    if (response.body !== null) {
      const reader = response.body.getReader()
      try {
        while (true) {
          const { done, value } = await reader.read()
          if (done) break
          buffer += decoder.decode(value, { stream: true })
          const lines = buffer.split('\n')
          buffer = lines.pop() ?? ''
          for (const line of lines) handle(line)
          if (buffer.length > 1024 * 1024)
            throw new KuboRpcError({
              endpoint: 'add',
              status: response.status,
              message: 'an output line is over 1 MiB',
            })
        }
      } finally {
        reader.releaseLock()
      }
    }
    handle(buffer + decoder.decode())
    if (last === undefined)
      throw new KuboRpcError({ endpoint: 'add', status: response.status, message: 'no CID in the answer' })
    return last
  }

  /** Compares Kubo's CID with the local one and returns the CID. */
  function check(expected: CID, actual: string): string {
    let parsed: CID
    try {
      parsed = parseCid(actual)
    } catch {
      throw new KuboRpcError({
        endpoint: 'add',
        status: 200,
        message: `returned an invalid CID ${actual.slice(0, 100)}`,
      })
    }
    const same: boolean = parsed.equals(expected)
    if (!same) throw new KuboCidMismatchError({ expected: expected.toString(), actual })
    return expected.toString()
  }

  /**
   * Runs the upload and the local CID computation side by side over teed streams; if the upload
   * fails the local computation is stopped, and the local CID is checked against Kubo's.
   */
  async function addAndCompute(
    tees: readonly Tee[],
    upload: () => Promise<string>,
    compute: (signal: AbortSignal) => Promise<CID>,
    signal: AbortSignal | undefined,
  ): Promise<string> {
    const stop = new AbortController()
    const local = compute(signal === undefined ? stop.signal : AbortSignal.any([signal, stop.signal]))
    local.catch(() => {})
    let actual: string
    try {
      actual = await upload()
    } catch (error) {
      stop.abort(error)
      for (const split of tees) split.detach(0)
      throw error
    }
    // Kubo has read everything it needs: the local side reads on alone.
    for (const split of tees) split.detach(0)
    return check(await local, actual)
  }

  async function put(content: Content, options: WriteOptions = {}): Promise<string> {
    options.signal?.throwIfAborted()
    if (content instanceof Uint8Array) {
      const expected = await importFileContent(content, discardBlock, options)
      return check(expected, await add([{ path: 'file', type: 'file', content }], false, options.signal))
    }
    const split = tee(contentChunks(content))
    return addAndCompute(
      [split],
      () => add([{ path: 'file', type: 'file', content: split.branches[0] }], false, options.signal),
      (signal) => importFileContent(split.branches[1], discardBlock, { signal }),
      options.signal,
    )
  }

  async function putDirectory(
    entries: Iterable<DirectoryEntry> | AsyncIterable<DirectoryEntry>,
    options: WriteOptions = {},
  ): Promise<string> {
    options.signal?.throwIfAborted()
    // Paths are collected (not contents) to send the tree in the order Kubo reads it.
    const paths = new EntryPaths()
    const list: DirectoryEntry[] = []
    for await (const entry of entries) list.push(validateEntry(entry, paths))
    list.sort((a, b) => compareEntryPaths(a.path, b.path))
    if (list.length === 0) {
      const expected = await importDirectoryEntries([], discardBlock, options)
      return check(expected, await add([{ path: 'empty', type: 'directory' }], false, options.signal))
    }

    const parts: MultipartPart[] = []
    const local: DirectoryEntry[] = []
    const tees: Tee[] = []
    const directories = new Set<string>()
    const directory = (path: string) => {
      if (directories.has(path)) return
      directories.add(path)
      parts.push({ path, type: 'directory' })
    }
    for (const entry of list) {
      const segments = entry.path.split('/')
      for (let i = 1; i < segments.length; i++) directory(segments.slice(0, i).join('/'))
      if ('content' in entry) {
        if (entry.content instanceof Uint8Array) {
          parts.push({ path: entry.path, type: 'file', content: entry.content })
          local.push(entry)
        } else {
          const split = tee(contentChunks(entry.content))
          tees.push(split)
          parts.push({ path: entry.path, type: 'file', content: split.branches[0] })
          local.push({ path: entry.path, content: split.branches[1] })
        }
      } else if (entry.type === 'directory') {
        directory(entry.path)
        local.push(entry)
      } else {
        parts.push({ path: entry.path, type: 'symlink', target: entry.target })
        local.push(entry)
      }
    }
    // One file at a time, in the order of the upload, so that both sides read each stream together.
    const compute = (signal: AbortSignal | undefined) =>
      importDirectoryEntries(local, discardBlock, { signal, fileImportConcurrency: 1 })
    if (tees.length === 0) {
      const expected = await compute(options.signal)
      return check(expected, await add(parts, true, options.signal))
    }
    return addAndCompute(tees, () => add(parts, true, options.signal), compute, options.signal)
  }

  const store = createBlockContentStore(
    {
      description,
      corruptionHint: () =>
        `The Kubo node at ${display} served wrong bytes: check its datastore (ipfs repo verify).`,
      getBlock(cid, options) {
        return timed(`${display}/api/v0/block/get`, { timeoutMs, signal: options.signal }, async (signal) => {
          let response: Response
          try {
            response = await rpc('block/get', { arg: cid.toString() }, signal)
          } catch (error) {
            if (error instanceof KuboRpcError && NOT_FOUND.test(error.kuboMessage))
              throw new ContentNotFoundError({ cid: cid.toString(), source: description, cause: error })
            throw error
          }
          return readLimited(
            response,
            MAX_BLOCK_SIZE,
            () => new BlockTooLargeError({ cid: cid.toString(), source: description, limit: MAX_BLOCK_SIZE }),
          )
        })
      },
      async putBlock(cid, bytes, options) {
        const expected = cid
        const query = {
          'cid-codec': expected.code === DAG_PB_CODE ? 'dag-pb' : 'raw',
          mhtype: expected.multihash.code === sha512.code ? 'sha2-512' : 'sha2-256',
          pin: 'false',
        }
        await timed(`${display}/api/v0/block/put`, { signal: options.signal }, async (signal) => {
          const response = await rpc(
            'block/put',
            query,
            signal,
            multipartBody([{ path: 'block', type: 'file', content: bytes }]),
          )
          const text = new TextDecoder().decode(
            await readLimited(response, 64 * 1024, () => new Error('long block/put answer')),
          )
          let key: unknown
          try {
            key = (JSON.parse(text) as { Key?: unknown }).Key
          } catch {}
          if (typeof key !== 'string')
            throw new KuboRpcError({
              endpoint: 'block/put',
              status: response.status,
              message: `no Key in the answer: ${text.slice(0, 200)}`,
            })
          let actual: CID
          try {
            actual = parseCid(key)
          } catch {
            throw new KuboRpcError({
              endpoint: 'block/put',
              status: response.status,
              message: `returned an invalid CID ${key.slice(0, 100)}`,
            })
          }
          // Kubo names the block by the codec and hash asked for: any other answer is another block.
          if (actual.code !== expected.code || !equalBytes(actual.multihash.bytes, expected.multihash.bytes))
            throw new KuboCidMismatchError({ expected: expected.toString(), actual: key })
        })
      },
      hasBlock(cid, options) {
        return timed(
          `${display}/api/v0/block/stat`,
          { timeoutMs, signal: options.signal },
          async (signal) => {
            try {
              await discard(await rpc('block/stat', { arg: cid.toString(), offline: 'true' }, signal))
              return true
            } catch (error) {
              if (error instanceof KuboRpcError && error.status === 500 && NOT_FOUND.test(error.kuboMessage))
                return false
              throw error
            }
          },
        )
      },
    },
    {
      put,
      putJson: (value, options) => put(encodeJson(value), options),
      putDirectory,
    },
  )

  return {
    ...store,
    async pin(cid, options = {}) {
      const parsed = parseCid(cid)
      await timed(`${display}/api/v0/pin/add`, { signal: options.signal }, async (signal) => {
        await discard(await rpc('pin/add', { arg: parsed.toString(), recursive: 'true' }, signal))
      })
    },
  }
}
