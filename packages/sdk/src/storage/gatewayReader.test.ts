import { importer } from 'ipfs-unixfs-importer'
import { delay, HttpResponse, http } from 'msw'
import { setupServer } from 'msw/node'
import type { CID } from 'multiformats/cid'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import type { DirectoryEntry } from './ContentStore.js'
import { computeCid } from './computeCid.js'
import {
  BlockTooLargeError,
  ContentNotFoundError,
  ContentVerificationError,
  ReadOnlyStoreError,
  StorageRequestError,
  StorageTimeoutError,
} from './errors.js'
import { gatewayReader } from './gatewayReader.js'
import { getBytes } from './getBytes.js'
import { getJson } from './getJson.js'
import { unixfsImportOptions } from './unixfs.js'

const GATEWAY = 'https://gateway.test'
const text = (value: string) => new TextEncoder().encode(value)
const bytesOf = (size: number) => new Uint8Array(size).map((_, i) => (Math.imul(i, 2654435761) >>> 24) & 0xff)

/** Blocks the test gateway holds, by CID string. */
const blocks = new Map<string, Uint8Array>()
/** Every block request the gateway received. */
const requests: { cid: string; format: string | null; accept: string | null; method: string }[] = []

async function add(entries: DirectoryEntry[] | Uint8Array): Promise<string> {
  let root: CID | undefined
  const blockstore = {
    put: async (cid: CID, bytes: Uint8Array) => {
      blocks.set(cid.toString(), bytes)
      return cid
    },
  }
  const source =
    entries instanceof Uint8Array
      ? [{ content: entries }]
      : entries.map((entry) =>
          'content' in entry ? { path: entry.path, content: entry.content as Uint8Array } : entry,
        )
  for await (const entry of importer(source as never, blockstore as never, {
    ...unixfsImportOptions,
    wrapWithDirectory: !(entries instanceof Uint8Array),
  }))
    root = entry.cid
  return (root as CID).toString()
}

const trustlessGateway = [
  http.get(`${GATEWAY}/ipfs/:cid`, ({ request, params }) => {
    const url = new URL(request.url)
    requests.push({
      cid: params.cid as string,
      format: url.searchParams.get('format'),
      accept: request.headers.get('accept'),
      method: 'GET',
    })
    const bytes = blocks.get(params.cid as string)
    if (bytes === undefined) return new HttpResponse('not found', { status: 404 })
    return new HttpResponse(bytes, { headers: { 'content-type': 'application/vnd.ipld.raw' } })
  }),
  http.head(`${GATEWAY}/ipfs/:cid`, ({ params }) => {
    requests.push({ cid: params.cid as string, format: null, accept: null, method: 'HEAD' })
    return new HttpResponse(null, { status: blocks.has(params.cid as string) ? 200 : 404 })
  }),
]

const server = setupServer(...trustlessGateway)
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
afterEach(() => {
  server.resetHandlers()
  requests.length = 0
})
afterAll(() => server.close())

