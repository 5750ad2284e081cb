import type { CID } from 'multiformats/cid'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import { createBlockContentStore } from './blockContentStore.js'
import { MAX_BLOCK_SIZE } from './blocks.js'
import type { ContentStore } from './ContentStore.js'
import { BlockTooLargeError, ContentNotFoundError, StorageRequestError } from './errors.js'
import { baseUrl, discard, type HttpClientParameters, readLimited, timed } from './http.js'

export type GatewayReaderParameters = HttpClientParameters
export type GatewayReaderReturnType = ContentStore
/** Thrown by `gatewayReader()` itself; reads throw `ContentStoreGetErrorType`. */
export type GatewayReaderErrorType = InvalidParametersErrorType

/** Default limit for each block request to a gateway. */
export const DEFAULT_GATEWAY_TIMEOUT_MS = 30_000

/**
 * A read-only {@link ContentStore} over an HTTP gateway that trusts nothing it serves: it asks for
 * each block alone (`GET /ipfs/<cid>?format=raw`, `Accept: application/vnd.ipld.raw`, the
 * [trustless gateway](https://specs.ipfs.tech/http-gateways/trustless-gateway/) protocol), checks
 * every block against its CID and walks the DAG itself. Wrong bytes throw
 * `ContentVerificationError`, a gateway silent for `timeoutMs` (default 30 s) throws
 * `StorageTimeoutError`, a 404 throws `ContentNotFoundError`; writes throw `ReadOnlyStoreError`.
 * Works in browsers.
 *
 * @example
 * import { gatewayReader, getJson } from '@gridforge/sdk/storage'
 *
 * const gateway = gatewayReader({ url: 'https://trustless-gateway.link', timeoutMs: 10_000 })
 * const receipt = await getJson(gateway, 'bafkrei…', { maxBytes: 64 * 1024 })
 */
export function gatewayReader(parameters: GatewayReaderParameters): GatewayReaderReturnType {
  const { base, display } = baseUrl(parameters.url, 'gatewayReader')
  const fetch = parameters.fetch ?? globalThis.fetch
  const timeoutMs = parameters.timeoutMs ?? DEFAULT_GATEWAY_TIMEOUT_MS
  const description = `gateway ${display}`
  const blockUrl = (cid: CID) => `${base}/ipfs/${cid.toString()}?format=raw`
  const headers = { ...parameters.headers, accept: 'application/vnd.ipld.raw' }

  return createBlockContentStore({
    description,
    corruptionHint: () => `The gateway ${display} served wrong bytes: do not use it for this content.`,
    getBlock(cid, options) {
      const url = `${display}/ipfs/${cid}`
      return timed(url, { timeoutMs, signal: options.signal }, async (signal) => {
        const response = await fetch(blockUrl(cid), { method: 'GET', headers, signal })
        if (response.status === 404 || response.status === 410) {
          await discard(response)
          throw new ContentNotFoundError({ cid: cid.toString(), source: description })
        }
        if (!response.ok) {
          await discard(response)
          throw new StorageRequestError({
            url,
            status: response.status,
            hint: 'The gateway failed to serve this block: retry later or use another gateway.',
          })
        }
        return readLimited(
          response,
          MAX_BLOCK_SIZE,
          () => new BlockTooLargeError({ cid: cid.toString(), source: description, limit: MAX_BLOCK_SIZE }),
        )
      })
    },
    hasBlock(cid, options) {
      const url = `${display}/ipfs/${cid}`
      return timed(url, { timeoutMs, signal: options.signal }, async (signal) => {
        const response = await fetch(blockUrl(cid), { method: 'HEAD', headers, signal })
        await discard(response)
        if (response.ok) return true
        if (response.status === 404 || response.status === 410) return false
        throw new StorageRequestError({ url, status: response.status })
      })
    },
  })
}
