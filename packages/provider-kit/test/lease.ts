import { createHash } from 'node:crypto'
import { createServer, type IncomingHttpHeaders, request, type Server } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import type { Address, LocalAccount } from 'viem'
import type { LeaseAuthority, LeaseState } from '../src/lease/LeaseAuthority.js'
import { createLeaseSignInMessage } from '../src/lease/leaseSignIn.js'
import { demuxLogStream } from '../src/runtime/docker/demuxLogStream.js'
import { docker } from './docker.js'
import { buildTestImage, type TestImage } from './images.js'

/**
 * The lease tests' service: busybox `httpd` on port 8080 serving a page that
 * names its lease (`LEASE` in the environment), written to /tmp at start
 * (the root file system is read-only).
 */
export function httpdImage(): Promise<TestImage> {
  return buildTestImage({
    tag: 'gridforge-test/httpd:lease',
    cmd: [
      'sh',
      '-c',
      'mkdir -p /tmp/www && echo "page of lease $LEASE" > /tmp/www/index.html && exec httpd -f -p 8080 -h /tmp/www',
    ],
  })
}

/** A lease authority the test edits: `leases.set(7n, { renter, provider, active: true })`. */
export function fakeAuthority(): LeaseAuthority & { leases: Map<bigint, LeaseState>; lookups: number } {
  const leases = new Map<bigint, LeaseState>()
  const authority = {
    leases,
    lookups: 0,
    async getLease(leaseId: bigint) {
      authority.lookups++
      return leases.get(leaseId)
    },
  }
  return authority
}

export interface Answer {
  status: number
  headers: IncomingHttpHeaders
  body: string
  /** `performance.now()` when the answer's first bytes (its status line and headers) arrived. */
  firstByteAt: number
}

/**
 * One HTTP request to `url` (the gateway's listening address) with any
 * `Host` and any request target, absolute URIs included: what fetch will not send.
 */
export function send(
  url: string,
  {
    host,
    path = '/',
    method = 'GET',
    headers = {},
    body,
  }: { host: string; path?: string; method?: string; headers?: Record<string, string>; body?: string },
): Promise<Answer> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve, reject) => {
    const req = request(
      { host: hostname, port, method, path, headers: { ...headers, host }, setHost: false },
      (res) => {
        const firstByteAt = performance.now()
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
            firstByteAt,
          }),
        )
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

/** Signs in to a lease as `account`: nonce, message, signature, login; the login's answer. */
export async function signIn(
  gatewayUrl: string,
  {
    host,
    account,
    leaseMarket,
    chainId,
    leaseId,
    expirationTime = new Date(Date.now() + 600_000),
  }: {
    host: string
    account: LocalAccount
    leaseMarket: Address
    chainId: number
    leaseId: bigint
    expirationTime?: Date
  },
): Promise<Answer & { token?: string; cookie?: string }> {
  const nonce = JSON.parse((await send(gatewayUrl, { host, path: '/_gridforge/nonce' })).body)
  const message = createLeaseSignInMessage({
    address: account.address,
    uri: nonce.uri,
    lease: { chainId, leaseMarket, leaseId },
    nonce: nonce.nonce,
    expirationTime,
    issuedAt: new Date(Math.min(Date.now(), expirationTime.getTime() - 1_000)),
  })
  const signature = await account.signMessage({ message })
  const answer = await send(gatewayUrl, {
    host,
    path: '/_gridforge/login',
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ message, signature }),
  })
  const cookie = answer.headers['set-cookie']?.[0]?.split(';')[0]
  const token = answer.status === 200 ? (JSON.parse(answer.body).token as string) : undefined
  return { ...answer, ...(cookie === undefined ? {} : { cookie }), ...(token === undefined ? {} : { token }) }
}

/**
 * A server on 127.0.0.1 that answers HTTP with the request it got (method,
 * url, headers) as JSON, and echoes WebSocket text frames: the stand-in for a
 * lease's service where the tests need to see what the gateway forwarded.
 * `hits` counts every request and upgrade it received.
 */
