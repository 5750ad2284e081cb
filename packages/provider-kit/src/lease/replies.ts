import { type OutgoingHttpHeaders, type ServerResponse, STATUS_CODES } from 'node:http'
import type { Duplex } from 'node:stream'

/** Answers with a JSON body; the gateway's own answers are never cached. */
export function replyJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: OutgoingHttpHeaders = {},
): void {
  const text = JSON.stringify(body)
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    ...headers,
  })
  res.end(text)
}

/** The same answer on the raw socket of an `Upgrade` request, which has no `ServerResponse`; then closes it. */
export function replyJsonOnSocket(
  socket: Duplex,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): void {
  const text = JSON.stringify(body)
  const lines = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
    'content-type: application/json; charset=utf-8',
    `content-length: ${Buffer.byteLength(text)}`,
    'cache-control: no-store',
    'connection: close',
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ]
  socket.end(`${lines.join('\r\n')}\r\n\r\n${text}`)
}
