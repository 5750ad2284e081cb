import {
  ContentNotFoundError,
  type ContentStore,
  fsStore,
  gatewayReader,
  kuboStore,
} from '@gridforge/sdk/storage'
import type { StoreConfig } from './schema.js'

/**
 * The content store of a config's `[store]`: a directory (`fsStore`) or a
 * Kubo node (`kuboStore`); with `gateway`, content the store does not have is
 * read from that trustless gateway (every block still checked against its CID).
 *
 * @example
 * const store = openStore((await loadConfig('provider.toml')).store)
 * const profileCid = await store.putJson(profile)
 */
export function openStore(config: StoreConfig): ContentStore {
  const primary = config.kind === 'fs' ? fsStore({ root: config.root }) : kuboStore({ url: config.url })
  if (config.gateway === undefined) return primary
  return withFallback(primary, gatewayReader({ url: config.gateway }))
}

/** Writes go to `primary`; a read of content `primary` does not have goes to `fallback`. */
export function withFallback(primary: ContentStore, fallback: ContentStore): ContentStore {
  const missing = (error: unknown) => error instanceof ContentNotFoundError
  return {
    description: `${primary.description}, reading through ${fallback.description}`,
    put: (content, options) => primary.put(content, options),
    putJson: (value, options) => primary.putJson(value, options),
    putDirectory: (entries, options) => primary.putDirectory(entries, options),
    async *get(cid, options) {
      let started = false
      try {
        for await (const chunk of primary.get(cid, options)) {
          started = true
          yield chunk
        }
      } catch (error) {
        // Once bytes were handed out, switching sources would splice two streams.
        if (started || !missing(error)) throw error
        yield* fallback.get(cid, options)
      }
    },
    async getBlock(cid, options) {
      try {
        return await primary.getBlock(cid, options)
      } catch (error) {
        if (!missing(error)) throw error
        return fallback.getBlock(cid, options)
      }
    },
    async has(cid, options) {
      return (await primary.has(cid, options)) || fallback.has(cid, options)
    },
    async ls(cid, options) {
      try {
        return await primary.ls(cid, options)
      } catch (error) {
        if (!missing(error)) throw error
        return fallback.ls(cid, options)
      }
    },
  }
}
