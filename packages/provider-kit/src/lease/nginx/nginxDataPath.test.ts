import { randomBytes } from 'node:crypto'
import { access, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { until } from '../../../test/harness.js'
import { fakeAuthority, openWebSocket, send, signIn, startEchoService } from '../../../test/lease.js'
import { NginxUnavailableError } from '../../errors.js'
import { type LeaseGateway, startLeaseGateway } from '../leaseGateway.js'
import { issueSessionToken } from '../sessionToken.js'
import type { LeaseExchange } from '../usageMeter.js'
import { freePort } from './freePort.js'
import { type NginxDataPath, nginxDataPath } from './nginxDataPath.js'

const renter = privateKeyToAccount(`0x${'11'.repeat(32)}`)
const stranger = privateKeyToAccount(`0x${'22'.repeat(32)}`)
const provider = privateKeyToAccount(`0x${'44'.repeat(32)}`).address
const leaseMarket = '0x5FbDB2315678afecb367f032d93F642f64180aa3' as const
const chainId = 31337
const authority = fakeAuthority()
const exchanges: LeaseExchange[] = []
const secret = randomBytes(32)

let dir: string
let dataPath: NginxDataPath
let gateway: LeaseGateway
let echo: Awaited<ReturnType<typeof startEchoService>>
let publicHost: string

const passFile = (leaseId: bigint) => path.join(dir, 'passes', leaseId.toString())
/** Polls `check` every 50 ms, 5 s at most. */
const soon = (check: () => boolean | Promise<boolean>, what: string) => until(check, 5_000, what, 50)
const macOf = (token: string) => token.slice(token.lastIndexOf('.') + 1)
/** Waits until the lease's pass names the session (the gateway has verified it, and told nginx). */
const passed = (leaseId: bigint, token: string) =>
  soon(async () => {
    const pass = await readFile(passFile(leaseId), 'utf8').catch(() => '{}')
    return JSON.parse(pass).sessions?.[macOf(token)] !== undefined
  }, `lease ${leaseId}'s pass naming the session`)
const hasPass = (leaseId: bigint) =>
  access(passFile(leaseId)).then(
    () => true,
    () => false,
  )

/** Lease 4: the renter's, the echo service. Lease 5: another wallet's, same service. */
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'gridforge-nginx-test-'))
  echo = await startEchoService()
  authority.leases.set(4n, { renter: renter.address, provider, active: true })
  authority.leases.set(5n, { renter: stranger.address, provider, active: true })
  const port = await freePort()
  publicHost = `localhost:${port}`
  dataPath = await nginxDataPath({ dir, port, workerProcesses: 1 })
  gateway = await startLeaseGateway({
    chainId,
    leaseMarket,
    authority,
    provider,
    secret,
    publicHost,
    dataPath,
    leaseCheckMs: 1_000,
    onExchange: (exchange) => exchanges.push(exchange),
  })
  await dataPath.start(gateway)
  gateway.serveLease(4n, { host: '127.0.0.1', port: echo.port })
  gateway.serveLease(5n, { host: '127.0.0.1', port: echo.port })
  await soon(() => hasPass(4n), "lease 4's pass")
}, 60_000)

afterAll(async () => {
  await gateway?.close()
  await dataPath?.stop()
  await echo?.close()
  if (dir !== undefined) await rm(dir, { recursive: true, force: true })
})

const host = (leaseId: bigint) => `${leaseId}.${publicHost}`
const signInTo = (leaseId: bigint, account = renter) =>
  signIn(dataPath.url, { host: host(leaseId), account, leaseMarket, chainId, leaseId })
const echoed = (body: string) => JSON.parse(body) as { url: string; headers: Record<string, string> }

