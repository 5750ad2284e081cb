import { base32 } from 'multiformats/bases/base32'
import type { CID } from 'multiformats/cid'
import { createBlockContentStore } from './blockContentStore.js'
import { MAX_BLOCK_SIZE } from './blocks.js'
import type { ContentStore } from './ContentStore.js'
import {
  BlockTooLargeError,
  ContentNotFoundError,
  StorageIoError,
  type StorageIoErrorType,
} from './errors.js'

export interface FsStoreParameters {
  /** Directory of the store; created on first write. Blocks live in `<root>/blocks/`. */
  root: string
}
export type FsStoreReturnType = ContentStore
export type FsStoreErrorType = StorageIoErrorType

// node:fs is loaded on first use, so that this module (and the storage entry) loads in browsers.
type Fs = typeof import('node:fs/promises')
type Path = typeof import('node:path')
let modules: Promise<{ fs: Fs; path: Path }> | undefined
const load = () => {
  modules ??= Promise.all([import('node:fs/promises'), import('node:path')]).then(([fs, path]) => ({
    fs,
    path,
  }))
  return modules
}

/**
 * The embedded default {@link ContentStore}: content-addressed blocks on disk (Node only).
 *
 * Each block is a file `<root>/blocks/<xy>/<multihash in base32>` (`xy`: two characters of the
 * name, to keep directories small). Writes are atomic: a block is written to `<root>/tmp/` and
 * renamed into place, so a reader never sees half a block. Reads re-hash every block, so a file
 * damaged on disk is reported as `ContentVerificationError` naming it, never returned.
 *
 * @example
 * import { fsStore, getJson } from '@gridforge/sdk/storage'
 *
 * const store = fsStore({ root: '.gridforge/store' })
 * const cid = await store.putJson({ hello: 'world' })
 * await getJson(store, cid) // { hello: 'world' }
 */
export function fsStore({ root }: FsStoreParameters): FsStoreReturnType {
  const description = `fs ${root}`
  const created = new Set<string>()

  const locate = async (cid: CID) => {
    const { path } = await load()
    const name = base32.baseEncode(cid.multihash.bytes)
    const dir = path.join(root, 'blocks', name.slice(-3, -1))
    return { dir, file: path.join(dir, name), name }
  }
  const mkdir = async (fs: Fs, dir: string) => {
    if (created.has(dir)) return
    try {
      await fs.mkdir(dir, { recursive: true })
    } catch (cause) {
      throw new StorageIoError({ path: dir, operation: 'create directory', cause })
    }
    created.add(dir)
  }

  return createBlockContentStore({
    description,
    corruptionHint: (cid) =>
      `The block file for ${cid} under ${root}/blocks is corrupted on disk: delete it and store or fetch the content again.`,
    async getBlock(cid) {
      const { fs } = await load()
      const { file } = await locate(cid)
      let handle: Awaited<ReturnType<Fs['open']>> | undefined
      try {
        handle = await fs.open(file, 'r')
        const { size } = await handle.stat()
        if (size > MAX_BLOCK_SIZE)
          throw new BlockTooLargeError({
            cid: cid.toString(),
            source: `${description} (${file})`,
            limit: MAX_BLOCK_SIZE,
          })
        const bytes = new Uint8Array(size)
        let offset = 0
        while (offset < size) {
          const { bytesRead } = await handle.read(bytes, offset, size - offset, offset)
          if (bytesRead === 0) break
          offset += bytesRead
        }
        return offset === size ? bytes : bytes.subarray(0, offset)
      } catch (cause) {
        if (cause instanceof BlockTooLargeError) throw cause
        if (isNotFound(cause)) throw new ContentNotFoundError({ cid: cid.toString(), source: description })
        throw new StorageIoError({ path: file, operation: 'read block', cause })
      } finally {
        await handle?.close()
      }
    },
    async putBlock(cid, bytes) {
      const { fs, path } = await load()
      const { dir, file, name } = await locate(cid)
      if (await exists(fs, file)) return
      const tmpDir = path.join(root, 'tmp')
      await mkdir(fs, tmpDir)
      await mkdir(fs, dir)
      const tmp = path.join(tmpDir, `${name}.${crypto.randomUUID()}`)
      try {
        await fs.writeFile(tmp, bytes, { flag: 'wx' })
        await fs.rename(tmp, file)
      } catch (cause) {
        await fs.rm(tmp, { force: true }).catch(() => {})
        // Another writer stored the same block first (rename over it fails on some systems).
        if (await exists(fs, file).catch(() => false)) return
        throw new StorageIoError({ path: file, operation: 'write block', cause })
      }
    },
    async hasBlock(cid) {
      const { fs } = await load()
      return exists(fs, (await locate(cid)).file)
    },
  })
}

async function exists(fs: Fs, file: string): Promise<boolean> {
  try {
    await fs.stat(file)
    return true
  } catch (cause) {
    if (isNotFound(cause)) return false
    throw new StorageIoError({ path: file, operation: 'stat', cause })
  }
}

function isNotFound(error: unknown): boolean {
  return error instanceof Error && 'code' in error && (error.code === 'ENOENT' || error.code === 'ENOTDIR')
}
