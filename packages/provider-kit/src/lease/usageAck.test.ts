import type { Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { fakeAuthority, send, signIn, startEchoService } from '../../test/lease.js'
import { type LeaseGateway, startLeaseGateway } from './leaseGateway.js'
import { type UsageAck, usageTypedData } from './usageAck.js'

const renter = privateKeyToAccount(`0x${'11'.repeat(32)}`)
const sessionKey = privateKeyToAccount(`0x${'55'.repeat(32)}`)
const provider = privateKeyToAccount(`0x${'44'.repeat(32)}`).address
const leaseMarket = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const chainId = 31337
const authority = fakeAuthority()
/** Chain time the test moves. */
let now = 1_000_000
const startedAt = now
const journaled: [bigint, UsageAck][] = []

let gateway: LeaseGateway
let echo: Awaited<ReturnType<typeof startEchoService>>
let token: string
const host = () => `9.${gateway.publicHost}`
const auth = () => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' })

async function ack(
  servedSec: number,
  at: number,
  signer = sessionKey,
): Promise<{ servedSec: number; at: number; signature: Hex }> {
  const signature = await signer.signTypedData(
    usageTypedData({ chainId, leaseMarket, leaseId: 9n }, { servedSec, at }),
  )
  return { servedSec, at, signature }
}

const post = (body: unknown, headers: Record<string, string> = auth()) =>
  send(gateway.url, {
    host: host(),
    path: '/_gridforge/ack',
    method: 'POST',
    headers,
    body: JSON.stringify(body),
  })

beforeAll(async () => {
  authority.leases.set(9n, {
    renter: renter.address,
    provider,
    active: true,
    ackSigner: sessionKey.address,
    startedAt,
    ackGraceSec: 300,
  })
  echo = await startEchoService()
  gateway = await startLeaseGateway({
    chainId,
    leaseMarket,
    authority,
    provider,
    leaseCheckMs: 0,
    chainNow: () => now,
    onAck: (leaseId, ack) => {
      journaled.push([leaseId, ack])
    },
  })
  gateway.serveLease(9n, { host: '127.0.0.1', port: echo.port })
  const login = await signIn(gateway.url, {
    host: host(),
    account: renter,
    leaseMarket,
    chainId,
    leaseId: 9n,
  })
  token = login.token as string
})

afterAll(async () => {
  await gateway?.close()
  await echo?.close()
})

describe('usage acknowledgements', () => {
  test('a valid acknowledgement is kept, journaled first, and shown by /usage', async () => {
    now = startedAt + 60
    expect((await post(await ack(50, now - 5))).status).toBe(204)
    expect(journaled.at(-1)).toEqual([9n, expect.objectContaining({ servedSec: 50, at: now - 5 })])
    const usage = await send(gateway.url, { host: host(), path: '/_gridforge/usage', headers: auth() })
    expect(usage.status).toBe(200)
    expect(JSON.parse(usage.body)).toEqual({
      leaseId: '9',
      servedSec: expect.any(Number),
      lastAck: { servedSec: 50, at: now - 5 },
    })
    expect(gateway.latestAck(9n)).toMatchObject({ servedSec: 50 })
  })

  test('refusals: 401 without a session, 400 malformed, 409 going backwards, 422 wrong signer, future, too much service', async () => {
    expect((await post(await ack(55, now), { 'content-type': 'application/json' })).status).toBe(401)
    expect((await send(gateway.url, { host: host(), path: '/_gridforge/usage' })).status).toBe(401)
    expect((await post({ servedSec: -1, at: now, signature: '0x' })).status).toBe(400)
    expect((await post({ servedSec: 1, at: now })).status).toBe(400)
    expect((await post(await ack(40, now))).status).toBe(409)
    expect((await post(await ack(51, now - 8))).status).toBe(409)
    expect((await post(await ack(55, now, renter))).status).toBe(422)
    expect((await post(await ack(55, now + 600))).status).toBe(422)
    expect((await post(await ack(now - startedAt + 1, now))).status).toBe(422)
    expect(gateway.latestAck(9n)).toMatchObject({ servedSec: 50 })
  })

  test('the lease is proxied while acknowledged, refused (503) once the latest acknowledgement lapses', async () => {
    expect((await send(gateway.url, { host: host(), headers: auth() })).status).toBe(200)
    now += 200 // half of ackGrace (150 s) since the latest acknowledgement has passed
    const refused = await send(gateway.url, { host: host(), headers: auth() })
    expect(refused.status).toBe(503)
    expect(JSON.parse(refused.body)).toMatchObject({ error: 'acknowledge to continue' })
    expect((await post(await ack(now - startedAt - 10, now))).status).toBe(204)
    expect((await send(gateway.url, { host: host(), headers: auth() })).status).toBe(200)
  })

  test('a lease without any acknowledgement is served only for the first period after its start', async () => {
    authority.leases.set(10n, {
      renter: renter.address,
      provider,
      active: true,
      ackSigner: sessionKey.address,
      startedAt: now - 10,
      ackGraceSec: 300,
    })
    gateway.serveLease(10n, { host: '127.0.0.1', port: echo.port })
    const login = await signIn(gateway.url, {
      host: `10.${gateway.publicHost}`,
      account: renter,
      leaseMarket,
      chainId,
      leaseId: 10n,
    })
    const headers = { authorization: `Bearer ${login.token}` }
    expect((await send(gateway.url, { host: `10.${gateway.publicHost}`, headers })).status).toBe(200)
    now += 150
    expect((await send(gateway.url, { host: `10.${gateway.publicHost}`, headers })).status).toBe(503)
  })
})
