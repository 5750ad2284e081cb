import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { computeCid, computeDirectoryCid } from './computeCid.js'
import { StorageIoError } from './errors.js'
import { fsStore } from './fsStore.js'
import { getBytes } from './getBytes.js'
import { importPath } from './importPath.js'
import { memoryStore } from './memoryStore.js'

const text = (value: string) => new TextEncoder().encode(value)

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gridforge-import-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

async function writeTree(root: string, tree: Record<string, string>) {
  for (const [path, content] of Object.entries(tree)) {
    await mkdir(join(root, path, '..'), { recursive: true })
    await writeFile(join(root, path), content)
  }
}

describe('importPath', () => {
  test('a folder gets the CID `ipfs add -r --cid-version=1` gives (kubo t0114 testdirlisting)', async () => {
    // kubo test/sharness/t0114-gateway-subdomains/README.md:
    // DIR_CID=$(ipfs add -Qr --cid-version 1 testdirlisting)
    const root = join(dir, 'testdirlisting')
    await writeTree(root, {
      hello: 'hello\n',
      'ipfs/ipns/bar': 'text-file-content\n',
      'api/file.txt': 'I am a txt file\n',
      'ipfs/file.txt': 'I am a txt file\n',
    })
    const store = memoryStore()
    const cid = await importPath(store, root)
    expect(cid).toBe('bafybeiht6dtwk3les7vqm6ibpvz6qpohidvlshsfyr7l5mpysdw2vmbbhe')
    expect(new TextDecoder().decode(await getBytes(store, cid, { path: 'ipfs/ipns/bar' }))).toBe(
      'text-file-content\n',
    )
  })

  test('a single file is streamed from disk', async () => {
    const bytes = new Uint8Array(3 * 1024 * 1024 + 5).map((_, i) => (Math.imul(i, 2654435761) >>> 24) & 0xff)
    await writeFile(join(dir, 'big.bin'), bytes)
    const store = fsStore({ root: join(dir, 'store') })
    const cid = await importPath(store, join(dir, 'big.bin'))
    expect(cid).toBe(await computeCid(bytes))
    expect(Buffer.compare(await getBytes(store, cid), bytes)).toBe(0)
  })

  test('empty folders and symlinks are kept, hidden names skipped unless asked for', async () => {
    const root = join(dir, 'out')
    await writeTree(root, { 'a.txt': 'a', '.env': 'secret', 'sub/.cache/x': 'x', 'sub/b.txt': 'b' })
    await mkdir(join(root, 'empty'))
    await symlink('a.txt', join(root, 'link'))
    const store = memoryStore()

    const visible = await importPath(store, root)
    expect(visible).toBe(
      await computeDirectoryCid([
        { path: 'a.txt', content: text('a') },
        { path: 'empty', type: 'directory' },
        { path: 'link', type: 'symlink', target: 'a.txt' },
        { path: 'sub/b.txt', content: text('b') },
      ]),
    )
    expect((await store.ls(visible)).map(({ name, type }) => `${name}:${type}`)).toEqual([
      'a.txt:file',
      'empty:directory',
      'link:symlink',
      'sub:directory',
    ])

    const all = await importPath(store, root, { hidden: true })
    expect((await store.ls(all)).map(({ name }) => name)).toEqual(['.env', 'a.txt', 'empty', 'link', 'sub'])
    expect((await store.ls(all, { path: 'sub' })).map(({ name }) => name)).toEqual(['.cache', 'b.txt'])
  })

  test('a missing path is a typed error', async () => {
    const error = await importPath(memoryStore(), join(dir, 'nope')).catch((e) => e)
    expect(error).toBeInstanceOf(StorageIoError)
    expect(error.path).toBe(join(dir, 'nope'))
  })
})
