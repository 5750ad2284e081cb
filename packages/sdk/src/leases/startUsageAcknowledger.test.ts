import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type Hex, recoverTypedDataAddress } from 'viem'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { LeaseGatewayError } from '../errors/lease.js'
import { createLeaseSessionKey } from './createLeaseSessionKey.js'
import { startUsageAcknowledger } from './startUsageAcknowledger.js'
import type { SignedUsage } from './usage.js'
import { usageDomain, usageTypes } from './usage.js'

const leaseMarket = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const chainId = 31337
const token = 'gfl1.test-token'

/**
 * A fake lease gateway for lease 7 on 127.0.0.1, following the gateway's ack contract: the service answers
 * with `serviceStatus`, each probe moves the fake clock a minute on, and acknowledgements are checked like the
 * gateway does (400 malformed, 409 older, 422 not the ack signer's).
 */
function fakeGateway(ackSigner: `0x${string}`) {
  const state = {
    clockMs: 1_800_000_000_000,
    serviceStatus: 200,
    leaseGone: false,
    accepted: [] as { servedSec: number; at: number }[],
    hosts: new Set<string>(),
  }
  const reply = (res: ServerResponse, status: number, body?: unknown) => {
    if (body === undefined) return void res.writeHead(status).end()
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
  }
  async function handle(req: IncomingMessage, res: ServerResponse) {
    state.hosts.add(String(req.headers['x-lease-host']))
    if (req.headers.authorization !== `Bearer ${token}`)
      return reply(res, 401, { error: 'unauthorized', lease: '7', reason: 'sign in' })
    if (state.leaseGone) return reply(res, 410, { error: 'gone', lease: '7', reason: 'lease 7 ended' })
    if (req.url === '/' && req.method === 'GET') {
      state.clockMs += 60_000
      return state.serviceStatus === 502
        ? reply(res, 502, { error: 'bad gateway', lease: '7', reason: 'the service does not answer' })
        : reply(res, state.serviceStatus, 'the notebook')
    }
    if (req.url === '/_gridforge/usage' && req.method === 'GET')
      return reply(res, 200, { leaseId: '7', servedSec: 0, lastAck: state.accepted.at(-1) ?? null })
    if (req.url === '/_gridforge/ack' && req.method === 'POST') {
      let text = ''
      for await (const chunk of req) text += chunk
      const { servedSec, at, signature } = JSON.parse(text) as {
        servedSec: number
        at: number
        signature: Hex
      }
      if (typeof servedSec !== 'number' || typeof at !== 'number')
        return reply(res, 400, { reason: 'malformed' })
      const last = state.accepted.at(-1)
      if (last !== undefined && (servedSec < last.servedSec || at <= last.at))
        return reply(res, 409, { reason: 'older than the latest accepted' })
      const signer = await recoverTypedDataAddress({
        domain: usageDomain({ chainId, leaseMarket }),
        types: usageTypes,
        primaryType: 'Usage',
        message: { leaseId: 7n, servedSec, at },
        signature,
      })
      if (signer !== ackSigner) return reply(res, 422, { reason: `not signed by ${ackSigner}` })
      state.accepted.push({ servedSec, at })
      return reply(res, 204)
    }
    reply(res, 404, { reason: 'no such endpoint' })
  }
  const server: Server = createServer((req, res) => void handle(req, res))
  return { state, server }
}

describe('startUsageAcknowledger', () => {
  const key = createLeaseSessionKey()
  let gateway: ReturnType<typeof fakeGateway>
  let port: number
  // Lease hosts are <leaseId>.<gateway host>: send them to 127.0.0.1 and tell the fake which one was asked for.
  const fetchToLocal = (input: string, init?: RequestInit) => {
    const url = new URL(input)
    const host = url.host
    url.hostname = '127.0.0.1'
    url.port = String(port)
    return fetch(url, {
      ...init,
      headers: { ...(init?.headers as Record<string, string>), 'x-lease-host': host },
    })
  }
  const start = (overrides: Partial<Parameters<typeof startUsageAcknowledger>[0]> = {}) =>
    startUsageAcknowledger({
      gatewayUrl: 'http://leases.test',
      leaseId: 7n,
      token,
      sessionKey: key.account,
      leaseMarket,
      chainId,
      intervalSec: 0.01,
      fetch: fetchToLocal,
      now: () => gateway.state.clockMs,
      ...overrides,
    })

  beforeEach(async () => {
    gateway = fakeGateway(key.address)
    await new Promise<void>((resolve) => gateway.server.listen(0, '127.0.0.1', resolve))
    port = (gateway.server.address() as AddressInfo).port
  })
  afterEach(() => new Promise<void>((resolve) => gateway.server.close(() => resolve())))

  it('acknowledges only the intervals served at both ends, cumulatively, until the lease ends', async () => {
    const acks: SignedUsage[] = []
    const errors: LeaseGatewayError[] = []
    const statuses = [200, 404, 502, 200, 200]
    let probes = 0
    const acknowledger = start({
      onAck: (ack) => {
        acks.push(ack)
        gateway.state.leaseGone = acks.length === statuses.length
      },
      onError: (error) => errors.push(error),
      onProbe: () => {
        probes += 1
        gateway.state.serviceStatus = statuses[probes] ?? 200
      },
    })
    expect(await acknowledger.done).toEqual({ reason: 'leaseEnded', detail: 'lease 7 ended' })
    // 200 → 404 (a service's own answer: served) → 502 (not) → 200 (counted from here) → 200.
    expect(acks.map((ack) => ack.servedSec)).toEqual([0, 60, 60, 60, 120])
    expect(gateway.state.accepted.map((ack) => ack.servedSec)).toEqual([0, 60, 60, 60, 120])
    expect(acknowledger.lastAck).toMatchObject({ leaseId: 7n, servedSec: 120, at: 1_800_000_300 })
    expect(errors.map((error) => error.status)).toEqual([502])
    expect([...gateway.state.hosts]).toEqual(['7.leases.test'])
  })

  it('stops on stop(), and resumes a journaled count', async () => {
    const acknowledger = start({ resumeFrom: { servedSec: 600, at: 1_799_999_000 } })
    while (gateway.state.accepted.length < 2) await new Promise((resolve) => setTimeout(resolve, 5))
    expect(await acknowledger.stop()).toEqual({ reason: 'stopped' })
    expect(gateway.state.accepted[0]?.servedSec).toBe(600)
    expect(gateway.state.accepted[1]?.servedSec).toBe(660)
  })

  it('catches up with the gateway after a 409, and gives up on a key that is not the ack signer', async () => {
    gateway.state.accepted.push({ servedSec: 900, at: 1 })
    const errors: LeaseGatewayError[] = []
    const acknowledger = start({ onError: (error) => errors.push(error) })
    while (gateway.state.accepted.length < 2) await new Promise((resolve) => setTimeout(resolve, 5))
    await acknowledger.stop()
    expect(errors[0]?.status).toBe(409)
    expect(gateway.state.accepted[1]?.servedSec).toBe(960)

    const stranger = createLeaseSessionKey()
    const refused = start({ sessionKey: stranger.account })
    expect(await refused.done).toEqual({ reason: 'wrongSigner', detail: `not signed by ${key.address}` })
  })
})
