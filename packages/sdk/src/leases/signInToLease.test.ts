import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createWalletClient, type Hex, http, verifyMessage } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { hardhat } from 'viem/chains'
import { parseSiweMessage } from 'viem/siwe'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LeaseGatewayError } from '../errors/lease.js'
import type { Deployment } from '../types/deployment.js'
import { signInToLease } from './signInToLease.js'

const leases = '0xDc64a140Aa3E981100a9becA4E685f962f0cF6C9'
const deployment = { blockNumber: 0, chainId: 31337, contracts: { leases } } as unknown as Deployment
const account = privateKeyToAccount(generatePrivateKey())
const client = createWalletClient({ account, chain: hardhat, transport: http('http://127.0.0.1:1') })

describe('signInToLease', () => {
  let port: number
  let logins: { message: string; signature: Hex }[] = []
  // A fake gateway for lease 7: a nonce, then a login whose message must name this lease on this host.
  const server = createServer(async (req, res) => {
    const json = (status: number, body: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
    if (req.url === '/_gridforge/nonce')
      return json(200, { nonce: 'n0nce1234567', uri: 'http://7.leases.test' })
    let text = ''
    for await (const chunk of req) text += chunk
    const body = JSON.parse(text) as { message: string; signature: Hex }
    logins.push(body)
    const parsed = parseSiweMessage(body.message)
    const ok =
      parsed.domain === '7.leases.test' &&
      parsed.resources?.[0] === `gridforge-lease:31337:${leases}:7` &&
      (await verifyMessage({ address: account.address, message: body.message, signature: body.signature }))
    if (!ok) return json(401, { error: 'unauthorized', lease: '7', reason: 'bad sign-in' })
    json(200, {
      lease: '7',
      renter: account.address,
      token: 'gfl1.session',
      expiresAt: '2030-01-01T00:00:00.000Z',
    })
  })
  const toLocal = (input: string, init?: RequestInit) => {
    const url = new URL(input)
    url.hostname = '127.0.0.1'
    url.port = String(port)
    return fetch(url, init)
  }
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    port = (server.address() as AddressInfo).port
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it('signs the EIP-4361 message naming the lease and returns the session token', async () => {
    logins = []
    const session = await signInToLease(client, {
      deployment,
      gatewayUrl: 'http://leases.test',
      leaseId: 7n,
      fetch: toLocal,
    })
    expect(session).toEqual({
      token: 'gfl1.session',
      expiresAt: new Date('2030-01-01T00:00:00.000Z'),
      renter: account.address,
      url: 'http://7.leases.test/',
    })
    expect(parseSiweMessage(logins[0]!.message)).toMatchObject({ nonce: 'n0nce1234567', chainId: 31337 })
  })

  it('says what the gateway refused and what to do', async () => {
    const error = await signInToLease(client, {
      deployment: {
        ...deployment,
        contracts: { leases: '0x0000000000000000000000000000000000000001' },
      } as never,
      gatewayUrl: 'http://leases.test',
      leaseId: 7n,
      fetch: toLocal,
    }).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(LeaseGatewayError)
    expect((error as LeaseGatewayError).status).toBe(401)
    expect((error as LeaseGatewayError).message).toContain('Sign in again')
  })
})
