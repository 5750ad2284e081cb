import { randomBytes } from 'node:crypto'
import { Agent, createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Duplex } from 'node:stream'
import { type Address, type Client, getAddress, isAddressEqual, isHex } from 'viem'
import { type Logger, silentLogger } from '../logger.js'
import { type Clock, systemClock } from '../runtime/clock.js'
import type { LeaseUpstream } from '../runtime/LeaseRuntime.js'
import { bearerToken, cookieValue } from './forwardHeaders.js'
import type { LeaseAuthority, LeaseRef, LeaseState } from './LeaseAuthority.js'
import type { LeaseDataPath, LeasePass } from './LeaseDataPath.js'
import { type Credentials, isRefusal, leaseRefusal, type Refusal, sessionOf } from './leaseAccess.js'
import { leaseAuthority, leaseIdOfHost } from './leaseHost.js'
import { leaseResource } from './leaseResource.js'
import { nonceBook } from './nonceBook.js'
import { openWebSockets } from './openWebSockets.js'
import { forwardRequest, forwardUpgrade } from './proxy.js'
import { replyJson, replyJsonOnSocket } from './replies.js'
import { type LeaseSession, sessionCookieName, sessionTokenReader } from './sessionToken.js'
import { signInRenter } from './signInRenter.js'
import {
  type AckPolicy,
  ackLapse,
  ackLapseAt,
  parseUsageAck,
  type UsageAck,
  usageAckRefusal,
} from './usageAck.js'
import { type LeaseExchange, type LeaseUsage, usageMeter } from './usageMeter.js'

export interface LeaseGatewayOptions {
  /** The chain of the lease market. */
  chainId: number
  /** The lease contract whose leases this gateway serves. */
  leaseMarket: Address
  /** Who rents each lease and whether it is active (the agent passes an on-chain reader). */
  authority: LeaseAuthority
  /** This provider: a lease another provider serves is refused (404). Unset: not checked. */
  provider?: Address | undefined
  /** Address to listen on (default `127.0.0.1`; a TLS proxy in front of it faces the renters). */
  hostname?: string | undefined
  /** Port to listen on (default 0: one the system picks). */
  port?: number | undefined
  /**
   * The host renters reach the gateway at, `host[:port]` as browsers send it
   * (default `localhost:<port>`): lease 7 is served at `7.<publicHost>`, which
   * needs a wildcard DNS name (`*.localhost` resolves to the loopback by itself).
   */
  publicHost?: string | undefined
  /** The scheme renters use (default `http`); with `https` the session cookie is `Secure` and `__Host-`. */
  publicScheme?: 'http' | 'https' | undefined
  /** Key of the session tokens' HMAC (default 32 random bytes: sessions end when the gateway restarts). */
  secret?: Uint8Array | undefined
  /** Longest session, whatever the signed message's expiration time (default 12 hours). */
  sessionMaxAgeMs?: number | undefined
  /** How long an answer of the lease authority is trusted (default 10 s). */
  leaseCheckMs?: number | undefined
  /** Verifies smart-contract wallets' sign-ins on chain (ERC-1271/6492); without it, EOA signatures only. */
  client?: Client | undefined
  /** Called when an exchange (request, WebSocket) ends: the served bytes and time. */
  onExchange?: ((exchange: LeaseExchange) => void) | undefined
  /**
   * Called with each usage acknowledgement the gateway accepts (`POST /_gridforge/ack`), before it
   * answers 204: the agent journals it, to redeem it later. A rejection answers 503 and the
   * acknowledgement is not kept.
   */
  onAck?: ((leaseId: bigint, ack: UsageAck) => void | Promise<void>) | undefined
  /** When a lease stops being served for want of acknowledgements (see {@link AckPolicy}). */
  acks?: AckPolicy | undefined
  /**
   * Chain time, seconds: what acknowledgements' `at` are compared with (default the clock's). The
   * agent passes the time of the latest block it saw, moved on by the clock since.
   */
  chainNow?: (() => number) | undefined
  /** Chain time read fresh, seconds, for an acknowledgement's checks (default `chainNow`): the latest block's. */
  readChainTime?: (() => Promise<number>) | undefined
  /**
   * A data path in front of the gateway (see `nginxDataPath`), told which leases it may proxy on
   * its own. Requests then reach the gateway through it: the client's address is read from the
   * `X-Forwarded-For` it sets, on connections from the loopback.
   */
  dataPath?: LeaseDataPath | undefined
  clock?: Clock | undefined
  logger?: Logger | undefined
}

