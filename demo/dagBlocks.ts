/**
 * The blocks of a UnixFS DAG, depth first, read through a store's public `getBlock` (so each one
 * is verified against its CID): what the trustless gateway puts in a CAR and what `pin/add` checks.
 */
import type { ContentStore } from '@gridforge/sdk/storage'
import * as dagPb from '@ipld/dag-pb'
import { UnixFS } from 'ipfs-unixfs'
import { base32 } from 'multiformats/bases/base32'
import type { CID } from 'multiformats/cid'
import { identity } from 'multiformats/hashes/identity'

/**
 * Which blocks under the root (the trustless gateway's `dag-scope`): `block` the root alone,
 * `entity` what it takes to read a whole file or list a directory (its HAMT shards, not its
 * entries), `all` the whole DAG.
 */
export type DagScope = 'block' | 'entity' | 'all'

export interface DagBlocksOptions {
  scope: DagScope
  /** Send a block again each time the walk meets it (`dups=y`); default: once. */
  duplicates?: boolean | undefined
  signal?: AbortSignal | undefined
}

/** Deeper DAGs are refused: the SDK's importer makes 5 levels for a 10 PB file. */
const MAX_DEPTH = 64

/**
 * Walks the DAG of `root` depth first, in link order, and yields each block with its CID.
 * Identity CIDs are skipped: their bytes are in the CID, and the trustless gateway spec keeps
 * them out of CARs. A missing block throws the store's `ContentNotFoundError` mid-walk.
 *
 * @example
 * for await (const { cid, bytes } of dagBlocks(fsStore({ root }), CID.parse(directory), { scope: 'all' }))
 *   console.log(cid.toString(), bytes.byteLength)
 */
export async function* dagBlocks(
  store: Pick<ContentStore, 'getBlock'>,
  root: CID,
  options: DagBlocksOptions,
): AsyncGenerator<{ cid: CID; bytes: Uint8Array }> {
  const seen = new Set<string>()
  async function* visit(
    cid: CID,
    scope: DagScope,
    depth: number,
  ): AsyncGenerator<{ cid: CID; bytes: Uint8Array }> {
    if (cid.multihash.code === identity.code) return
    if (depth > MAX_DEPTH) throw new Error(`the DAG under ${root} is deeper than ${MAX_DEPTH} levels`)
    // Blocks are keyed by multihash: the same bytes under a CIDv0 and a CIDv1 are one block.
    const key = base32.encode(cid.multihash.bytes)
    if (options.duplicates !== true) {
      if (seen.has(key)) return
      seen.add(key)
    }
    options.signal?.throwIfAborted()
    const bytes = await store.getBlock(cid.toString(), { signal: options.signal })
    yield { cid, bytes }
    for (const child of children(cid, bytes, scope)) yield* visit(child.cid, child.scope, depth + 1)
  }
  yield* visit(root, options.scope, 0)
}

/** The links to follow from a block within `scope`, and the scope below each. */
function children(cid: CID, bytes: Uint8Array, scope: DagScope): { cid: CID; scope: DagScope }[] {
  if (scope === 'block' || cid.code !== dagPb.code) return []
  const node = dagPb.decode(bytes)
  if (scope === 'all') return node.Links.map((link) => ({ cid: link.Hash, scope }))
  let unixfs: UnixFS | undefined
  try {
    unixfs = node.Data === undefined ? undefined : UnixFS.unmarshal(node.Data)
  } catch {}
  switch (unixfs?.type) {
    // A file is one entity: every block below it.
    case 'file':
    case 'raw':
      return node.Links.map((link) => ({ cid: link.Hash, scope: 'all' }))
    // A sharded directory is listed through its shards; a shard's link name is its bucket
    // (as many hex digits as the fanout needs), an entry's is the bucket and the entry name.
    case 'hamt-sharded-directory': {
      const width = ((unixfs.fanout ?? 256n) - 1n).toString(16).length
      return node.Links.filter((link) => (link.Name ?? '').length === width).map((link) => ({
        cid: link.Hash,
        scope: 'entity',
      }))
    }
    // A plain directory lists its entries in its own block; a symlink is one block.
    default:
      return []
  }
}
