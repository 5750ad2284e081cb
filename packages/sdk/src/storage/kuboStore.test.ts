import { importer } from 'ipfs-unixfs-importer'
import { delay, HttpResponse, http } from 'msw'
import { setupServer } from 'msw/node'
import { CID } from 'multiformats/cid'
import { sha256 } from 'multiformats/hashes/sha2'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { computeCid, computeDirectoryCid } from './computeCid.js'
import {
  ContentNotFoundError,
  ContentVerificationError,
  InvalidCidError,
  InvalidContentError,
  KuboCidMismatchError,
  KuboRpcError,
  StorageRequestError,
  StorageTimeoutError,
} from './errors.js'
import { getBytes } from './getBytes.js'
import { getJson } from './getJson.js'
import { kuboStore } from './kuboStore.js'
import { memoryStore } from './memoryStore.js'
import { unixfsImportOptions } from './unixfs.js'

const KUBO = 'http://kubo.test:5001'
const text = (value: string) => new TextEncoder().encode(value)
const byteAt = (i: number) => (Math.imul(i, 2654435761) >>> 24) & 0xff
const bytesOf = (size: number) => new Uint8Array(size).map((_, i) => byteAt(i))

async function* generated(size: number): AsyncGenerator<Uint8Array> {
  for (let offset = 0; offset < size; offset += 65_536) {
    const chunk = new Uint8Array(Math.min(65_536, size - offset))
    for (let i = 0; i < chunk.length; i++) chunk[i] = byteAt(offset + i)
    yield chunk
  }
}

/**
 * A fake Kubo node: `/api/v0/add` parses the multipart body the way Kubo does (URL-encoded
 * filenames, `application/x-directory` and `application/symlink` parts) and imports it with the
 * same settings; `block/get`, `block/stat` and `pin/add` serve its blocks.
 */
const node = {
  blocks: new Map<string, Uint8Array>(),
  pins: [] as string[],
  adds: [] as { query: URLSearchParams; parts: { name: string; type: string; size: number }[] }[],
}

async function importParts(parts: { path: string; type: string; bytes: Uint8Array }[], wrap: boolean) {
  const results: { Name: string; Hash: string; Size: string }[] = []
  const blockstore = {
    put: async (cid: CID, bytes: Uint8Array) => {
      node.blocks.set(cid.toString(), bytes)
      return cid
    },
  }
  const source = parts.map(({ path, type, bytes }) =>
    type === 'application/x-directory'
      ? { path }
      : type === 'application/symlink'
        ? { path, link: new TextDecoder().decode(bytes) }
        : { path, content: bytes },
  )
  for await (const entry of importer(source, blockstore as never, {
    ...unixfsImportOptions,
    wrapWithDirectory: wrap,
  }))
    results.push({ Name: entry.path ?? '', Hash: entry.cid.toString(), Size: String(entry.size) })
  return results
}