/** A running gateway. */
export interface LeaseGateway extends AsyncDisposable {
  /** Where it listens, e.g. `http://127.0.0.1:41234`. */
  readonly url: string
  readonly publicHost: string
  /** Where renters reach a lease, e.g. `http://7.localhost:41234`. */
  leaseUrl(leaseId: bigint): string
  /**
   * Serves a lease: its requests go to `upstream` (the lease container's address), and nowhere else.
   * `resume` carries what an earlier run of the gateway knew: the latest acknowledgement accepted
   * and the seconds served.
   */
  serveLease(leaseId: bigint, upstream: LeaseUpstream, resume?: ServeResume): void
  /** Stops serving a lease and cuts its open WebSockets. */
  stopServing(leaseId: bigint): void
  /** What the lease has used through this gateway (and its data path). */
  usage(leaseId: bigint): LeaseUsage
  /** Counts an exchange the data path served on its own. */
  recordExchange(exchange: LeaseExchange): void
  /** Seconds this gateway has served the lease (its `resume.servedSec` included). */
  servedSec(leaseId: bigint): number
  /** The latest usage acknowledgement accepted for the lease. */
  latestAck(leaseId: bigint): UsageAck | undefined
  close(): Promise<void>
}

/** What a restarted gateway is told about a lease it served before. */
export interface ServeResume {
  lastAck?: UsageAck | undefined
  servedSec?: number | undefined
}

/** The gateway's own paths on every lease host; everything else is the service's. */
const ownPrefix = '/_gridforge/'
const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Starts a lease gateway: an HTTP server that lets a lease's renter, and
 * nobody else, reach the lease's container, over HTTP and WebSocket.
 *
 * - **Routing by host**: lease 7 is `7.<publicHost>` (see `leaseHost.ts` for why).
 * - **Sign-in**: `GET /_gridforge/nonce`, then `POST /_gridforge/login`
 *   `{ message, signature }` with a Sign-In with Ethereum message naming the
 *   lease (see {@link createLeaseSignInMessage}). The signer must be the
 *   lease's renter and the lease active; the answer sets an HttpOnly session
 *   cookie and holds the same token for `Authorization: Bearer` (CLIs).
 * - **Refusals**, as JSON saying what to do: 401 sign in, 403 not the renter
 *   (or a cookie sent from another origin), 404 no such lease, 410 lease
 *   ended, 503 its container is not being served.
 * - **Acknowledgements**: `POST /_gridforge/ack` `{ servedSec, at, signature }` (signed in) keeps the
 *   latest valid usage acknowledgement of the lease's ack signer (204; 400 malformed, 409 older than
 *   the latest, 422 not valid); `GET /_gridforge/usage` shows the gateway's count and the latest
 *   acknowledgement. Without a recent one the lease is not proxied (503, acknowledge to continue).
 * - **Forwarding**: only to the upstream registered with {@link LeaseGateway.serveLease},
 *   without the gateway's credentials, with `X-Forwarded-For`/`-Proto`.
 *
 * @example
 * import { startLeaseGateway } from '@gridforge/provider-kit'
 *
 * await using gateway = await startLeaseGateway({ chainId: 8453, leaseMarket, authority, port: 8080, publicHost: 'leases.example.com' })
 * gateway.serveLease(7n, container.upstream)
 * gateway.leaseUrl(7n) // 'http://7.leases.example.com'
 */
