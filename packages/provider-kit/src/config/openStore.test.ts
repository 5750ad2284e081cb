import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { ContentNotFoundError, getBytes, getJson, memoryStore } from '@gridforge/sdk/storage'
import { describe, expect, it } from 'vitest'
import { openStore, withFallback } from './openStore.js'

const bytes = (text: string) => new TextEncoder().encode(text)

describe('withFallback', () => {
  it('writes to the store and reads what it lacks from the fallback', async () => {
    const primary = memoryStore()
    const gateway = memoryStore()
    const store = withFallback(primary, gateway)
    const elsewhere = await gateway.put(bytes('stored by a client elsewhere'))
    const directory = await gateway.putDirectory([{ path: 'a.txt', content: bytes('a') }])
    const mine = await store.putJson({ profile: 1 })

    expect(await primary.has(mine)).toBe(true)
    expect(await gateway.has(mine)).toBe(false)
    expect(await getJson(store, mine)).toEqual({ profile: 1 })
    expect(new TextDecoder().decode(await getBytes(store, elsewhere))).toBe('stored by a client elsewhere')
    expect(await store.has(elsewhere)).toBe(true)
    expect(new TextDecoder().decode(await store.getBlock(elsewhere))).toBe('stored by a client elsewhere')
    expect((await store.ls(directory)).map((entry) => entry.name)).toEqual(['a.txt'])
    expect(store.description).toBe('memory, reading through memory')
  })

  it('still says not found when neither has it', async () => {
    const missing = await memoryStore().put(bytes('nowhere'))
    const store = withFallback(memoryStore(), memoryStore())
    await expect(getBytes(store, missing)).rejects.toBeInstanceOf(ContentNotFoundError)
    expect(await store.has(missing)).toBe(false)
    await expect(store.getBlock(missing)).rejects.toBeInstanceOf(ContentNotFoundError)
  })
})

describe('openStore', () => {
  it('opens a directory store, or a Kubo one for a URL', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'provider-store-'))
    try {
      const store = openStore({ kind: 'fs', root, gateway: undefined })
      const cid = await store.put(bytes('x'))
      expect(await openStore({ kind: 'fs', root, gateway: undefined }).has(cid)).toBe(true)
      expect(
        openStore({ kind: 'kubo', url: 'http://127.0.0.1:5001', gateway: undefined }).description,
      ).toContain('kubo')
      expect(
        openStore({ kind: 'fs', root, gateway: 'https://trustless-gateway.link' }).description,
      ).toContain('reading through')
    } finally {
      await rm(root, { recursive: true, force: true })
    }
  })
})
