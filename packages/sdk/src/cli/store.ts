import path from 'node:path'
import type { ContentStore } from '../storage/ContentStore.js'
import { fsStore } from '../storage/fsStore.js'
import { kuboStore } from '../storage/kuboStore.js'

/** The content store the CLI reads and writes inputs, outputs, receipts and logs with. */
export type Store = ContentStore

/** `--store`: an http(s) URL is a Kubo RPC node; anything else is a directory (fsStore). */
export function openStore(spec: string): Store {
  if (/^https?:\/\//i.test(spec)) return kuboStore({ url: spec })
  return fsStore({ root: path.resolve(spec) })
}
