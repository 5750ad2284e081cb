import type { ContentStore, ContentStoreGetErrorType, GetOptions } from './ContentStore.js'
import { InvalidJsonContentError, type InvalidJsonContentErrorType } from './errors.js'
import { getBytes } from './getBytes.js'

export type GetJsonParameters = GetOptions
export type GetJsonReturnType = unknown
export type GetJsonErrorType = ContentStoreGetErrorType | InvalidJsonContentErrorType

/** Default cap for `getJson`: JSON documents (receipts, manifests) are small. */
export const DEFAULT_JSON_MAX_BYTES = 16 * 1024 * 1024

/**
 * Reads and parses a JSON document (UTF-8, verified block by block). The result is `unknown`:
 * validate it (e.g. with zod) before use. Reading stops past `maxBytes` (default 16 MiB).
 *
 * @example
 * import { getJson, memoryStore } from '@gridforge/sdk/storage'
 *
 * const store = memoryStore()
 * const cid = await store.putJson({ hello: 'world' })
 * await getJson(store, cid) // { hello: 'world' }
 */
export async function getJson(
  store: ContentStore,
  cid: string,
  parameters: GetJsonParameters = {},
): Promise<GetJsonReturnType> {
  const bytes = await getBytes(store, cid, {
    ...parameters,
    maxBytes: parameters.maxBytes ?? DEFAULT_JSON_MAX_BYTES,
  })
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes))
  } catch (cause) {
    throw new InvalidJsonContentError({ cid, cause })
  }
}