const kubo = [
  http.post(`${KUBO}/api/v0/add`, async ({ request }) => {
    const query = new URL(request.url).searchParams
    const form = await request.formData()
    const parts: { path: string; type: string; bytes: Uint8Array }[] = []
    for (const value of form.getAll('file')) {
      const file = value as File
      parts.push({
        path: decodeURIComponent(file.name),
        type: file.type,
        bytes: new Uint8Array(await file.arrayBuffer()),
      })
    }
    node.adds.push({
      query,
      parts: parts.map(({ path, type, bytes }) => ({ name: path, type, size: bytes.length })),
    })
    const results = await importParts(parts, query.get('wrap-with-directory') === 'true')
    if (query.get('pin') === 'true') node.pins.push(results.at(-1)?.Hash as string)
    return new HttpResponse(results.map((line) => `${JSON.stringify(line)}\n`).join(''), {
      headers: { 'content-type': 'application/json', 'x-chunked-output': '1' },
    })
  }),
  http.post(`${KUBO}/api/v0/block/get`, ({ request }) => {
    const cid = new URL(request.url).searchParams.get('arg') as string
    const bytes = node.blocks.get(cid)
    if (bytes === undefined)
      return HttpResponse.json(
        {
          Message: `block was not found locally (offline): ipld: could not find ${cid}`,
          Code: 0,
          Type: 'error',
        },
        { status: 500 },
      )
    return new HttpResponse(bytes)
  }),
  http.post(`${KUBO}/api/v0/block/stat`, ({ request }) => {
    const query = new URL(request.url).searchParams
    const cid = query.get('arg') as string
    if (query.get('offline') !== 'true')
      return HttpResponse.json({ Message: 'expected offline' }, { status: 400 })
    const bytes = node.blocks.get(cid)
    if (bytes === undefined)
      return HttpResponse.json(
        { Message: 'blockservice: key not found', Code: 0, Type: 'error' },
        { status: 500 },
      )
    return HttpResponse.json({ Key: cid, Size: bytes.length })
  }),
  http.post(`${KUBO}/api/v0/block/put`, async ({ request }) => {
    // Kubo hashes the one file part with the codec and hash asked for, and answers its CID.
    const query = new URL(request.url).searchParams
    const file = (await request.formData()).get('file') as File
    const bytes = new Uint8Array(await file.arrayBuffer())
    const codec = query.get('cid-codec') === 'dag-pb' ? 0x70 : 0x55
    const cid = CID.createV1(codec, await sha256.digest(bytes)).toString()
    node.blocks.set(cid, bytes)
    return HttpResponse.json({ Key: cid, Size: bytes.length })
  }),
  http.post(`${KUBO}/api/v0/pin/add`, ({ request }) => {
    const cid = new URL(request.url).searchParams.get('arg') as string
    node.pins.push(cid)
    return HttpResponse.json({ Pins: [cid] })
  }),
]

const server = setupServer(...kubo)
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
beforeEach(() => {
  node.blocks.clear()
  node.pins.length = 0
  node.adds.length = 0
})
afterEach(() => server.resetHandlers())
afterAll(() => server.close())

