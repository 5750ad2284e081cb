import { type Agent, type IncomingMessage, request, type ServerResponse } from 'node:http'
import { connect, type Socket } from 'node:net'
import type { Duplex } from 'node:stream'
import type { LeaseUpstream } from '../runtime/LeaseRuntime.js'
import { type ForwardHeadersParameters, forwardHeaders, responseHeaders } from './forwardHeaders.js'
import { replyJson } from './replies.js'
import type { UsageMeter } from './usageMeter.js'

export interface ForwardParameters extends Omit<ForwardHeadersParameters, 'upgrade'> {
  leaseId: bigint
  /** The lease's registered upstream: the only address the gateway ever dials for it. */
  upstream: LeaseUpstream
  meter: UsageMeter
}

/**
 * Forwards one HTTP request to the lease's service and streams the answer
 * back. The request line's target is passed on as it is (origin-form, checked
 * by the gateway): it is a path on the service, never where to connect.
 */
export function forwardRequest(
  req: IncomingMessage,
  res: ServerResponse,
  { leaseId, upstream, meter, agent, ...headerParameters }: ForwardParameters & { agent: Agent },
): void {
  const close = meter.open(leaseId, 'http')
  let bytesIn = 0
  let bytesOut = 0
  let status = 502
  const outgoing = request({
    host: upstream.host,
    port: upstream.port,
    method: req.method,
    path: req.url,
    headers: forwardHeaders(req.headers, headerParameters),
    setHost: false,
    agent,
  })
  req.on('data', (chunk: Buffer) => {
    bytesIn += chunk.length
  })
  req.pipe(outgoing)
  outgoing.on('response', (answer) => {
    status = answer.statusCode ?? 502
    res.writeHead(status, answer.statusMessage, responseHeaders(answer.headers, headerParameters))
    answer.on('data', (chunk: Buffer) => {
      bytesOut += chunk.length
    })
    answer.pipe(res)
    answer.on('error', () => res.destroy())
  })
  outgoing.on('error', (error) => {
    if (res.headersSent) return void res.destroy()
    replyJson(res, 502, {
      error: 'bad gateway',
      reason: `the service of lease ${leaseId} did not answer (${(error as NodeJS.ErrnoException).code ?? error.message})`,
    })
  })
  res.on('close', () => {
    // The renter went away before the answer was complete: so does the service's request.
    if (!res.writableFinished) outgoing.destroy()
    close({ status, bytesIn, bytesOut })
  })
}

/**
 * Forwards a WebSocket (any `Upgrade`) request: opens a connection to the
 * lease's service, writes the request with the forwarded headers, then
 * splices the two sockets. The service's answer (101 or a refusal) reaches
 * the renter as it is. Returns the service's socket, so that the gateway can
 * cut it when the lease stops being served.
 */
export function forwardUpgrade(
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  { leaseId, upstream, meter, ...headerParameters }: ForwardParameters,
): Socket {
  const close = meter.open(leaseId, 'websocket')
  let bytesIn = head.length
  let bytesOut = 0
  let status = 502
  const service = connect(upstream.port, upstream.host)
  service.setNoDelay(true)
  const headers = forwardHeaders(req.headers, { ...headerParameters, upgrade: String(req.headers.upgrade) })
  service.once('connect', () => {
    let raw = `${req.method} ${req.url} HTTP/1.1\r\n`
    for (const [name, value] of Object.entries(headers)) {
      for (const item of Array.isArray(value) ? value : [value]) raw += `${name}: ${item}\r\n`
    }
    service.write(`${raw}\r\n`)
    if (head.length > 0) service.write(head)
    socket.pipe(service)
    service.pipe(socket)
  })
  service.once('data', (chunk: Buffer) => {
    status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(chunk.subarray(0, 16).toString('latin1'))?.[1] ?? 502)
  })
  service.on('data', (chunk: Buffer) => {
    bytesOut += chunk.length
  })
  socket.on('data', (chunk: Buffer) => {
    bytesIn += chunk.length
  })
  service.once('error', (error) => {
    if (bytesOut === 0 && socket.writable) {
      const body = JSON.stringify({
        error: 'bad gateway',
        reason: `the service of lease ${leaseId} did not answer (${(error as NodeJS.ErrnoException).code ?? error.message})`,
      })
      socket.end(
        `HTTP/1.1 502 Bad Gateway\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      )
    } else socket.destroy()
  })
  socket.on('error', () => service.destroy())
  const ended = () => {
    service.destroy()
    socket.destroy()
    close({ status, bytesIn, bytesOut })
  }
  service.once('close', ended)
  socket.once('close', ended)
  return service
}
