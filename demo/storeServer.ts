/**
 * A content store served over HTTP on 127.0.0.1, so that a browser page (the dashboard), the
 * `gridforge` CLI and any IPFS client reach the same blocks the local provider agent writes with
 * `fsStore()`. Development only: no authentication. It speaks two protocols, both answered from
 * the store's public `ContentStore` interface (`put`, `putDirectory`, `getBlock`, `has`, `ls`):
 *
 * - `/api/v0/…`: the subset of Kubo's RPC API that `kuboStore()` from `@gridforge/sdk/storage`
 *   uses (kuboRpc.ts: `add`, `block/get`, `block/stat`, `pin/add`). Errors are Kubo's: HTTP 500
 *   with `{ Message, Code: 0, Type: 'error' }` (413 for a body over the limit, 403 for a foreign
 *   origin, 404 for an unknown endpoint, 405 for a method other than POST).
 * - `/ipfs/{cid}`: a strict trustless gateway (trustlessGateway.ts): the raw block or a CAR of the
 *   DAG, for `gatewayReader()`, Helia or any client that verifies what it reads. Errors are plain
 *   text with the status the spec gives (400, 404, 405, 406, 412).
 *
 * Browser pages on 127.0.0.1 and localhost (any port) may call both (CORS).
 *
 * @example
 * await using server = await startStoreServer({ root: '/tmp/store', port: 5050 })
 * const kubo = kuboStore({ url: server.url })
 * const cid = await kubo.put(new TextEncoder().encode('hello'))
 * await fetch(`${server.url}/ipfs/${cid}?format=car`) // a CARv1 with the block
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type ContentStore, fsStore } from '@gridforge/sdk/storage'
import { kuboRpcEndpoints, RpcError, rpcErrorMessage } from './kuboRpc.js'
import { GatewayError, trustlessGatewayResponse } from './trustlessGateway.js'

export interface StartStoreServerParameters {
  /** Directory of the `fsStore` (created on first write); the agent must use the same one. */
  root: string
  /** Default: a free port. */
  port?: number | undefined
  /** Largest request body in bytes; a bigger one is answered 413 (default 64 MiB). */
  maxBodyBytes?: number | undefined
}

export interface StoreServer extends AsyncDisposable {
  /** `http://127.0.0.1:<port>`: the `url` to give `kuboStore()` and `gatewayReader()`. */
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
/** Response headers a page may read: Kubo's streaming flags and the gateway's. */
const exposedHeaders = [
  'X-Stream-Output',
  'X-Chunked-Output',
  'X-Content-Length',
  'Content-Length',
  'Content-Disposition',
  'Etag',
  'X-Ipfs-Path',
  'X-Ipfs-Roots',
].join(', ')

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
  const endpoints = kuboRpcEndpoints(store)

  const server = createServer((incoming, outgoing) => {
    void handle(incoming, outgoing).catch((error: unknown) => {
      // Headers already sent (a CAR cut short by a missing block): end the connection without
      // finishing the body, so that the client sees an incomplete answer, never a complete one.
      if (outgoing.headersSent) outgoing.destroy()
      else outgoing.writeHead(500).end()
      if (!(error instanceof Error && error.name === 'ContentNotFoundError'))
        console.error('storeServer: unexpected failure', error)
    })
  })

  async function handle(incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
    const origin = incoming.headers.origin
    const cors: Record<string, string> = {}
    if (origin !== undefined && allowedOrigin.test(origin)) {
      cors['access-control-allow-origin'] = origin
      cors['access-control-expose-headers'] = exposedHeaders
      cors.vary = 'Origin'
    }
    if (incoming.method === 'OPTIONS') {
      if (cors['access-control-allow-origin'] !== undefined) {
        cors['access-control-allow-methods'] = 'GET, HEAD, POST, OPTIONS'
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
      const headers = Object.fromEntries(response.headers)
      if (cors.vary !== undefined && headers.vary !== undefined) cors.vary = `${headers.vary}, Origin`
      outgoing.writeHead(response.status, { ...headers, ...cors })
      if (response.body === null || incoming.method === 'HEAD') {
        await response.body?.cancel()
        outgoing.end()
        return
      }
      for await (const chunk of response.body) {
        // Wait for the socket to drain: a CAR is written as fast as the client reads it, not faster.
        if (!outgoing.write(chunk)) await drained(outgoing)
        if (outgoing.destroyed) return
      }
      outgoing.end()
    }

    const url = new URL(incoming.url ?? '/', 'http://127.0.0.1')
    if (url.pathname.startsWith('/ipfs/')) {
      incoming.resume()
      let response: Response
      try {
        if (origin !== undefined && cors['access-control-allow-origin'] === undefined)
          throw new GatewayError(
            `origin ${origin} is not allowed (only http://127.0.0.1:* and http://localhost:*)`,
            403,
          )
        response = await trustlessGatewayResponse(store, {
          method: incoming.method ?? 'GET',
          url,
          headers: new Headers(incoming.headers as Record<string, string>),
        })
      } catch (error) {
        response = gatewayError(error)
      }
      await send(response)
      return
    }

    try {
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
      const status = error instanceof RpcError ? error.status : 500
      await send(Response.json({ Message: rpcErrorMessage(error), Code: 0, Type: 'error' }, { status }))
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

/** Resolves once `outgoing` can take more data, or is closed. */
function drained(outgoing: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      outgoing.off('drain', done)
      outgoing.off('close', done)
      resolve()
    }
    outgoing.on('drain', done)
    outgoing.on('close', done)
  })
}

/** A gateway error as plain text; failures of the store itself are 500. */
function gatewayError(error: unknown): Response {
  const status = error instanceof GatewayError ? error.status : 500
  if (status === 500) console.error('storeServer: gateway failure', error)
  return new Response(`${rpcErrorMessage(error)}\n`, {
    status,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' },
  })
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