export async function startEchoService(): Promise<{
  server: Server
  port: number
  hits: number
  close(): Promise<void>
}> {
  const sockets = new Set<Socket>()
  const service = {
    server: createServer((req, res) => {
      service.hits++
      const text = JSON.stringify({ method: req.method, url: req.url, headers: req.headers })
      res.writeHead(200, {
        'content-type': 'application/json',
        'set-cookie': ['gridforge_lease=stolen', 'app=1'],
      })
      res.end(text)
    }),
    port: 0,
    hits: 0,
    async close() {
      for (const socket of sockets) socket.destroy()
      service.server.closeAllConnections()
      await new Promise<void>((resolve) => service.server.close(() => resolve()))
    },
  }
  service.server.on('upgrade', (req, socket: Socket) => {
    service.hits++
    sockets.add(socket)
    const accept = createHash('sha1')
      .update(`${req.headers['sec-websocket-key']}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`)
      .digest('base64')
    socket.write(
      `HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nconnection: Upgrade\r\nsec-websocket-accept: ${accept}\r\n\r\n`,
    )
    readFrames(socket, (text) => socket.write(frame(`echo: ${text}`, false)))
  })
  await new Promise<void>((resolve) => service.server.listen(0, '127.0.0.1', resolve))
  service.port = (service.server.address() as AddressInfo).port
  return service
}

/** Opens a WebSocket through `url` with `Host: host`; resolves with the socket, or rejects with the HTTP answer. */
export function openWebSocket(
  url: string,
  { host, headers = {} }: { host: string; headers?: Record<string, string> },
): Promise<{ send(text: string): Promise<string>; close(): void }> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve, reject) => {
    const req = request({
      host: hostname,
      port,
      path: '/socket',
      setHost: false,
      headers: {
        ...headers,
        host,
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': Buffer.from('gridforge-test-k').toString('base64'),
      },
    })
    req.on('upgrade', (_res, socket: Socket) => {
      const waiting: ((text: string) => void)[] = []
      readFrames(socket, (text) => waiting.shift()?.(text))
      resolve({
        send(text) {
          return new Promise((answer) => {
            waiting.push(answer)
            socket.write(frame(text, true))
          })
        },
        close: () => socket.destroy(),
      })
    })
    req.on('response', (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () =>
        reject(
          Object.assign(new Error(`HTTP ${res.statusCode}`), {
            status: res.statusCode,
            body: Buffer.concat(chunks).toString(),
          }),
        ),
      )
    })
    req.on('error', reject)
    req.end()
  })
}

/** A WebSocket text frame (payload under 126 bytes), masked as a client must. */
function frame(text: string, masked: boolean): Buffer {
  const payload = Buffer.from(text)
  const mask = Buffer.from([1, 2, 3, 4])
  const header = Buffer.from([0x81, (masked ? 0x80 : 0) | payload.length])
  const body = masked ? payload.map((byte, index) => byte ^ (mask[index % 4] as number)) : payload
  return Buffer.concat([header, ...(masked ? [mask] : []), body])
}

/** Calls `onText` with each text frame's payload (frames under 126 bytes, masked or not). */
function readFrames(socket: Socket, onText: (text: string) => void): void {
  let buffer = Buffer.alloc(0)
  socket.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk])
    for (;;) {
      if (buffer.length < 2) return
      const masked = ((buffer[1] as number) & 0x80) !== 0
      const length = (buffer[1] as number) & 0x7f
      const start = 2 + (masked ? 4 : 0)
      if (buffer.length < start + length) return
      const mask = buffer.subarray(2, 6)
      const payload = buffer
        .subarray(start, start + length)
        .map((byte, index) => (masked ? byte ^ (mask[index % 4] as number) : byte))
      buffer = buffer.subarray(start + length)
      onText(Buffer.from(payload).toString())
    }
  })
}

/** Runs a command in a running container; its exit code and output. */
export async function execIn(
  containerId: string,
  command: string[],
): Promise<{ exitCode: number; output: string }> {
  const exec = await docker()
    .getContainer(containerId)
    .exec({ Cmd: command, AttachStdout: true, AttachStderr: true })
  const stream = await exec.start({ hijack: true, stdin: false })
  let output = ''
  const push = demuxLogStream((_stream, payload) => {
    output += Buffer.from(payload).toString()
  })
  await new Promise<void>((resolve, reject) => {
    stream.on('data', (chunk: Buffer) => push(chunk))
    stream.on('end', resolve)
    stream.on('error', reject)
  })
  const { ExitCode } = await exec.inspect()
  return { exitCode: ExitCode ?? -1, output }
}
