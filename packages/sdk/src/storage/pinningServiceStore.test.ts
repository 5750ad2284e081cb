import { delay, HttpResponse, http } from 'msw'
import { setupServer } from 'msw/node'
import { CID } from 'multiformats/cid'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { InvalidParametersError } from '../errors/validation.js'
import { computeCid, computeDirectoryCid } from './computeCid.js'
import {
  InvalidCidError,
  PinFailedError,
  PinningRateLimitedError,
  PinningServiceError,
  PinningUnauthorizedError,
  PinTimeoutError,
  StorageTimeoutError,
} from './errors.js'
import { getBytes } from './getBytes.js'
import { getJson } from './getJson.js'
import { memoryStore } from './memoryStore.js'
import { type PinStatus, type PinStatusValue, pinningServiceStore } from './pinningServiceStore.js'

const SERVICE = 'https://pins.test/psa'
const TOKEN = 'secret-token'
const ORIGIN = '/dns4/node.example.com/tcp/4001/p2p/12D3KooWGzxzKZYveHXtpG6AsrUJBcWxHBFS2HsEoGTxrMLvKXtf'
const text = (value: string) => new TextEncoder().encode(value)

/**
 * A pinning service that follows the Pinning Service API: Bearer tokens, `Failure` bodies,
 * `PinStatus` objects, `GET /pins` filters. Each new request walks through `script` (the statuses
 * reported by successive `GET /pins/{requestid}`), `queued` first.
 */
const service = {
  pins: new Map<string, PinStatus & { script: PinStatusValue[] }>(),
  /** The statuses the next requests will report after `queued`, by CID (default: pinning, pinned). */
  scripts: new Map<string, PinStatusValue[]>(),
  /** Requests answered 429 before serving again. */
  rateLimited: 0,
  /** Status checks (`GET /pins/{requestid}`) answered 429 before serving again. */
  rateLimitedPolls: 0,
  retryAfter: '0',
  /** Every request: method and path with query. */
  log: [] as string[],
  bodies: [] as unknown[],
  sequence: 0,
  reset() {
    this.pins.clear()
    this.scripts.clear()
    this.rateLimited = 0
    this.rateLimitedPolls = 0
    this.retryAfter = '0'
    this.log.length = 0
    this.bodies.length = 0
    this.sequence = 0
  },
}

const failure = (status: number, reason: string, details?: string) =>
  HttpResponse.json({ error: { reason, ...(details === undefined ? {} : { details }) } }, { status })

/** Authorisation and rate limit, as every endpoint applies them. */
function gate(request: Request, poll = false): Response | undefined {
  const url = new URL(request.url)
  service.log.push(`${request.method} ${url.pathname.replace('/psa', '')}${url.search}`)
  if (request.headers.get('authorization') !== `Bearer ${TOKEN}`)
    return failure(401, 'UNAUTHORIZED', 'Access token is missing or invalid')
  if (service.rateLimited > 0 || (poll && service.rateLimitedPolls > 0)) {
    if (service.rateLimited > 0) service.rateLimited--
    else service.rateLimitedPolls--
    return new HttpResponse(JSON.stringify({ error: { reason: 'RATE_LIMITED' } }), {
      status: 429,
      headers: { 'retry-after': service.retryAfter, 'content-type': 'application/json' },
    })
  }
  return undefined
}

const view = ({ script: _script, ...status }: PinStatus & { script: PinStatusValue[] }): PinStatus => status