describe('nginx proxies what the gateway would, itself', () => {
  test("the renter's request: straight to the service, with the gateway's headers and not its credentials", async () => {
    const login = await signInTo(4n)
    expect(login.status).toBe(200)
    await passed(4n, login.token!)
    exchanges.length = 0
    const answer = await send(dataPath.url, {
      host: host(4n),
      path: '/a//b?x=1',
      headers: {
        authorization: `Bearer ${login.token}`,
        cookie: `a=1; ${login.cookie}; b=2`,
        'x-forwarded-for': '6.6.6.6',
        forwarded: 'for=6.6.6.6',
        'x-real-ip': '6.6.6.6',
        'x-app_header': 'kept',
      },
    })
    expect(answer.status).toBe(200)
    const { url, headers } = echoed(answer.body)
    expect(url).toBe('/a//b?x=1')
    expect(headers).toMatchObject({
      host: host(4n),
      cookie: 'a=1; b=2',
      'x-forwarded-for': '127.0.0.1',
      'x-forwarded-proto': 'http',
      'x-forwarded-host': host(4n),
      'x-app_header': 'kept',
    })
    expect(headers).not.toHaveProperty('authorization')
    expect(headers).not.toHaveProperty('forwarded')
    expect(headers).not.toHaveProperty('x-real-ip')
    // The service's attempt to set the gateway's cookie is dropped; its own cookie is not.
    expect(answer.headers['set-cookie']).toEqual(['app=1'])
    // nginx served it, and told the gateway's meter.
    await soon(() => exchanges.some((exchange) => exchange.via === 'data path'), 'an exchange nginx served')
    expect(exchanges).toEqual([
      expect.objectContaining({ leaseId: 4n, kind: 'http', via: 'data path', status: 200, bytesIn: 0 }),
    ])
    // Bytes as nginx sent them: the service's chunked framing included.
    expect(exchanges[0]?.bytesOut).toBeGreaterThanOrEqual(Buffer.byteLength(answer.body))
    expect(exchanges[0]?.bytesOut).toBeLessThan(Buffer.byteLength(answer.body) + 32)
    expect(gateway.usage(4n).requests).toBeGreaterThanOrEqual(1)
  })

  test('the session cookie works too, and a service of its own Authorization keeps it', async () => {
    const login = await signInTo(4n)
    const answer = await send(dataPath.url, {
      host: host(4n),
      headers: { cookie: login.cookie!, authorization: 'Basic dXNlcjpwYXNz' },
    })
    expect(answer.status).toBe(200)
    expect(echoed(answer.body).headers).toMatchObject({ authorization: 'Basic dXNlcjpwYXNz' })
    expect(echoed(answer.body).headers).not.toHaveProperty('cookie')
  })
})

describe('nginx holds no key: the gateway verifies each session first', () => {
  test('a valid token the gateway has not seen goes to it once, then nginx serves it', async () => {
    // Issued with the gateway's key (as before a restart of the agent), never presented since.
    const token = issueSessionToken(secret, {
      chainId,
      leaseMarket,
      leaseId: 4n,
      renter: renter.address,
      expiresAt: Date.now() + 600_000,
    })
    exchanges.length = 0
    const first = await send(dataPath.url, { host: host(4n), headers: { authorization: `Bearer ${token}` } })
    expect(first.status).toBe(200)
    await passed(4n, token)
    const next = await send(dataPath.url, { host: host(4n), headers: { authorization: `Bearer ${token}` } })
    expect(next.status).toBe(200)
    await soon(() => exchanges.length === 2, 'both exchanges metered')
    expect(exchanges.map((exchange) => exchange.via)).toEqual(['gateway', 'data path'])
    // Another wallet's token for the same lease is never passed: nginx hands it to the gateway, which refuses it.
    const strangers = issueSessionToken(secret, {
      chainId,
      leaseMarket,
      leaseId: 4n,
      renter: stranger.address,
      expiresAt: Date.now() + 600_000,
    })
    const refused = await send(dataPath.url, {
      host: host(4n),
      headers: { authorization: `Bearer ${strangers}` },
    })
    expect(refused.status).toBe(403)
  })
})

describe('everything else is the gateway’s answer', () => {
  test('no token 401, another wallet 403, a forged or another lease’s token 401, with the gateway’s reasons', async () => {
    const before = echo.hits
    const none = await send(dataPath.url, { host: host(4n) })
    expect(none.status).toBe(401)
    expect(JSON.parse(none.body)).toMatchObject({ error: 'unauthorized', signIn: { chainId } })

    const strangers = await signInTo(4n, stranger)
    expect(strangers.status).toBe(403)

    const own = await signInTo(4n)
    const forged = `${own.token!.slice(0, own.token!.lastIndexOf('.'))}.${'A'.repeat(43)}`
    const byForged = await send(dataPath.url, {
      host: host(4n),
      headers: { authorization: `Bearer ${forged}` },
    })
    expect(byForged.status).toBe(401)
    // Lease 5's renter is the stranger: the renter's token for lease 4 does not open it.
    const elsewhere = await send(dataPath.url, {
      host: host(5n),
      headers: { authorization: `Bearer ${own.token}` },
    })
    expect(elsewhere.status).toBe(401)
    expect(JSON.parse(elsewhere.body).reason).toMatch(/for lease 4, not 5/)
    expect(echo.hits).toBe(before)
  })

  test('a cookie sent by another origin with an unsafe method is refused (403), as the gateway does', async () => {
    const login = await signInTo(4n)
    const before = echo.hits
    const answer = await send(dataPath.url, {
      host: host(4n),
      method: 'POST',
      headers: { cookie: login.cookie!, origin: `http://${host(5n)}` },
      body: 'x',
    })
    expect(answer.status).toBe(403)
    expect(echo.hits).toBe(before)
  })

  test('an absolute-form target and a foreign host never reach anything but the gateway', async () => {
    const login = await signInTo(4n)
    const before = echo.hits
    const absolute = await send(dataPath.url, {
      host: host(4n),
      path: `http://127.0.0.1:${echo.port}/`,
      headers: { authorization: `Bearer ${login.token}` },
    })
    expect(absolute).toMatchObject({ status: 400, body: expect.stringMatching(/must be a path/) })
    const foreign = await send(dataPath.url, {
      host: `4.evil.example:${echo.port}`,
      headers: { authorization: `Bearer ${login.token}` },
    })
    expect(foreign.status).toBe(404)
    expect(echo.hits).toBe(before)
  })

  test('WebSockets go through the gateway, which cuts them when the lease stops being served', async () => {
    const login = await signInTo(4n)
    const socket = await openWebSocket(dataPath.url, {
      host: host(4n),
      headers: { authorization: `Bearer ${login.token}` },
    })
    expect(await socket.send('hi')).toBe('echo: hi')
    socket.close()
  })
})

