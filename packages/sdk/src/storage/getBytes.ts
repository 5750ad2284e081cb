import type { ContentStore, ContentStoreGetErrorType, GetOptions } from './ContentStore.js'

export type GetBytesParameters = GetOptions
export type GetBytesReturnType = Uint8Array
export type GetBytesErrorType = ContentStoreGetErrorType

/**
 * Reads a whole file into memory (verified block by block). Use `maxBytes` for content you
 * do not control, and `store.get(cid)` to stream large files instead.
 *
 * @example
 * import { getBytes, memoryStore } from '@gridforge/sdk/storage'
 *
 * const store = memoryStore()
 * const cid = await store.put(new Uint8Array([1, 2, 3]))
 * await getBytes(store, cid, { maxBytes: 1024 }) // Uint8Array [1, 2, 3]
 */
export async function getBytes(
  store: ContentStore,
  cid: string,
  parameters: GetBytesParameters = {},
): Promise<GetBytesReturnType> {
  const chunks: Uint8Array[] = []
  let length = 0
  for await (const chunk of store.get(cid, parameters)) {
    chunks.push(chunk)
    length += chunk.byteLength
  }
  if (chunks.length === 1) return chunks[0] as Uint8Array
  const bytes = new Uint8Array(length)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.byteLength
  }
  return bytes
}