const handlers = [
  http.post(`${SERVICE}/pins`, async ({ request }) => {
    const refused = gate(request)
    if (refused !== undefined) return refused
    const body = (await request.json()) as { cid?: unknown; name?: string; origins?: string[] }
    service.bodies.push(body)
    if (typeof body.cid !== 'string') return failure(400, 'BAD_REQUEST', 'cid is required')
    if (body.cid === (await computeCid(text('no funds')))) return failure(409, 'INSUFFICIENT_FUNDS')
    const requestid = `request-${++service.sequence}`
    const pin = {
      requestid,
      status: 'queued' as const,
      created: new Date(Date.UTC(2026, 0, 1, 0, 0, service.sequence)).toISOString(),
      pin: body as PinStatus['pin'],
      delegates: ['/ip4/203.0.113.1/tcp/4001/p2p/QmServicePeerId'],
      info: { status_details: 'queue position: 1 of 1' },
      script: [...(service.scripts.get(body.cid) ?? ['pinning', 'pinned'])],
    }
    service.pins.set(requestid, pin)
    return HttpResponse.json(view(pin), { status: 202 })
  }),
  http.get(`${SERVICE}/pins/:requestid`, ({ request, params }) => {
    const refused = gate(request, true)
    if (refused !== undefined) return refused
    const pin = service.pins.get(params.requestid as string)
    if (pin === undefined) return failure(404, 'NOT_FOUND', 'The specified resource was not found')
    const next = pin.script.shift()
    if (next !== undefined) {
      pin.status = next
      pin.info = { status_details: next === 'failed' ? 'could not find providers for the CID' : next }
    }
    return HttpResponse.json(view(pin))
  }),
  http.get(`${SERVICE}/pins`, ({ request }) => {
    const refused = gate(request)
    if (refused !== undefined) return refused
    const query = new URL(request.url).searchParams
    // CIDs are matched by content: a CIDv0 and a CIDv1 of the same block are one CID.
    const v1 = (cid: string) => CID.parse(cid).toV1().toString()
    const cids = query.get('cid')?.split(',').map(v1)
    const wanted = (query.get('status') ?? 'pinned').split(',')
    const limit = Number(query.get('limit') ?? 10)
    const matching = [...service.pins.values()]
      .filter((pin) => (cids === undefined || cids.includes(v1(pin.pin.cid))) && wanted.includes(pin.status))
      .reverse()
    return HttpResponse.json({ count: matching.length, results: matching.slice(0, limit).map(view) })
  }),
  http.delete(`${SERVICE}/pins/:requestid`, ({ request, params }) => {
    const refused = gate(request)
    if (refused !== undefined) return refused
    if (!service.pins.delete(params.requestid as string)) return failure(404, 'NOT_FOUND')
    return new HttpResponse(null, { status: 202 })
  }),
]

const server = setupServer(...handlers)
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
afterEach(() => {
  server.resetHandlers()
  service.reset()
})
afterAll(() => server.close())

const open = (overrides: Partial<Parameters<typeof pinningServiceStore>[0]> = {}) => {
  const bytes = memoryStore()
  return {
    bytes,
    store: pinningServiceStore({
      store: bytes,
      url: SERVICE,
      accessToken: TOKEN,
      origins: [ORIGIN],
      meta: { app: 'gridforge' },
      pollIntervalMs: 5,
      ...overrides,
    }),
  }
}