export async function startLeaseGateway(options: LeaseGatewayOptions): Promise<LeaseGateway> {
  const clock = options.clock ?? systemClock
  const logger = options.logger ?? silentLogger
  const scheme = options.publicScheme ?? 'http'
  const secret = options.secret ?? randomBytes(32)
  const readToken = sessionTokenReader(secret)
  const sessionMaxAgeMs = options.sessionMaxAgeMs ?? 12 * 3_600_000
  const leaseCheckMs = options.leaseCheckMs ?? 10_000
  const passRenewMs = Math.max(Math.floor(leaseCheckMs / 3), 100)
  const leaseMarket = getAddress(options.leaseMarket)
  const cookieName = sessionCookieName(scheme)
  const nonces = nonceBook({ clock, ttlMs: 5 * 60_000, secret })
  const meter = usageMeter({ clock, onExchange: options.onExchange })
  const upstreams = new Map<bigint, LeaseUpstream>()
  const leaseStates = new Map<bigint, { at: number; state: Promise<LeaseState | undefined> }>()
  // Keep-alive to the services: a request through the gateway does not pay a new connection.
  const agent = new Agent({ keepAlive: true, maxSockets: 256 })
  let publicHost = options.publicHost ?? ''
  const chainNow = options.chainNow ?? (() => Math.floor(clock.now() / 1000))
  const ackPolicy = options.acks ?? {}
  const latestAcks = new Map<bigint, UsageAck>()
  /** Per lease, the sessions verified for the data path's passes, by their token's mac. */
  const verifiedSessions = new Map<bigint, Map<string, { mac: string; renter: Address; expiresAt: number }>>()
  /** Per lease: seconds served before `since`, and since when it is served (undefined: not now). */
  const served = new Map<bigint, { beforeMs: number; since: number | undefined }>()
  const servedSec = (leaseId: bigint) => {
    const entry = served.get(leaseId)
    if (entry === undefined) return 0
    return Math.floor((entry.beforeMs + (entry.since === undefined ? 0 : clock.now() - entry.since)) / 1000)
  }

  const refOf = (leaseId: bigint): LeaseRef => ({ chainId: options.chainId, leaseMarket, leaseId })
  const originOf = (leaseId: bigint) => `${scheme}://${leaseAuthority(publicHost, leaseId)}`

  function leaseState(leaseId: bigint): Promise<LeaseState | undefined> {
    const cached = leaseStates.get(leaseId)
    if (cached !== undefined && clock.now() - cached.at < leaseCheckMs) return cached.state
    const state = options.authority.getLease(leaseId)
    leaseStates.set(leaseId, { at: clock.now(), state })
    // A failed lookup is not remembered: the next request asks again.
    state.catch(() => leaseStates.delete(leaseId))
    return state
  }

  // Every leaseCheckMs (at least a second), each open WebSocket is cut once
  // its session has expired or its lease ended; the agent also calls
  // stopServing when it sees a lease end.
  const webSockets = openWebSockets({
    clock,
    intervalMs: Math.max(leaseCheckMs, 1_000),
    logger,
    refusal: async (leaseId, session) =>
      clock.now() >= session.expiresAt
        ? 'session expired'
        : (await currentRefusal(leaseId, session.renter))?.reason,
  })

  /** The renter's address: the data path's word for it when the request came through it. */
  function clientAddressOf(req: IncomingMessage): string {
    const peer = req.socket.remoteAddress ?? ''
    const forwardedFor = req.headers['x-forwarded-for']
    if (options.dataPath !== undefined && isLoopback(peer) && typeof forwardedFor === 'string')
      return forwardedFor.trim()
    return peer
  }

  function credentialsOf(req: IncomingMessage): Credentials | undefined {
    const bearer = bearerToken(req.headers.authorization)
    if (bearer !== undefined) return { token: bearer, via: 'bearer' }
    const cookie = cookieValue(req.headers.cookie, cookieName)
    return cookie === undefined ? undefined : { token: cookie, via: 'cookie' }
  }

  /** How to sign in, in every 401: the renter's client needs nothing else. */
  function signInHelp(leaseId: bigint) {
    const origin = originOf(leaseId)
    return {
      nonce: `GET ${origin}${ownPrefix}nonce`,
      login: `POST ${origin}${ownPrefix}login {"message": "<EIP-4361 message>", "signature": "0x…"}`,
      domain: leaseAuthority(publicHost, leaseId),
      uri: origin,
      chainId: options.chainId,
      resources: [leaseResource(refOf(leaseId))],
    }
  }

  function refusalBody(leaseId: bigint, refusal: Refusal) {
    const error = { 401: 'unauthorized', 403: 'forbidden', 404: 'not found', 410: 'gone' }[refusal.status]
    return {
      error,
      lease: leaseId.toString(),
      reason: refusal.reason,
      ...(refusal.status === 401 ? { signIn: signInHelp(leaseId) } : {}),
    }
  }

  /**
   * Whether the request may reach the lease's service: a session for this
   * lease, its renter still the lease's renter, the lease active, and a
   * cookie only from the lease's own origin. A browser sends a lease's cookie
   * with requests other sites' pages make (another lease's page among them:
   * sibling hosts are one site to SameSite), so a cookie request that says it
   * comes from another origin, a WebSocket above all, is refused.
   */
  async function access(req: IncomingMessage, leaseId: bigint): Promise<LeaseSession | Refusal> {
    const credentials = credentialsOf(req)
    const session = sessionOf(credentials, { readToken, lease: refOf(leaseId), now: clock.now() })
    if (isRefusal(session)) return session
    const origin = req.headers.origin
    if (
      credentials?.via === 'cookie' &&
      origin !== undefined &&
      origin !== originOf(leaseId) &&
      (req.headers.upgrade !== undefined || !safeMethods.has(req.method ?? 'GET'))
    )
      return { status: 403, reason: `a request from ${origin} may not use this lease's session cookie` }
    const refusal = await currentRefusal(leaseId, session.renter)
    if (refusal !== undefined) return refusal
    if (credentials !== undefined) rememberSession(leaseId, session, credentials.token)
    return session
  }

  /** Whether the lease authority, now, refuses `renter` the lease. */
  async function currentRefusal(leaseId: bigint, renter: Address): Promise<Refusal | undefined> {
    try {
      return leaseRefusal(await leaseState(leaseId), { leaseId, renter, provider: options.provider })
    } catch (error) {
      logger.warn('lease authority failed', { leaseId, error })
      return { status: 403, reason: 'the lease could not be checked right now: try again' }
    }
  }

  /** The lease a request is for, or what to answer instead. Only `Host` routes; an absolute-form target is refused. */
  function route(req: IncomingMessage): { leaseId: bigint } | { status: number; body: unknown } {
    if (!req.url?.startsWith('/'))
      return { status: 400, body: { error: 'bad request', reason: 'the request target must be a path' } }
    const leaseId = leaseIdOfHost(req.headers.host, publicHost)
    if (leaseId === undefined)
      return {
        status: 404,
        body: {
          error: 'not found',
          reason: `this gateway serves leases at <leaseId>.${publicHost}, not ${req.headers.host ?? 'no host'}`,
        },
      }
    return { leaseId }
  }

  async function handleOwn(req: IncomingMessage, res: ServerResponse, leaseId: bigint): Promise<void> {
    const path = req.url?.split('?')[0]
    if (path === `${ownPrefix}nonce` && req.method === 'GET') {
      const { nonce, expiresAt } = nonces.issue()
      return replyJson(res, 200, {
        ...signInHelp(leaseId),
        nonce,
        expiresAt: new Date(expiresAt).toISOString(),
        leaseMarket,
        leaseId: leaseId.toString(),
      })
    }
    if (path === `${ownPrefix}login` && req.method === 'POST') return login(req, res, leaseId)
    if (path === `${ownPrefix}ack` && req.method === 'POST') return acknowledge(req, res, leaseId)
    if (path === `${ownPrefix}usage` && req.method === 'GET') {
      const session = await access(req, leaseId)
      if (isRefusal(session)) return replyJson(res, session.status, refusalBody(leaseId, session))
      const lastAck = latestAcks.get(leaseId)
      return replyJson(res, 200, {
        leaseId: leaseId.toString(),
        servedSec: servedSec(leaseId),
        lastAck: lastAck === undefined ? null : { servedSec: lastAck.servedSec, at: lastAck.at },
      })
    }
    if (path === `${ownPrefix}logout` && req.method === 'POST') {
      // Another lease's page must not sign this lease's renter out either.
      const origin = req.headers.origin
      if (origin !== undefined && origin !== originOf(leaseId))
        return replyJson(res, 403, { error: 'forbidden', reason: `sign out from ${originOf(leaseId)}` })
      res.setHeader('set-cookie', cookie('', 0))
      return replyJson(res, 200, { lease: leaseId.toString(), signedOut: true })
    }
    replyJson(res, 404, { error: 'not found', reason: `the gateway has no ${req.method} ${path}` })
  }

  async function login(req: IncomingMessage, res: ServerResponse, leaseId: bigint): Promise<void> {
    const origin = req.headers.origin
    if (origin !== undefined && origin !== originOf(leaseId)) {
      const refusal: Refusal = { status: 403, reason: `sign in from ${originOf(leaseId)}, not ${origin}` }
      return replyJson(res, refusal.status, refusalBody(leaseId, refusal))
    }
    let body: { message?: unknown; signature?: unknown }
    try {
      body = JSON.parse(await readBody(req, 16 * 1024))
    } catch (error) {
      body = { message: (error as Error).message }
    }
    if (typeof body.message !== 'string' || typeof body.signature !== 'string' || !isHex(body.signature))
      return replyJson(res, 400, {
        error: 'bad request',
        reason: 'expected JSON {"message": "<EIP-4361 message>", "signature": "0x…"}',
      })
    const now = clock.now()
    const signedIn = await signInRenter({
      message: body.message,
      signature: body.signature,
      lease: refOf(leaseId),
      domain: leaseAuthority(publicHost, leaseId),
      nonces,
      secret,
      sessionMaxAgeMs,
      now,
      client: options.client,
      // Fresh from the authority, not the cache: a sign-in is rare and must see the lease as it is.
      refusalFor: (renter) => {
        leaseStates.delete(leaseId)
        return currentRefusal(leaseId, renter)
      },
    })
    if (isRefusal(signedIn)) return replyJson(res, signedIn.status, refusalBody(leaseId, signedIn))
    logger.info('renter signed in', { leaseId, renter: signedIn.renter })
    rememberSession(
      leaseId,
      { ...refOf(leaseId), renter: signedIn.renter, expiresAt: signedIn.expiresAt },
      signedIn.token,
    )
    res.setHeader('set-cookie', cookie(signedIn.token, Math.floor((signedIn.expiresAt - now) / 1000)))
    replyJson(res, 200, {
      lease: leaseId.toString(),
      renter: signedIn.renter,
      token: signedIn.token,
      expiresAt: new Date(signedIn.expiresAt).toISOString(),
    })
  }

  /** `POST /_gridforge/ack`: keeps the latest valid acknowledgement, handed to `onAck` first. */
  async function acknowledge(req: IncomingMessage, res: ServerResponse, leaseId: bigint): Promise<void> {
    const session = await access(req, leaseId)
    if (isRefusal(session)) return replyJson(res, session.status, refusalBody(leaseId, session))
    let body: unknown
    try {
      body = JSON.parse(await readBody(req, 4 * 1024))
    } catch {
      body = undefined
    }
    const ack = parseUsageAck(body)
    if ('status' in ack) return replyJson(res, ack.status, { error: 'bad request', reason: ack.reason })
    const state = await leaseState(leaseId)
    if (state === undefined)
      return replyJson(res, 404, { error: 'not found', reason: `there is no lease ${leaseId}` })
    const refusal = await usageAckRefusal(ack, {
      lease: refOf(leaseId),
      state,
      latest: latestAcks.get(leaseId),
      nowSec: options.readChainTime === undefined ? chainNow() : await options.readChainTime(),
      futureSkewSec: ackPolicy.futureSkewSec ?? 30,
    })
    if (refusal !== undefined) {
      const error = { 400: 'bad request', 409: 'conflict', 422: 'unprocessable' }[refusal.status]
      return replyJson(res, refusal.status, { error, reason: refusal.reason })
    }
    // Two acknowledgements checked at once: the later one wins, whichever finishes first.
    const latest = latestAcks.get(leaseId)
    if (latest !== undefined && (ack.at < latest.at || ack.servedSec < latest.servedSec))
      return replyJson(res, 409, {
        error: 'conflict',
        reason: 'a later acknowledgement was accepted meanwhile',
      })
    try {
      await options.onAck?.(leaseId, ack)
    } catch (error) {
      logger.error('journaling an acknowledgement failed', { leaseId, error })
      return replyJson(res, 503, {
        error: 'unavailable',
        reason: 'the acknowledgement could not be kept: send it again',
      })
    }
    latestAcks.set(leaseId, ack)
    void refreshPass(leaseId)
    res.writeHead(204, { 'cache-control': 'no-store' })
    res.end()
  }

  /** Why the lease is not proxied now for want of acknowledgements; `undefined`: it is. */
  async function lapse(leaseId: bigint): Promise<string | undefined> {
    const state = await leaseState(leaseId).catch(() => undefined)
    if (state === undefined) return undefined
    return ackLapse(state, latestAcks.get(leaseId), {
      nowSec: chainNow(),
      servedSec: servedSec(leaseId),
      policy: ackPolicy,
    })
  }

  /**
   * The data path's pass for the lease: given only while the gateway itself
   * would proxy the renter's requests, and only as long as what it knows
   * holds (its lease check, the next acknowledgement due).
   */
  async function passOf(leaseId: bigint): Promise<LeasePass | undefined> {
    const upstream = upstreams.get(leaseId)
    if (upstream === undefined) return undefined
    // Checked again a third of the way through: the pass then outlives the next renewals, late timers included.
    const cached = leaseStates.get(leaseId)
    if (cached !== undefined && clock.now() - cached.at >= passRenewMs) leaseStates.delete(leaseId)
    const reading = leaseState(leaseId)
    // When what it knows was read: the pass lasts a lease check from then.
    const checkedAt = leaseStates.get(leaseId)?.at ?? clock.now()
    const state = await reading
    if (
      state === undefined ||
      leaseRefusal(state, { leaseId, renter: state.renter, provider: options.provider })
    ) {
      // An ended lease's sessions open nothing again.
      verifiedSessions.delete(leaseId)
      return undefined
    }
    const latest = latestAcks.get(leaseId)
    if (ackLapse(state, latest, { nowSec: chainNow(), servedSec: servedSec(leaseId), policy: ackPolicy }))
      return undefined
    const now = clock.now()
    let validMs = checkedAt + leaseCheckMs - now
    const lapsesAt = ackLapseAt(state, latest, ackPolicy)
    // A second early: chain time is counted in whole seconds.
    if (lapsesAt !== undefined) validMs = Math.min(validMs, (lapsesAt - chainNow() - 1) * 1000)
    // Only the present renter's sessions, unexpired.
    const sessions = [...(verifiedSessions.get(leaseId)?.values() ?? [])]
      .filter((session) => isAddressEqual(session.renter, state.renter) && session.expiresAt > now)
      .map((session) => ({ mac: session.mac, validMs: session.expiresAt - now }))
    return validMs > 0 ? { upstream, validMs, origin: originOf(leaseId), cookieName, sessions } : undefined
  }

  /**
   * Remembers a session the gateway verified for a lease (at sign-in, or when a
   * token it had not seen comes), for the data path's pass, at most 64 a lease:
   * the next request with it need not come here.
   */
  function rememberSession(leaseId: bigint, session: LeaseSession, token: string) {
    if (options.dataPath === undefined) return
    const mac = token.slice(token.lastIndexOf('.') + 1)
    const sessions = verifiedSessions.get(leaseId) ?? new Map()
    verifiedSessions.set(leaseId, sessions)
    if (sessions.has(mac)) return
    for (const [known, { expiresAt }] of sessions) if (expiresAt <= clock.now()) sessions.delete(known)
    if (sessions.size >= 64) sessions.delete(sessions.keys().next().value as string)
    sessions.set(mac, { mac, renter: session.renter, expiresAt: session.expiresAt })
    void refreshPass(leaseId)
  }

  /** Per lease, the latest pass computation: an earlier one that finishes later is dropped. */
  const passRounds = new Map<bigint, number>()
  /** Tells the data path what the lease's pass is now. */
  async function refreshPass(leaseId: bigint): Promise<void> {
    const dataPath = options.dataPath
    if (dataPath === undefined) return
    const round = (passRounds.get(leaseId) ?? 0) + 1
    passRounds.set(leaseId, round)
    const pass = await passOf(leaseId).catch(() => undefined)
    if (passRounds.get(leaseId) !== round) return
    // Served no more while the lease was read: no pass.
    dataPath.setPass(leaseId, upstreams.has(leaseId) ? pass : undefined)
  }

  // Passes are renewed three times per lease check, so that a lease in good standing never loses its own.
  const passTimer =
    options.dataPath === undefined
      ? undefined
      : setInterval(() => {
          for (const leaseId of upstreams.keys()) void refreshPass(leaseId)
        }, passRenewMs)
  passTimer?.unref()

  function lapseBody(leaseId: bigint, reason: string) {
    return {
      error: 'acknowledge to continue',
      lease: leaseId.toString(),
      reason,
      acknowledge: `POST ${originOf(leaseId)}${ownPrefix}ack {"servedSec": <uint40>, "at": <chain seconds>, "signature": "0x… (EIP-712 Usage)"}`,
    }
  }

  function cookie(value: string, maxAgeSeconds: number): string {
    return [
      `${cookieName}=${value}`,
      'Path=/',
      'HttpOnly',
      'SameSite=Lax',
      `Max-Age=${maxAgeSeconds}`,
      ...(scheme === 'https' ? ['Secure'] : []),
    ].join('; ')
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const routed = route(req)
    if ('status' in routed) return replyJson(res, routed.status, routed.body)
    const { leaseId } = routed
    if (req.url?.startsWith(ownPrefix)) return handleOwn(req, res, leaseId)
    const session = await access(req, leaseId)
    if (isRefusal(session)) return replyJson(res, session.status, refusalBody(leaseId, session))
    const upstream = upstreams.get(leaseId)
    if (upstream === undefined)
      return replyJson(
        res,
        503,
        { error: 'unavailable', reason: `lease ${leaseId}'s container is not running on this gateway yet` },
        { 'retry-after': '5' },
      )
    const lapsed = await lapse(leaseId)
    if (lapsed !== undefined) return replyJson(res, 503, lapseBody(leaseId, lapsed))
    forwardRequest(req, res, {
      leaseId,
      upstream,
      meter,
      agent,
      cookieName,
      proto: scheme,
      clientAddress: clientAddressOf(req),
    })
  }

  async function handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const routed = route(req)
    if ('status' in routed) return replyJsonOnSocket(socket, routed.status, routed.body)
    const { leaseId } = routed
    const session = await access(req, leaseId)
    if (isRefusal(session)) return replyJsonOnSocket(socket, session.status, refusalBody(leaseId, session))
    const upstream = upstreams.get(leaseId)
    if (upstream === undefined)
      return replyJsonOnSocket(socket, 503, {
        error: 'unavailable',
        reason: `lease ${leaseId} is not served`,
      })
    const lapsed = await lapse(leaseId)
    if (lapsed !== undefined) return replyJsonOnSocket(socket, 503, lapseBody(leaseId, lapsed))
    const service = forwardUpgrade(req, socket, head, {
      leaseId,
      upstream,
      meter,
      cookieName,
      proto: scheme,
      clientAddress: clientAddressOf(req),
    })
    webSockets.add(leaseId, service, session)
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      logger.error('gateway request failed', { error })
      if (!res.headersSent) replyJson(res, 500, { error: 'internal error' })
      else res.destroy()
    })
  })
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy())
    handleUpgrade(req, socket, head).catch((error: unknown) => {
      logger.error('gateway upgrade failed', { error })
      socket.destroy()
    })
  })
  // No `connect` listener: a CONNECT request (a tunnel to anywhere) closes the connection.
  server.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n')
    else socket.destroy()
  })

  const hostname = options.hostname ?? '127.0.0.1'
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(options.port ?? 0, hostname, () => {
        server.off('error', reject)
        resolve()
      })
    })
  } catch (error) {
    // The port is taken, say: nothing of this gateway may keep running.
    webSockets.close()
    agent.destroy()
    throw error
  }
  const { port } = server.address() as AddressInfo
  if (publicHost === '') publicHost = `localhost:${port}`
  publicHost = publicHost.toLowerCase()
  const url = `http://${hostname.includes(':') ? `[${hostname}]` : hostname}:${port}`
  logger.info('lease gateway listening', { url, publicHost })

  function stopServing(leaseId: bigint) {
    upstreams.delete(leaseId)
    options.dataPath?.setPass(leaseId, undefined)
    const entry = served.get(leaseId)
    if (entry?.since !== undefined)
      served.set(leaseId, { beforeMs: entry.beforeMs + clock.now() - entry.since, since: undefined })
    webSockets.cut(leaseId)
  }

  async function close() {
    clearInterval(passTimer)
    for (const leaseId of upstreams.keys()) options.dataPath?.setPass(leaseId, undefined)
    webSockets.close()
    upstreams.clear()
    agent.destroy()
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }

  return {
    url,
    publicHost,
    leaseUrl: originOf,
    serveLease(leaseId, upstream, resume) {
      upstreams.set(leaseId, { host: upstream.host, port: upstream.port })
      const entry = served.get(leaseId)
      if (entry === undefined)
        served.set(leaseId, { beforeMs: (resume?.servedSec ?? 0) * 1000, since: clock.now() })
      else if (entry.since === undefined) served.set(leaseId, { ...entry, since: clock.now() })
      const known = latestAcks.get(leaseId)
      if (resume?.lastAck !== undefined && (known === undefined || resume.lastAck.at > known.at))
        latestAcks.set(leaseId, resume.lastAck)
      void refreshPass(leaseId)
    },
    servedSec,
    latestAck: (leaseId) => latestAcks.get(leaseId),
    stopServing,
    usage: (leaseId) => meter.usage(leaseId),
    recordExchange: (exchange) => meter.record(exchange),
    close,
    [Symbol.asyncDispose]: close,
  }
}

/** The request's body as text, refused beyond `limit` bytes. */
function readBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) {
        reject(new Error(`the body is larger than ${limit} bytes`))
        req.destroy()
      } else chunks.push(chunk)
    })
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

function isLoopback(address: string): boolean {
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.')
}
