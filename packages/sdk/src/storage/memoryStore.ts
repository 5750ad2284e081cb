import { base32 } from 'multiformats/bases/base32'
import type { CID } from 'multiformats/cid'
import { createBlockContentStore } from './blockContentStore.js'
import type { ContentStore } from './ContentStore.js'
import { ContentNotFoundError } from './errors.js'

export type MemoryStoreReturnType = ContentStore

/**
 * A {@link ContentStore} that keeps blocks in a `Map`, for tests and short-lived data. Blocks
 * are copied in and out, and still verified on every read. Works in browsers.
 *
 * @example
 * import { getBytes, memoryStore } from '@gridforge/sdk/storage'
 *
 * const store = memoryStore()
 * const cid = await store.put(new TextEncoder().encode('hello world'))
 * new TextDecoder().decode(await getBytes(store, cid)) // 'hello world'
 */
export function memoryStore(): MemoryStoreReturnType {
  const blocks = new Map<string, Uint8Array>()
  // Blocks are keyed by multihash, as Kubo does: the same bytes under a CIDv0 and a CIDv1 are one block.
  const key = (cid: CID) => base32.encode(cid.multihash.bytes)
  return createBlockContentStore({
    description: 'memory',
    async getBlock(cid) {
      const bytes = blocks.get(key(cid))
      if (bytes === undefined) throw new ContentNotFoundError({ cid: cid.toString(), source: 'memory' })
      return bytes.slice()
    },
    async putBlock(cid, bytes) {
      const k = key(cid)
      if (!blocks.has(k)) blocks.set(k, bytes.slice())
    },
    async hasBlock(cid) {
      return blocks.has(key(cid))
    },
  })
}
