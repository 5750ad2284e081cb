import { describe, expect, test } from 'vitest'
import { forwardHeaders, responseHeaders } from './forwardHeaders.js'
import { leaseIdOfHost } from './leaseHost.js'
import { leaseResource, parseLeaseResource } from './leaseResource.js'
import { issueSessionToken, readSessionToken, sessionTokenReader } from './sessionToken.js'

const leaseMarket = '0x5FbDB2315678afecb367f032d93F642f64180aa3' as const

describe('leaseIdOfHost', () => {
  test.each([
    ['7.localhost:8080', 7n],
    ['7.LOCALHOST:8080', 7n],
    ['0.localhost:8080', 0n],
    ['07.localhost:8080', undefined],
    ['7.localhost:8081', undefined],
    ['7.localhost:8080.evil.com', undefined],
    ['x.7.localhost:8080', undefined],
    ['localhost:8080', undefined],
    ['.localhost:8080', undefined],
    ['-1.localhost:8080', undefined],
    [`${2n ** 256n}.localhost:8080`, undefined],
    [undefined, undefined],
  ])('%s → %s', (host, leaseId) => {
    expect(leaseIdOfHost(host, 'localhost:8080')).toBe(leaseId)
  })
})

test('leaseResource round-trips and refuses look-alikes', () => {
  const ref = { chainId: 8453, leaseMarket, leaseId: 7n }
  expect(parseLeaseResource(leaseResource(ref))).toEqual(ref)
  expect(parseLeaseResource(`gridforge-lease:8453:${leaseMarket}:07`)).toBeUndefined()
  expect(parseLeaseResource(`gridforge-lease:8453:${leaseMarket}:7/x`)).toBeUndefined()
})

test('session tokens: bound to their secret, expire, and cannot be edited', () => {
  const secret = new Uint8Array(32).fill(1)
  const session = { chainId: 1, leaseMarket, leaseId: 7n, renter: leaseMarket, expiresAt: 2_000 } as const
  const token = issueSessionToken(secret, session)
  expect(readSessionToken(secret, token, 1_000)).toEqual(session)
  expect(readSessionToken(secret, token, 2_000)).toBeUndefined()
  expect(readSessionToken(new Uint8Array(32).fill(2), token, 1_000)).toBeUndefined()
  const [prefix, payload, mac] = token.split('.')
  const edited = Buffer.from(
    Buffer.from(payload as string, 'base64url')
      .toString()
      .replace('"l":"7"', '"l":"8"'),
  ).toString('base64url')
  expect(readSessionToken(secret, `${prefix}.${edited}.${mac}`, 1_000)).toBeUndefined()
})

test('sessionTokenReader remembers verified tokens only, and still expires them', () => {
  const secret = new Uint8Array(32).fill(1)
  const session = { chainId: 1, leaseMarket, leaseId: 7n, renter: leaseMarket, expiresAt: 2_000 } as const
  const token = issueSessionToken(secret, session)
  const read = sessionTokenReader(secret, { size: 2 })
  expect(read(token, 1_000)).toEqual(session)
  expect(read(token, 1_500)).toEqual(session)
  expect(read(token, 2_000)).toBeUndefined()
  // A forged token is refused every time, however often it comes.
  const forged = `${token.slice(0, token.lastIndexOf('.'))}.${'A'.repeat(43)}`
  expect(read(forged, 1_000)).toBeUndefined()
  expect(read(forged, 1_000)).toBeUndefined()
  // Past `size` tokens the oldest is forgotten, and verified again when it comes back.
  const others = [8n, 9n, 10n].map((leaseId) =>
    issueSessionToken(secret, { ...session, leaseId, expiresAt: 5_000 }),
  )
  for (const other of others) expect(read(other, 1_000)?.leaseId).toBeDefined()
  expect(read(others[0] as string, 1_000)?.leaseId).toBe(8n)
  expect(sessionTokenReader(new Uint8Array(32).fill(2))(others[0] as string, 1_000)).toBeUndefined()
})

test('forwardHeaders drops hop-by-hop headers, the gateway credentials and client claims', () => {
  const headers = forwardHeaders(
    {
      host: '7.localhost:8080',
      connection: 'keep-alive, x-secret',
      'x-secret': 'hop',
      'keep-alive': 'timeout=5',
      authorization: 'Bearer gfl1.abc.def',
      cookie: 'a=1; gridforge_lease=gfl1.abc.def; b=2',
      'x-forwarded-for': '6.6.6.6',
      'x-real-ip': '6.6.6.6',
      accept: 'text/html',
    },
    { cookieName: 'gridforge_lease', clientAddress: '127.0.0.1', proto: 'https' },
  )
  expect(headers).toEqual({
    host: '7.localhost:8080',
    cookie: 'a=1; b=2',
    accept: 'text/html',
    'x-forwarded-for': '127.0.0.1',
    'x-forwarded-proto': 'https',
    'x-forwarded-host': '7.localhost:8080',
  })
  // A service's own Authorization (an API key) passes.
  expect(
    forwardHeaders(
      { authorization: 'Bearer sk-123' },
      { cookieName: 'c', clientAddress: '::1', proto: 'http' },
    ).authorization,
  ).toBe('Bearer sk-123')
  expect(
    responseHeaders(
      { 'set-cookie': ['gridforge_lease=x; Path=/', 'app=1'], 'transfer-encoding': 'chunked' },
      { cookieName: 'gridforge_lease' },
    ),
  ).toEqual({ 'set-cookie': ['app=1'] })
})