describe('gatewayReader', () => {
  test('reads a multi-MiB file and a nested directory, one verified raw block per request', async () => {
    const data = bytesOf(3 * 1024 * 1024 + 7)
    const file = await add(data)
    const dir = await add([
      { path: 'outputs/result.json', content: text('{"score":0.97}') },
      { path: 'outputs/model.bin', content: data },
    ])
    const gateway = gatewayReader({ url: `${GATEWAY}/` })

    expect(Buffer.compare(await getBytes(gateway, file), data)).toBe(0)
    // Root + 13 leaves, each asked for alone as a raw block.
    expect(requests).toHaveLength(14)
    expect(requests.every((r) => r.format === 'raw' && r.accept === 'application/vnd.ipld.raw')).toBe(true)

    expect(await getJson(gateway, dir, { path: 'outputs/result.json' })).toEqual({ score: 0.97 })
    expect(await gateway.ls(dir, { path: 'outputs' })).toMatchObject([
      { name: 'model.bin', type: 'file', size: data.length, cid: file },
      { name: 'result.json', type: 'file', size: 14 },
    ])
    expect(await gateway.has(dir)).toBe(true)
    expect(await gateway.has(await computeCid(text('absent')))).toBe(false)
    expect(requests.at(-1)?.method).toBe('HEAD')
  })

  test('a gateway serving wrong bytes is caught: ContentVerificationError with the digests', async () => {
    const cid = await add(text('the real receipt'))
    server.use(http.get(`${GATEWAY}/ipfs/:cid`, () => new HttpResponse(text('a forged receipt'))))
    const error = await getBytes(gatewayReader({ url: GATEWAY }), cid).catch((e) => e)
    expect(error).toBeInstanceOf(ContentVerificationError)
    expect(error.cid).toBe(cid)
    expect(error.source).toBe(`gateway ${GATEWAY}`)
    expect(error.expectedDigest).not.toBe(error.actualDigest)
    expect(error.metaMessages[0]).toContain('served wrong bytes')
  })

  test('a gateway answering with the whole file instead of the raw root block is refused', async () => {
    const data = bytesOf(600_000)
    const cid = await add(data)
    // A non-trustless gateway ignores ?format=raw and sends the deserialized file.
    server.use(http.get(`${GATEWAY}/ipfs/:cid`, () => new HttpResponse(data)))
    await expect(getBytes(gatewayReader({ url: GATEWAY }), cid)).rejects.toBeInstanceOf(
      ContentVerificationError,
    )
  })

  test('a gateway that hangs times out with a typed error and a hint', async () => {
    const cid = await add(text('slow'))
    server.use(
      http.get(`${GATEWAY}/ipfs/:cid`, async () => {
        await delay('infinite')
        return new HttpResponse(null)
      }),
    )
    const started = Date.now()
    const error = await getBytes(gatewayReader({ url: GATEWAY, timeoutMs: 150 }), cid).catch((e) => e)
    expect(error).toBeInstanceOf(StorageTimeoutError)
    expect(error.timeoutMs).toBe(150)
    expect(error.url).toBe(`${GATEWAY}/ipfs/${cid}`)
    expect(error.metaMessages.join(' ')).toMatch(/try another gateway/)
    expect(Date.now() - started).toBeLessThan(5_000)
  })

  test('a gateway that stalls in the middle of a body times out too', async () => {
    const cid = await add(text('stalling'))
    // Through the `fetch` option (msw's socket emulation trips on bodies aborted half way):
    // headers and 3 bytes arrive, then nothing until the request is aborted.
    const stalling: typeof fetch = async (_input, init) =>
      new Response(
        new ReadableStream({
          start(controller) {
            controller.enqueue(text('sta'))
            init?.signal?.addEventListener('abort', () => controller.error(init.signal?.reason))
          },
        }),
      )
    await expect(
      getBytes(gatewayReader({ url: GATEWAY, timeoutMs: 150, fetch: stalling }), cid),
    ).rejects.toBeInstanceOf(StorageTimeoutError)
  })

  test('404 is ContentNotFoundError, other failures StorageRequestError', async () => {
    const gateway = gatewayReader({ url: GATEWAY })
    const missing = await computeCid(text('nobody has this'))
    const error = await getBytes(gateway, missing).catch((e) => e)
    expect(error).toBeInstanceOf(ContentNotFoundError)
    expect(error.cid).toBe(missing)

    server.use(http.get(`${GATEWAY}/ipfs/:cid`, () => new HttpResponse('bad gateway', { status: 502 })))
    const failed = await getBytes(gateway, missing).catch((e) => e)
    expect(failed).toBeInstanceOf(StorageRequestError)
    expect(failed.status).toBe(502)

    server.use(http.get(`${GATEWAY}/ipfs/:cid`, () => HttpResponse.error()))
    await expect(getBytes(gateway, missing)).rejects.toBeInstanceOf(StorageRequestError)
  })

  test('a body larger than any block is cut off', async () => {
    const cid = await computeCid(text('small'))
    server.use(http.get(`${GATEWAY}/ipfs/:cid`, () => new HttpResponse(new Uint8Array(3 * 1024 * 1024))))
    await expect(getBytes(gatewayReader({ url: GATEWAY }), cid)).rejects.toBeInstanceOf(BlockTooLargeError)
  })

  test('the caller aborting is not a timeout: the reason is rethrown', async () => {
    const cid = await add(text('x'))
    server.use(
      http.get(`${GATEWAY}/ipfs/:cid`, async () => {
        await delay('infinite')
        return new HttpResponse(null)
      }),
    )
    const controller = new AbortController()
    const reason = new Error('user cancelled')
    setTimeout(() => controller.abort(reason), 50)
    await expect(getBytes(gatewayReader({ url: GATEWAY }), cid, { signal: controller.signal })).rejects.toBe(
      reason,
    )
  })

  test('writes are refused: the reader is read-only', async () => {
    const gateway = gatewayReader({ url: GATEWAY })
    await expect(gateway.put(text('x'))).rejects.toBeInstanceOf(ReadOnlyStoreError)
    await expect(gateway.putJson({})).rejects.toBeInstanceOf(ReadOnlyStoreError)
    await expect(gateway.putDirectory([])).rejects.toThrow(/read-only: cannot put a directory/)
  })

  test('the URL must be http(s)', () => {
    expect(() => gatewayReader({ url: 'ftp://gateway.test' })).toThrow(/`url`/)
    expect(() => gatewayReader({ url: 'not a url' })).toThrow(/must be an absolute http/)
  })
})
