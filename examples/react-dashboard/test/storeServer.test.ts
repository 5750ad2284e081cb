import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import {
  ContentNotFoundError,
  computeCid,
  computeDirectoryCid,
  fsStore,
  getBytes,
  getJson,
  KuboRpcError,
  kuboStore,
} from '@gridforge/sdk/storage'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type StoreServer, startStoreServer } from '../../../demo/storeServer.js'

const text = (value: string) => new TextEncoder().encode(value)
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes)

let root: string
let server: StoreServer
let kubo: ReturnType<typeof kuboStore>

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'gridforge-store-server-'))
  server = await startStoreServer({ root, maxBodyBytes: 1024 * 1024 })
  kubo = kuboStore({ url: server.url })
})

afterAll(async () => {
  await server?.stop()
  if (root !== undefined) await rm(root, { recursive: true, force: true })
})

describe('startStoreServer', () => {
  it('binds to 127.0.0.1', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
  })

  it('stores and reads a file with the CID the SDK computes', async () => {
    const bytes = text('the quick brown fox jumps over the lazy dog')
    const cid = await kubo.put(bytes)
    expect(cid).toBe(await computeCid(bytes))
    expect(decode(await getBytes(kubo, cid))).toBe('the quick brown fox jumps over the lazy dog')
    // The same bytes, as the fsStore on the same directory sees them.
    expect(decode(await getBytes(fsStore({ root }), cid))).toBe('the quick brown fox jumps over the lazy dog')
  })

  it('stores a file of several blocks, streamed', async () => {
    const bytes = new Uint8Array(600_000).map((_, index) => index % 251)
    async function* chunks() {
      for (let offset = 0; offset < bytes.length; offset += 100_000)
        yield bytes.slice(offset, offset + 100_000)
    }
    const cid = await kubo.put(chunks())
    expect(cid).toBe(await computeCid(bytes))
    // Buffer comparison: a deep equality over 600,000 elements takes seconds.
    expect(Buffer.from(await getBytes(kubo, cid)).equals(bytes)).toBe(true)
  })

  it('stores JSON', async () => {
    const cid = await kubo.putJson({ hello: 'world', n: 1 })
    expect(await getJson(kubo, cid)).toEqual({ hello: 'world', n: 1 })
  })

  it('stores and lists a directory', async () => {
    const entries = [
      { path: 'words', content: text('9\n') },
      { path: 'logs/stdout.txt', content: text('counted\n') },
      { path: 'empty', type: 'directory' as const },
      { path: 'latest', type: 'symlink' as const, target: 'words' },
    ]
    const cid = await kubo.putDirectory(entries)
    expect(cid).toBe(await computeDirectoryCid(entries))
    expect((await kubo.ls(cid)).map((entry) => [entry.name, entry.type])).toEqual([
      ['empty', 'directory'],
      ['latest', 'symlink'],
      ['logs', 'directory'],
      ['words', 'file'],
    ])
    expect(decode(await getBytes(kubo, cid, { path: 'logs/stdout.txt' }))).toBe('counted\n')
    expect(await kubo.putDirectory([])).toBe(await computeDirectoryCid([]))
  })

  it('serves what an fsStore on the same directory wrote (the provider agent)', async () => {
    const cid = await fsStore({ root }).putDirectory([
      { path: 'logs', content: text('written by the agent') },
    ])
    expect(await kubo.has(cid)).toBe(true)
    expect(decode(await getBytes(kubo, cid, { path: 'logs' }))).toBe('written by the agent')
  })

  it('answers has() and pin()', async () => {
    const cid = await kubo.put(text('pinned'))
    expect(await kubo.has(cid)).toBe(true)
    await kubo.pin(cid)
    const directory = await kubo.putDirectory([{ path: 'a/b', content: text('deep') }])
    await kubo.pin(directory)

    const missing = await computeCid(text('never stored'))
    expect(await kubo.has(missing)).toBe(false)
    await expect(kubo.pin(missing)).rejects.toThrow(KuboRpcError)
  })

  it('reports a missing CID as ContentNotFoundError', async () => {
    const missing = await computeCid(new Uint8Array(300_000).fill(7))
    await expect(getBytes(kubo, missing)).rejects.toThrow(ContentNotFoundError)
    await expect(getBytes(kubo, missing)).rejects.toThrow(/not found/)
  })

  it('answers errors in the Kubo shape', async () => {
    const response = await fetch(`${server.url}/api/v0/block/get?arg=not-a-cid`, { method: 'POST' })
    expect(response.status).toBe(500)
    expect(await response.json()).toEqual({
      Message: expect.stringMatching(/invalid cid/),
      Code: 0,
      Type: 'error',
    })

    const unknown = await fetch(`${server.url}/api/v0/cat?arg=x`, { method: 'POST' })
    expect(unknown.status).toBe(404)
    const get = await fetch(`${server.url}/api/v0/block/stat?arg=x`)
    expect(get.status).toBe(405)
  })

  it('refuses import settings that would give other CIDs', async () => {
    const form = new FormData()
    form.append('file', new Blob([text('x')]), 'file')
    const response = await fetch(`${server.url}/api/v0/add?cid-version=0`, { method: 'POST', body: form })
    expect(response.status).toBe(500)
    expect((await response.json()).Message).toMatch(/cid-version=0 is not supported/)
  })

  it('refuses a body over the limit with 413', async () => {
    const form = new FormData()
    form.append('file', new Blob([new Uint8Array(2 * 1024 * 1024)]), 'file')
    const response = await fetch(
      `${server.url}/api/v0/add?cid-version=1&raw-leaves=true&chunker=size-262144&hash=sha2-256`,
      { method: 'POST', body: form },
    )
    expect(response.status).toBe(413)
    expect((await response.json()).Message).toMatch(/over the limit/)
  })

  it('allows browser pages on 127.0.0.1 and localhost (CORS)', async () => {
    for (const origin of ['http://127.0.0.1:5173', 'http://localhost:4173']) {
      const preflight = await fetch(`${server.url}/api/v0/add`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
      })
      expect(preflight.status).toBe(204)
      expect(preflight.headers.get('access-control-allow-origin')).toBe(origin)
      expect(preflight.headers.get('access-control-allow-methods')).toContain('POST')
      expect(preflight.headers.get('access-control-allow-headers')).toBe('content-type')

      const cid = await kubo.put(text('cors'))
      const response = await fetch(`${server.url}/api/v0/block/stat?arg=${cid}`, {
        method: 'POST',
        headers: { origin },
      })
      expect(response.status).toBe(200)
      expect(response.headers.get('access-control-allow-origin')).toBe(origin)
      expect(await response.json()).toEqual({ Key: cid, Size: 4 })
    }
  })

  it('refuses other origins', async () => {
    const preflight = await fetch(`${server.url}/api/v0/add`, {
      method: 'OPTIONS',
      headers: { origin: 'https://example.com', 'access-control-request-method': 'POST' },
    })
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull()
    const response = await fetch(`${server.url}/api/v0/block/stat?arg=x`, {
      method: 'POST',
      headers: { origin: 'http://127.0.0.1.example.com:80' },
    })
    expect(response.status).toBe(403)
  })
})
