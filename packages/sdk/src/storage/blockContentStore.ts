import type { CID } from 'multiformats/cid'
import {
  type BlockReadOptions,
  type BlockSource,
  inlineBlock,
  readVerifiedBlock,
  verifyBlock,
} from './blocks.js'
import type { ContentStore, DirectoryEntry, WriteOptions } from './ContentStore.js'
import { parseCid } from './cid.js'
import { assertUnixfsCid, listDirectory, readFile } from './dag.js'
import { encodeJson } from './encodeJson.js'
import { ReadOnlyStoreError } from './errors.js'
import { importDirectoryEntries, importFileContent } from './unixfs.js'

/** A store of raw blocks keyed by CID, from which a {@link ContentStore} is built. */
export interface BlockBackend extends BlockSource {
  /** Stores one block (already hashed by the importer). Absent for read-only backends. */
  putBlock?: ((cid: CID, bytes: Uint8Array, options: BlockReadOptions) => Promise<void>) | undefined
  hasBlock(cid: CID, options: BlockReadOptions): Promise<boolean>
}

/** Writes a store may do in its own way (Kubo imports through its own RPC). */
export type ContentStoreWrites = Pick<ContentStore, 'put' | 'putJson' | 'putDirectory'>

/**
 * Builds a {@link ContentStore} on a block backend: writes import with `unixfsImportOptions` into
 * `putBlock`, reads walk the DAG with every block verified against its CID.
 */
export function createBlockContentStore(backend: BlockBackend, writes?: ContentStoreWrites): ContentStore {
  const getBlock = (cid: CID, options: BlockReadOptions) => {
    options.signal?.throwIfAborted()
    return readVerifiedBlock(backend, cid, options)
  }
  const readOnly = (operation: string) =>
    Promise.reject(new ReadOnlyStoreError({ store: backend.description, operation }))
  const putBlock = backend.putBlock
  const sink =
    putBlock === undefined
      ? undefined
      : (signal: AbortSignal | undefined) => (cid: CID, bytes: Uint8Array) => putBlock(cid, bytes, { signal })

  const put = async (content: Parameters<ContentStore['put']>[0], options: WriteOptions = {}) => {
    if (sink === undefined) return readOnly('put content')
    return (await importFileContent(content, sink(options.signal), options)).toString()
  }

  const store: ContentStore = {
    description: backend.description,
    put: writes?.put ?? put,
    putJson:
      writes?.putJson ??
      (async (value: unknown, options?: WriteOptions) => {
        if (sink === undefined) return readOnly('put JSON')
        return put(encodeJson(value), options)
      }),
    putDirectory:
      writes?.putDirectory ??
      (async (
        entries: Iterable<DirectoryEntry> | AsyncIterable<DirectoryEntry>,
        options: WriteOptions = {},
      ) => {
        if (sink === undefined) return readOnly('put a directory')
        return (await importDirectoryEntries(entries, sink(options.signal), options)).toString()
      }),
    get(cid, options = {}) {
      return (async function* () {
        yield* readFile(getBlock, parseCid(cid), options)
      })()
    },
    async getBlock(cid, options = {}) {
      return getBlock(parseCid(cid), options)
    },
    async has(cid, options = {}) {
      const parsed = parseCid(cid)
      if (inlineBlock(parsed) !== undefined) return true
      options.signal?.throwIfAborted()
      return backend.hasBlock(parsed, options)
    },
    async ls(cid, options = {}) {
      return listDirectory(getBlock, parseCid(cid), options)
    },
  }
  if (putBlock !== undefined) {
    // Checked like a read: a store never holds bytes under a CID they do not hash to.
    store.putBlock = async (cid, bytes, options = {}) => {
      const parsed = parseCid(cid)
      assertUnixfsCid(parsed)
      options.signal?.throwIfAborted()
      await verifyBlock(parsed, bytes, `${backend.description} (putBlock)`)
      if (inlineBlock(parsed) !== undefined) return
      await putBlock(parsed, bytes, { signal: options.signal })
    }
  }
  return store
}