describe('the pass follows the gateway', () => {
  test('a lease no longer served loses its pass at once, and gets it back when served again', async () => {
    const login = await signInTo(4n)
    gateway.stopServing(4n)
    await soon(async () => !(await hasPass(4n)), "lease 4's pass removed")
    const stopped = await send(dataPath.url, {
      host: host(4n),
      headers: { authorization: `Bearer ${login.token}` },
    })
    expect(stopped.status).toBe(503)
    gateway.serveLease(4n, { host: '127.0.0.1', port: echo.port })
    await soon(() => hasPass(4n), "lease 4's pass back")
    const served = await send(dataPath.url, {
      host: host(4n),
      headers: { authorization: `Bearer ${login.token}` },
    })
    expect(served.status).toBe(200)
  })

  test('a lease that ends is refused (410) within a lease check, though its pass was valid', async () => {
    authority.leases.set(5n, { renter: stranger.address, provider, active: true })
    const login = await signInTo(5n, stranger)
    expect(login.status).toBe(200)
    authority.leases.set(5n, {
      renter: stranger.address,
      provider,
      active: false,
      reason: 'closed by the renter',
    })
    await soon(async () => {
      const answer = await send(dataPath.url, {
        host: host(5n),
        headers: { authorization: `Bearer ${login.token}` },
      })
      return answer.status === 410
    }, 'lease 5 refused as ended')
    await soon(async () => !(await hasPass(5n)), "lease 5's pass removed")
  })

  test('an expired pass is not honoured, whatever the file says', async () => {
    const login = await signInTo(4n)
    gateway.stopServing(4n)
    await soon(async () => !(await hasPass(4n)), "lease 4's pass removed")
    // A pass left behind (a gateway that died): expired, so nginx hands the request to the gateway.
    await writeFile(
      passFile(4n),
      JSON.stringify({
        upstream: `127.0.0.1:${echo.port}`,
        until: Date.now() - 1,
        origin: `http://${host(4n)}`,
        cookieName: 'gridforge_lease',
        sessions: { [macOf(login.token!)]: Date.now() + 600_000 },
      }),
    )
    const before = echo.hits
    const answer = await send(dataPath.url, {
      host: host(4n),
      headers: { authorization: `Bearer ${login.token}` },
    })
    expect(answer.status).toBe(503)
    expect(echo.hits).toBe(before)
    gateway.serveLease(4n, { host: '127.0.0.1', port: echo.port })
  })
})

describe('running nginx', () => {
  test('an nginx left by a killed run of the same folder is stopped, so that the port is free again', async () => {
    const leftoverDir = await mkdtemp(path.join(tmpdir(), 'gridforge-nginx-leftover-'))
    const port = await freePort()
    const options = { dir: leftoverDir, port }
    const first = await nginxDataPath(options)
    let second: NginxDataPath | undefined
    try {
      await first.start(gateway)
      // The agent dies without stopping it; the next run starts on the same folder and port.
      second = await nginxDataPath(options)
      await second.start(gateway)
      // The gateway's answer, through the second nginx.
      const answer = await send(second.url, { host: host(4n) })
      expect(answer.status).toBe(401)
    } finally {
      await second?.stop()
      await first.stop()
    }
    await rm(leftoverDir, { recursive: true, force: true })
  })

  test('without nginx or its njs module: NginxUnavailableError, saying what to install', async () => {
    const options = { dir, port: 1 }
    await expect(nginxDataPath({ ...options, binary: '/nonexistent/nginx' })).rejects.toThrow(
      NginxUnavailableError,
    )
    await expect(nginxDataPath({ ...options, njsModule: '/nonexistent/njs.so' })).rejects.toThrow(
      /njs module is not at \/nonexistent\/njs\.so[\s\S]*apt-get install nginx-light libnginx-mod-http-js/,
    )
  })
})