describe('pinningServiceStore', () => {
  test('stores the bytes in the wrapped store, then pins the CID and waits until it is pinned', async () => {
    const { bytes, store } = open()
    const content = text('pin me')
    const cid = await store.put(content)

    expect(cid).toBe(await computeCid(content))
    expect(await bytes.has(cid)).toBe(true)
    expect(service.log).toEqual([
      `GET /pins?cid=${cid}&status=pinned%2Cpinning%2Cqueued&limit=1000`,
      'POST /pins',
      'GET /pins/request-1',
      'GET /pins/request-1',
    ])
    expect(service.bodies).toEqual([{ cid, origins: [ORIGIN], meta: { app: 'gridforge' } }])
    expect((await store.getPin('request-1')).status).toBe('pinned')
    expect(store.description).toBe('memory, pinned to https://pins.test/psa')
  })

  test('pins JSON and directories; reads come from the wrapped store, not the service', async () => {
    const { store } = open()
    const json = await store.putJson({ receipt: 1 })
    const entries = [{ path: 'out/words', content: text('9\n') }]
    const directory = await store.putDirectory(entries)
    expect(directory).toBe(await computeDirectoryCid(entries))
    expect([...service.pins.values()].map((pin) => [pin.pin.cid, pin.status])).toEqual([
      [json, 'pinned'],
      [directory, 'pinned'],
    ])

    service.log.length = 0
    expect(await getJson(store, json)).toEqual({ receipt: 1 })
    expect(new TextDecoder().decode(await getBytes(store, directory, { path: 'out/words' }))).toBe('9\n')
    expect((await store.ls(directory)).map((entry) => entry.name)).toEqual(['out'])
    expect(await store.has(json)).toBe(true)
    expect((await store.getBlock(json)).byteLength).toBeGreaterThan(0)
    expect(service.log).toEqual([])
  })

  test('reuses a pin request of the same CID instead of queueing another', async () => {
    const { store } = open()
    const first = await store.putJson({ same: true })
    const second = await store.putJson({ same: true })
    expect(second).toBe(first)
    expect(service.log.filter((line) => line === 'POST /pins')).toHaveLength(1)
    // A service may answer with a CIDv0 of the same content: still the same pin.
    const { store: other } = open()
    const v1 = await computeCid(new Uint8Array(300_000).fill(1))
    await other.pin(v1)
    const pin = [...service.pins.values()].at(-1) as PinStatus
    pin.pin.cid = CID.parse(v1).toV0().toString()
    await other.pin(v1)
    expect(service.log.filter((line) => line === 'POST /pins')).toHaveLength(2)
    expect(service.pins.size).toBe(2)
  })

  test('waitUntilPinned: false returns the queued request without polling', async () => {
    const { store } = open({ waitUntilPinned: false })
    const cid = await store.put(text('later'))
    expect(service.log.filter((line) => line.startsWith('GET /pins/'))).toEqual([])
    const [status] = await store.listPins({ cid })
    expect(status?.status).toBe('queued')
    expect(status?.pin).toEqual({ cid, origins: [ORIGIN], meta: { app: 'gridforge' } })
    // pin() can still wait, with a name of its own.
    const named = await memoryStore().put(text('named'))
    const waited = await store.pin(named, { name: 'named', waitUntilPinned: true })
    expect(waited.status).toBe('pinned')
    expect(waited.pin.name).toBe('named')
  })

  test('a failed pin throws PinFailedError with the service reason and what to do', async () => {
    const { bytes, store } = open()
    const content = text('unreachable')
    const cid = await computeCid(content)
    service.scripts.set(cid, ['pinning', 'failed'])
    const error = await store.put(content).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(PinFailedError)
    expect(error).toMatchObject({
      cid,
      requestId: 'request-1',
      details: 'could not find providers for the CID',
    })
    expect((error as PinFailedError).message).toMatch(/origins/)
    // The bytes are stored all the same: pinning again later is enough.
    expect(await bytes.has(cid)).toBe(true)
    // A failed request is not reused.
    service.scripts.set(cid, ['pinned'])
    expect((await store.pin(cid)).requestid).toBe('request-2')
  })

  test('an unknown token throws PinningUnauthorizedError before anything is pinned', async () => {
    const { store } = open({ accessToken: 'wrong' })
    const error = await store.put(text('x')).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(PinningUnauthorizedError)
    expect(error).toMatchObject({ status: 401, url: expect.stringContaining('https://pins.test/psa/pins') })
    expect((error as Error).message).toMatch(/accessToken/)
    expect((error as Error).message).not.toContain('wrong')
    expect(service.pins.size).toBe(0)
  })

  test('HTTP 429 on a request throws PinningRateLimitedError with the Retry-After', async () => {
    const { store } = open()
    service.rateLimited = 1
    service.retryAfter = '7'
    const error = await store.put(text('busy')).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(PinningRateLimitedError)
    expect((error as PinningRateLimitedError).retryAfterMs).toBe(7000)
    expect((error as Error).message).toMatch(/Wait 7 s/)
  })

  test('HTTP 429 while waiting slows the polling down instead of failing', async () => {
    const { store } = open({ waitUntilPinned: false })
    const cid = await store.put(text('polled'))
    service.rateLimitedPolls = 2
    service.retryAfter = '0.01'
    const status = await store.pin(cid, { waitUntilPinned: true })
    expect(status.status).toBe('pinned')
    expect(service.log.filter((line) => line === 'GET /pins/request-1').length).toBeGreaterThanOrEqual(4)
  })

  test('a pin still pinning after pinTimeoutMs throws PinTimeoutError; the request stays', async () => {
    const { store } = open({ pinTimeoutMs: 60 })
    const content = text('slow')
    const cid = await computeCid(content)
    service.scripts.set(
      cid,
      Array.from({ length: 10_000 }, () => 'pinning' as const),
    )
    const error = await store.put(content).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(PinTimeoutError)
    expect(error).toMatchObject({ cid, requestId: 'request-1', status: 'pinning', timeoutMs: 60 })
    expect((error as Error).message).toMatch(/getPin/)
    expect(service.pins.has('request-1')).toBe(true)
  })

  test('other failures throw PinningServiceError with the reason of the Failure body', async () => {
    const { store } = open()
    const error = await store.put(text('no funds')).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(PinningServiceError)
    expect(error).toMatchObject({ status: 409, reason: 'INSUFFICIENT_FUNDS' })
    expect((error as Error).message).toMatch(/top it up/)

    await expect(store.getPin('unknown')).rejects.toMatchObject({ status: 404, reason: 'NOT_FOUND' })

    server.use(http.get(`${SERVICE}/pins/:requestid`, () => HttpResponse.json({ hello: 'world' })))
    await expect(store.getPin('request-1')).rejects.toThrow(/not a PinStatus/)
  })

  test('a service silent for timeoutMs throws StorageTimeoutError; headers are sent', async () => {
    let seen: string | null = null
    server.use(
      http.get(`${SERVICE}/pins`, async ({ request }) => {
        seen = request.headers.get('x-client')
        await delay(1_000)
        return HttpResponse.json({ count: 0, results: [] })
      }),
    )
    const { store } = open({ timeoutMs: 30, headers: { 'x-client': 'gridforge-test' } })
    const cid = await computeCid(text('silent'))
    await expect(store.pin(cid)).rejects.toBeInstanceOf(StorageTimeoutError)
    expect(seen).toBe('gridforge-test')
  })

  test('listPins, getPin and unpin', async () => {
    const { store } = open()
    const a = await store.put(text('a'))
    const b = await store.put(text('b'))
    expect((await store.listPins()).map((pin) => pin.pin.cid)).toEqual([b, a])
    expect((await store.listPins({ cid: a })).map((pin) => pin.requestid)).toEqual(['request-1'])
    expect((await store.getPin('request-2')).pin.cid).toBe(b)

    expect(await store.unpin(a)).toBe(1)
    expect(service.log.at(-1)).toBe('DELETE /pins/request-1')
    expect(await store.listPins({ cid: a })).toEqual([])
    expect(await store.unpin(a)).toBe(0)
  })

  test('refuses a bad URL and a bad CID before any request; an abort stops the wait', async () => {
    expect(() => pinningServiceStore({ store: memoryStore(), url: 'pins.test', accessToken: TOKEN })).toThrow(
      InvalidParametersError,
    )
    const { store } = open()
    await expect(store.pin('not-a-cid')).rejects.toThrow(InvalidCidError)
    expect(service.log).toEqual([])

    const cid = await computeCid(text('aborted'))
    service.scripts.set(
      cid,
      Array.from({ length: 10_000 }, () => 'queued' as const),
    )
    const controller = new AbortController()
    const pending = store.pin(cid, { signal: controller.signal })
    setTimeout(() => controller.abort(new Error('stopped by the caller')), 30)
    await expect(pending).rejects.toThrow('stopped by the caller')
  })
})
