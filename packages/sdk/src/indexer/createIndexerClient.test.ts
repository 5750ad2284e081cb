import { delay, HttpResponse, http } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import * as z from 'zod/mini'
import { InvalidParametersError } from '../errors/validation.js'
import { createIndexerClient } from './createIndexerClient.js'
import { IndexerParameterError, IndexerRequestError, IndexerResponseError } from './errors.js'

const URL = 'http://indexer.test'
const server = setupServer()
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
afterEach(() => server.resetHandlers())
afterAll(() => server.close())

const stats = z.object({ tasks: z.object({ total: z.number() }) })

describe('createIndexerClient', () => {
  test('GETs a route with its query (undefined parameters left out) and parses the body', async () => {
    const seen: string[] = []
    server.use(
      http.get(`${URL}/tasks`, ({ request }) => {
        seen.push(request.url)
        return HttpResponse.json({ items: [], nextCursor: null, more: 'ignored' })
      }),
    )
    const indexer = createIndexerClient({ url: `${URL}/` })
    const page = await indexer.get({
      path: '/tasks',
      query: {
        client: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
        status: 'Open,Claimed',
        source: undefined,
      },
      schema: z.object({ items: z.array(z.unknown()), nextCursor: z.nullable(z.string()) }),
    })
    expect(page).toEqual({ items: [], nextCursor: null })
    expect(seen).toEqual([
      `${URL}/tasks?client=0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266&status=Open%2CClaimed`,
    ])
    expect(indexer.url).toBe(URL)
  })

  test('a 400 is an IndexerParameterError naming the parameter', async () => {
    server.use(
      http.get(`${URL}/stats`, () =>
        HttpResponse.json(
          { error: { parameter: 'window', message: 'window: expected one of 1h, 24h, 7d, got "2d"' } },
          { status: 400 },
        ),
      ),
    )
    const error = await createIndexerClient({ url: URL })
      .get({ path: '/stats', query: { window: '2d' }, schema: stats })
      .catch((error: unknown) => error)
    expect(error).toBeInstanceOf(IndexerParameterError)
    expect(error).toMatchObject({
      parameter: 'window',
      shortMessage: 'The indexer refused `window`: window: expected one of 1h, 24h, 7d, got "2d"',
      request: `GET ${URL}/stats?window=2d`,
    })
  })

  test('a 5xx is an IndexerRequestError with the status', async () => {
    server.use(
      http.get(`${URL}/stats`, () =>
        HttpResponse.json({ error: { message: 'internal error: the indexer logged it' } }, { status: 500 }),
      ),
    )
    const error = await createIndexerClient({ url: URL })
      .get({ path: '/stats', schema: stats })
      .catch((error: unknown) => error)
    expect(error).toBeInstanceOf(IndexerRequestError)
    expect(error).toMatchObject({
      status: 500,
      shortMessage: `The indexer failed to answer GET ${URL}/stats (HTTP 500)`,
    })
  })

  test('an unreachable indexer is an IndexerRequestError without a status', async () => {
    server.use(http.get(`${URL}/stats`, () => HttpResponse.error()))
    const error = await createIndexerClient({ url: URL })
      .get({ path: '/stats', schema: stats })
      .catch((error: unknown) => error)
    expect(error).toBeInstanceOf(IndexerRequestError)
    expect(error).toMatchObject({
      status: undefined,
      shortMessage: `The indexer could not be reached: GET ${URL}/stats`,
    })
  })

  test('a slow indexer is an IndexerRequestError after timeoutMs', async () => {
    server.use(
      http.get(`${URL}/stats`, async () => {
        await delay(1_000)
        return HttpResponse.json({ tasks: { total: 1 } })
      }),
    )
    const error = await createIndexerClient({ url: URL, timeoutMs: 50 })
      .get({ path: '/stats', schema: stats })
      .catch((error: unknown) => error)
    expect(error).toBeInstanceOf(IndexerRequestError)
    expect((error as IndexerRequestError).shortMessage).toBe(
      `The indexer did not answer GET ${URL}/stats within 50 ms`,
    )
  })

  test('a body of another shape, or another status, is an IndexerResponseError', async () => {
    server.use(
      http.get(`${URL}/stats`, () => HttpResponse.json({ tasks: { total: '7' } })),
      http.get(`${URL}/nowhere`, () =>
        HttpResponse.json({ error: { message: 'no route GET /nowhere' } }, { status: 404 }),
      ),
    )
    const indexer = createIndexerClient({ url: URL })
    const mismatch = await indexer.get({ path: '/stats', schema: stats }).catch((error: unknown) => error)
    expect(mismatch).toBeInstanceOf(IndexerResponseError)
    expect((mismatch as IndexerResponseError).shortMessage).toMatch(
      /^The indexer's answer to GET http:\/\/indexer.test\/stats cannot be read: tasks.total: /,
    )
    const missing = await indexer.get({ path: '/nowhere', schema: stats }).catch((error: unknown) => error)
    expect(missing).toMatchObject({
      status: 404,
      shortMessage: expect.stringContaining('HTTP 404: no route'),
    })
    expect((missing as IndexerResponseError).metaMessages[0]).toMatch(/URL of the Gridforge indexer/)
  })

  test('refuses a URL that is not http(s); sends credentials in the URL as Basic authorization', async () => {
    expect(() => createIndexerClient({ url: 'localhost:42069' })).toThrow(InvalidParametersError)
    let authorization: string | null = null
    server.use(
      http.get(`${URL}/stats`, ({ request }) => {
        authorization = request.headers.get('authorization')
        return HttpResponse.json({ tasks: { total: 1 } }, { status: 503 })
      }),
    )
    const indexer = createIndexerClient({ url: 'http://user:secret@indexer.test' })
    expect(indexer.url).toBe(URL)
    const error = await indexer.get({ path: '/stats', schema: stats }).catch((error: unknown) => error)
    expect(authorization).toBe(`Basic ${btoa('user:secret')}`)
    expect((error as Error).message).not.toContain('secret')
  })
})
