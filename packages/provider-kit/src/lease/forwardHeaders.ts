import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http'
import { sessionTokenPrefix } from './sessionToken.js'

/** Headers that belong to one connection (RFC 9110 §7.6.1), never forwarded as they are. */
const hopByHop = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
])

/** What a client could send to pass itself off as someone else to the service: the gateway says it instead. */
const clientClaims = new Set([
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-proto',
  'x-forwarded-host',
  'x-real-ip',
])

export interface ForwardHeadersParameters {
  /** The gateway's session cookie name: that cookie is the gateway's, never the service's. */
  cookieName: string
  /** The client's address as the gateway's socket saw it. */
  clientAddress: string
  /** The scheme renters use to reach the gateway. */
  proto: 'http' | 'https'
  /** The `Upgrade` protocol of a WebSocket request, kept with `Connection: upgrade`. */
  upgrade?: string | undefined
}

/**
 * The headers of a request forwarded to a lease's service: the request's own
 * minus the hop-by-hop ones, minus the renter's gateway credentials (the
 * session cookie, a `Bearer gfl1.…` token: the service must not be able to
 * replay them), minus any `Forwarded`/`X-Forwarded-*` the client wrote, plus
 * the gateway's own `X-Forwarded-For`/`-Proto`/`-Host`. `Host` stays the
 * lease's host, so the service builds its own links right.
 *
 * @example
 * forwardHeaders({ host: '7.localhost:8080', cookie: 'gridforge_lease=gfl1.x; _xsrf=abc' }, { cookieName: 'gridforge_lease', clientAddress: '127.0.0.1', proto: 'http' })
 * // { host: '7.localhost:8080', cookie: '_xsrf=abc', 'x-forwarded-for': '127.0.0.1', 'x-forwarded-proto': 'http', 'x-forwarded-host': '7.localhost:8080' }
 */
export function forwardHeaders(
  headers: IncomingHttpHeaders,
  { cookieName, clientAddress, proto, upgrade }: ForwardHeadersParameters,
): OutgoingHttpHeaders {
  const connectionListed = new Set(
    String(headers.connection ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .filter((name) => name !== ''),
  )
  const forwarded: OutgoingHttpHeaders = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || hopByHop.has(name) || connectionListed.has(name) || clientClaims.has(name))
      continue
    if (name === 'authorization' && isSessionBearer(String(value))) continue
    if (name === 'cookie') {
      const kept = withoutCookie(String(value), cookieName)
      if (kept !== '') forwarded.cookie = kept
      continue
    }
    forwarded[name] = value
  }
  forwarded['x-forwarded-for'] = clientAddress
  forwarded['x-forwarded-proto'] = proto
  if (headers.host !== undefined) forwarded['x-forwarded-host'] = headers.host
  if (upgrade !== undefined) {
    forwarded.connection = 'upgrade'
    forwarded.upgrade = upgrade
  }
  return forwarded
}

/**
 * The headers of a service's response passed back to the renter: minus the
 * hop-by-hop ones, and minus any `Set-Cookie` of the gateway's cookie (a
 * service cannot swap the renter's session).
 */
export function responseHeaders(
  headers: IncomingHttpHeaders,
  { cookieName }: { cookieName: string },
): OutgoingHttpHeaders {
  const connectionListed = new Set(
    String(headers.connection ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase()),
  )
  const kept: OutgoingHttpHeaders = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || hopByHop.has(name) || connectionListed.has(name)) continue
    if (name === 'set-cookie') {
      const cookies = (Array.isArray(value) ? value : [value]).filter(
        (cookie) => cookieNameOf(cookie) !== cookieName,
      )
      if (cookies.length > 0) kept[name] = cookies
      continue
    }
    kept[name] = value
  }
  return kept
}

/** The gateway's token in an `Authorization: Bearer …` header, `undefined` when it holds none. */
export function bearerToken(authorization: string | undefined): string | undefined {
  const match = /^bearer\s+(\S+)\s*$/i.exec(authorization ?? '')
  return match?.[1]?.startsWith(sessionTokenPrefix) ? match[1] : undefined
}

/** A cookie's value from a `Cookie` header. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const pair of (header ?? '').split(';')) {
    const index = pair.indexOf('=')
    if (index > 0 && pair.slice(0, index).trim() === name) return pair.slice(index + 1).trim()
  }
  return undefined
}

function isSessionBearer(authorization: string): boolean {
  return bearerToken(authorization) !== undefined
}

function withoutCookie(header: string, name: string): string {
  return header
    .split(';')
    .map((pair) => pair.trim())
    .filter((pair) => pair !== '' && (pair.split('=', 1)[0] ?? '').trim() !== name)
    .join('; ')
}

function cookieNameOf(setCookie: string): string {
  return (setCookie.split('=', 1)[0] ?? '').trim()
}