describe('kuboStore', () => {
  test('put bytes: the import settings go as query parameters, the CID is checked, blocks read back verified', async () => {
    const store = kuboStore({ url: KUBO })
    const cid = await store.put(text('hello world'))
    expect(cid).toBe('bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e')
    const [add] = node.adds
    expect(Object.fromEntries(add?.query ?? [])).toEqual({
      'cid-version': '1',
      'raw-leaves': 'true',
      chunker: 'size-262144',
      hash: 'sha2-256',
      trickle: 'false',
      pin: 'true',
      progress: 'false',
      'wrap-with-directory': 'false',
    })
    expect(node.pins).toEqual([cid])
    expect(new TextDecoder().decode(await getBytes(store, cid))).toBe('hello world')
    expect(await store.has(cid)).toBe(true)
    expect(await store.has(await computeCid(text('absent')))).toBe(false)
  })

  test('put a multi-MiB stream: uploaded as it is read, CID computed alongside', async () => {
    const store = kuboStore({ url: KUBO })
    const size = 3 * 1024 * 1024 + 11
    const cid = await store.put(generated(size))
    expect(cid).toBe(await computeCid(bytesOf(size)))
    expect(node.adds[0]?.parts).toEqual([{ name: 'file', type: 'application/octet-stream', size }])
    expect(Buffer.compare(await getBytes(store, cid), bytesOf(size))).toBe(0)
  })

  test('putJson and getJson', async () => {
    const store = kuboStore({ url: KUBO })
    const cid = await store.putJson({ z: [1, 2], a: 'x' })
    expect(await getJson(store, cid)).toEqual({ a: 'x', z: [1, 2] })
    expect(cid).toBe(await computeCid(text('{"a":"x","z":[1,2]}')))
  })

  test('putDirectory: a nested tree with streams, an empty folder and a symlink, sent in tree order', async () => {
    const store = kuboStore({ url: KUBO })
    const entries = () => [
      { path: 'z-last.txt', content: text('z') },
      { path: 'outputs/big.bin', content: generated(700_000) },
      { path: 'outputs/nested/ą ę+%.txt', content: text('utf-8 name') },
      { path: 'empty', type: 'directory' as const },
      { path: 'link', type: 'symlink' as const, target: 'outputs/big.bin' },
    ]
    const cid = await store.putDirectory(entries())
    expect(cid).toBe(await computeDirectoryCid(entries()))
    expect(node.adds[0]?.query.get('wrap-with-directory')).toBe('true')
    // Kubo reads a directory's entries right after it: parents first, siblings together.
    expect(node.adds[0]?.parts.map(({ name, type }) => `${name} ${type}`)).toEqual([
      'empty application/x-directory',
      'link application/symlink',
      'outputs application/x-directory',
      'outputs/big.bin application/octet-stream',
      'outputs/nested application/x-directory',
      'outputs/nested/ą ę+%.txt application/octet-stream',
      'z-last.txt application/octet-stream',
    ])
    expect(node.pins).toEqual([cid])
    expect((await store.ls(cid)).map(({ name, type }) => `${name}:${type}`)).toEqual([
      'empty:directory',
      'link:symlink',
      'outputs:directory',
      'z-last.txt:file',
    ])
    expect(new TextDecoder().decode(await getBytes(store, cid, { path: 'outputs/nested/ą ę+%.txt' }))).toBe(
      'utf-8 name',
    )
    expect(Buffer.compare(await getBytes(store, cid, { path: 'outputs/big.bin' }), bytesOf(700_000))).toBe(0)
  })

  test('putDirectory of nothing is the empty directory', async () => {
    const cid = await kuboStore({ url: KUBO }).putDirectory([])
    expect(cid).toBe('bafybeiczsscdsbs7ffqz55asqdf3smv6klcw3gofszvwlyarci47bgf354')
  })

  test('a node that imports with other settings: KuboCidMismatchError, for bytes and for streams', async () => {
    server.use(
      http.post(`${KUBO}/api/v0/add`, async ({ request }) => {
        await request.arrayBuffer()
        // What Kubo answers for "hello world" with CIDv0 defaults.
        return new HttpResponse(
          '{"Name":"file","Hash":"Qmf412jQZiuVUtdgnB36FXFX7xg5V6KEbSJ4dpQuhkLyfD","Size":"19"}\n',
        )
      }),
    )
    const store = kuboStore({ url: KUBO })
    const error = await store.put(text('hello world')).catch((e) => e)
    expect(error).toBeInstanceOf(KuboCidMismatchError)
    expect(error.expected).toBe('bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e')
    expect(error.actual).toBe('Qmf412jQZiuVUtdgnB36FXFX7xg5V6KEbSJ4dpQuhkLyfD')
    await expect(store.put(generated(600_000))).rejects.toBeInstanceOf(KuboCidMismatchError)
    await expect(store.putDirectory([{ path: 'a', content: generated(10) }])).rejects.toBeInstanceOf(
      KuboCidMismatchError,
    )
  })

  test('Kubo errors become KuboRpcError with its message', async () => {
    const store = kuboStore({ url: KUBO })
    server.use(
      http.post(`${KUBO}/api/v0/add`, () =>
        HttpResponse.json(
          { Message: 'failed to get block: no space left on device', Code: 0, Type: 'error' },
          { status: 500 },
        ),
      ),
    )
    const error = await store.put(text('x')).catch((e) => e)
    expect(error).toBeInstanceOf(KuboRpcError)
    expect(error.endpoint).toBe('add')
    expect(error.status).toBe(500)
    expect(error.kuboMessage).toBe('failed to get block: no space left on device')

    // An error in the middle of the streamed answer.
    server.use(
      http.post(
        `${KUBO}/api/v0/add`,
        () =>
          new HttpResponse(
            '{"Name":"a","Hash":"bafkqaaa"}\n{"Message":"context canceled","Code":0,"Type":"error"}\n',
          ),
      ),
    )
    await expect(store.put(text('x'))).rejects.toThrow(/context canceled/)

    server.use(
      http.post(`${KUBO}/api/v0/pin/add`, () => new HttpResponse('403 - Forbidden', { status: 403 })),
    )
    const forbidden = await store.pin(await computeCid(text('x'))).catch((e) => e)
    expect(forbidden).toBeInstanceOf(KuboRpcError)
    expect(forbidden.metaMessages[0]).toMatch(/API.HTTPHeaders/)
    await expect(store.pin('nope')).rejects.toBeInstanceOf(InvalidCidError)
  })

  test('an upload refused before its body is read fails fast, without hanging on the stream', async () => {
    server.use(
      http.post(`${KUBO}/api/v0/add`, () => HttpResponse.json({ Message: 'refused' }, { status: 500 })),
    )
    const started = Date.now()
    await expect(kuboStore({ url: KUBO }).put(generated(20 * 1024 * 1024))).rejects.toThrow(/refused/)
    expect(Date.now() - started).toBeLessThan(10_000)
  })

  test('a bad chunk in a streamed upload is reported as such', async () => {
    async function* bad() {
      yield text('ok')
      yield 'not bytes' as unknown as Uint8Array
    }
    server.use(
      http.post(`${KUBO}/api/v0/add`, async ({ request }) => {
        // The body breaks off where the bad chunk is.
        await request.arrayBuffer().catch(() => {})
        return HttpResponse.json({ Message: 'unexpected EOF' }, { status: 500 })
      }),
    )
    await expect(kuboStore({ url: KUBO }).put(bad())).rejects.toBeInstanceOf(InvalidContentError)
  })

  test('reads: missing blocks, wrong bytes, a silent node, an unreachable node', async () => {
    const store = kuboStore({ url: KUBO, timeoutMs: 150 })
    const cid = await store.put(text('kept'))
    await expect(getBytes(store, await computeCid(text('never added')))).rejects.toBeInstanceOf(
      ContentNotFoundError,
    )

    server.use(http.post(`${KUBO}/api/v0/block/get`, () => new HttpResponse(text('evil'))))
    const forged = await getBytes(store, cid).catch((e) => e)
    expect(forged).toBeInstanceOf(ContentVerificationError)
    expect(forged.source).toBe(`kubo ${KUBO}`)

    server.use(
      http.post(`${KUBO}/api/v0/block/get`, async () => {
        await delay('infinite')
        return new HttpResponse(null)
      }),
    )
    const timeout = await getBytes(store, cid).catch((e) => e)
    expect(timeout).toBeInstanceOf(StorageTimeoutError)
    expect(timeout.url).toBe(`${KUBO}/api/v0/block/get`)

    server.use(http.post(`${KUBO}/api/v0/block/get`, () => HttpResponse.error()))
    await expect(getBytes(store, cid)).rejects.toBeInstanceOf(StorageRequestError)
  })

  test('the URL must be http(s)', () => {
    expect(() => kuboStore({ url: '127.0.0.1:5001' })).toThrow(/`url`/)
  })

  test('putBlock sends a block with its codec and hash, checks the CID Kubo names it by, and refuses other bytes', async () => {
    const source = memoryStore()
    const file = await source.put(bytesOf(600_000))
    const store = kuboStore({ url: KUBO })
    const fileNode = await source.getBlock(file)
    await store.putBlock?.(file, fileNode)
    expect(await store.getBlock(file)).toEqual(fileNode)
    const [leaf] = (await source.ls(await source.putDirectory([{ path: 'a', content: text('a') }]))).map(
      (entry) => entry.cid,
    )
    await store.putBlock?.(leaf as string, text('a'))
    expect(await store.has(leaf as string)).toBe(true)
    await expect(store.putBlock?.(leaf as string, text('b'))).rejects.toBeInstanceOf(ContentVerificationError)
  })
})
