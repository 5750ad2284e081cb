import type { PBLink, PBNode } from '@ipld/dag-pb'
import * as dagPb from '@ipld/dag-pb'
import { UnixFS } from 'ipfs-unixfs'
import type { CID } from 'multiformats/cid'
import { InvalidParametersError } from '../errors/validation.js'
import { assertVerifiable, type BlockReadOptions, DAG_PB_CODE, RAW_CODE } from './blocks.js'
import type { DirectoryListingEntry } from './ContentStore.js'
import {
  ContentTooLargeError,
  InvalidDagError,
  InvalidPathError,
  NotADirectoryError,
  NotAFileError,
  PathNotFoundError,
  UnsupportedCidError,
} from './errors.js'

/** Returns the verified bytes of a block (see `readVerifiedBlock`). */
export type GetVerifiedBlock = (cid: CID, options: BlockReadOptions) => Promise<Uint8Array>

/** Blocks fetched ahead while streaming a file, so that remote stores are not read one round trip at a time. */
const PREFETCH = 8
/** Children resolved at once while listing a directory. */
const LIST_CONCURRENCY = 8
/** Deeper DAGs are refused: Kubo's balanced DAG of 256 KiB leaves and 174 links is 5 levels deep at 10 PB. */
const MAX_DEPTH = 64

type FileNode =
  | { kind: 'file'; cid: CID; size: bigint; raw: Uint8Array }
  | { kind: 'file'; cid: CID; size: bigint; raw?: undefined; pb: PBNode; unixfs: UnixFS }
type DirectoryNode = { kind: 'directory'; cid: CID; pb: PBNode; unixfs: UnixFS; sharded: boolean }
type SymlinkNode = { kind: 'symlink'; cid: CID; target: Uint8Array }
type DecodedNode = FileNode | DirectoryNode | SymlinkNode

/** Throws {@link UnsupportedCidError} unless `cid` can address UnixFS (dag-pb or raw) and be verified. */
export function assertUnixfsCid(cid: CID): void {
  if (cid.code !== RAW_CODE && cid.code !== DAG_PB_CODE)
    throw new UnsupportedCidError({
      cid: cid.toString(),
      reason: `codec 0x${cid.code.toString(16)} is not UnixFS (dag-pb or raw)`,
    })
  assertVerifiable(cid)
}

/** Decodes a verified block as a UnixFS node; malformed data throws {@link InvalidDagError}. */
export function decodeNode(cid: CID, bytes: Uint8Array): DecodedNode {
  assertUnixfsCid(cid)
  if (cid.code === RAW_CODE) return { kind: 'file', cid, size: BigInt(bytes.byteLength), raw: bytes }
  let pb: PBNode
  let unixfs: UnixFS
  try {
    pb = dagPb.decode(bytes)
  } catch (cause) {
    throw new InvalidDagError({ cid: cid.toString(), reason: 'the block is not valid dag-pb', cause })
  }
  if (pb.Data === undefined)
    throw new InvalidDagError({ cid: cid.toString(), reason: 'the node has no UnixFS data' })
  try {
    unixfs = UnixFS.unmarshal(pb.Data)
  } catch (cause) {
    throw new InvalidDagError({ cid: cid.toString(), reason: 'the node data is not UnixFS', cause })
  }
  switch (unixfs.type) {
    case 'file':
    case 'raw':
      if (pb.Links.length !== unixfs.blockSizes.length)
        throw new InvalidDagError({
          cid: cid.toString(),
          reason: `${pb.Links.length} links but ${unixfs.blockSizes.length} block sizes`,
        })
      return { kind: 'file', cid, size: unixfs.fileSize(), pb, unixfs }
    case 'directory':
      return { kind: 'directory', cid, pb, unixfs, sharded: false }
    case 'hamt-sharded-directory': {
      const fanout = unixfs.fanout ?? 0n
      if (fanout < 2n || fanout > 1024n || (fanout & (fanout - 1n)) !== 0n)
        throw new InvalidDagError({
          cid: cid.toString(),
          reason: `HAMT fanout ${fanout} is not a power of 2 up to 1024`,
        })
      return { kind: 'directory', cid, pb, unixfs, sharded: true }
    }
    case 'symlink':
      return { kind: 'symlink', cid, target: unixfs.data ?? new Uint8Array() }
    default:
      throw new InvalidDagError({ cid: cid.toString(), reason: `unsupported UnixFS type "${unixfs.type}"` })
  }
}

/** Splits a path inside a directory into names; `..`, `.` and NUL bytes throw {@link InvalidPathError}. */
export function parsePath(path: string | undefined): string[] {
  if (path === undefined) return []
  if (typeof path !== 'string')
    throw new InvalidPathError({ path: String(path), reason: 'the path must be a string' })
  if (path.length > 4096)
    throw new InvalidPathError({ path, reason: 'the path is longer than 4096 characters' })
  const segments = path.split('/').filter((segment) => segment !== '')
  for (const segment of segments) {
    if (segment === '.' || segment === '..')
      throw new InvalidPathError({ path, reason: `\`${segment}\` segments are not allowed` })
    if (segment.includes('\0')) throw new InvalidPathError({ path, reason: 'the path contains a NUL byte' })
  }
  return segments
}

/** Names a directory entry may not have: they could escape a directory when written to disk. */
function checkEntryName(directory: CID, name: string): void {
  if (name === '' || name === '.' || name === '..' || name.includes('/') || name.includes('\0'))
    throw new InvalidDagError({
      cid: directory.toString(),
      reason: `directory entry name ${JSON.stringify(name)} is not allowed`,
    })
}

/**
 * The entries of a directory node: its links, or the leaves of its HAMT shards. Shards are walked
 * in full (names are matched, not hashed), so the HAMT's hash function is never needed.
 */
async function* directoryEntries(
  getBlock: GetVerifiedBlock,
  node: DirectoryNode,
  options: BlockReadOptions,
  depth = 0,
): AsyncGenerator<{ name: string; link: PBLink }> {
  if (!node.sharded) {
    for (const link of node.pb.Links) {
      const name = link.Name ?? ''
      checkEntryName(node.cid, name)
      yield { name, link }
    }
    return
  }
  if (depth > MAX_DEPTH) throw new InvalidDagError({ cid: node.cid.toString(), reason: 'HAMT is too deep' })
  const padLength = ((node.unixfs.fanout as bigint) - 1n).toString(16).length
  for (const link of node.pb.Links) {
    const label = link.Name ?? ''
    if (label.length < padLength)
      throw new InvalidDagError({
        cid: node.cid.toString(),
        reason: `HAMT link name ${JSON.stringify(label)} is too short`,
      })
    if (label.length === padLength) {
      const shard = decodeNode(link.Hash, await getBlock(link.Hash, options))
      if (shard.kind !== 'directory' || !shard.sharded)
        throw new InvalidDagError({
          cid: link.Hash.toString(),
          reason: 'a HAMT bucket link does not point to a shard',
        })
      yield* directoryEntries(getBlock, shard, options, depth + 1)
      continue
    }
    const name = label.slice(padLength)
    checkEntryName(node.cid, name)
    yield { name, link }
  }
}

/** Walks `path` from the directory `root`; throws typed errors for missing entries and non-directories. */
export async function resolvePath(
  getBlock: GetVerifiedBlock,
  root: CID,
  path: string | undefined,
  options: BlockReadOptions,
): Promise<DecodedNode> {
  const segments = parsePath(path)
  assertUnixfsCid(root)
  let node = decodeNode(root, await getBlock(root, options))
  for (const [index, segment] of segments.entries()) {
    if (node.kind !== 'directory')
      throw new NotADirectoryError({
        cid: root.toString(),
        path: segments.slice(0, index).join('/'),
        type: node.kind,
      })
    let found: PBLink | undefined
    for await (const entry of directoryEntries(getBlock, node, options))
      if (entry.name === segment) {
        found = entry.link
        break
      }
    if (found === undefined)
      throw new PathNotFoundError({ cid: root.toString(), path: segments.slice(0, index + 1).join('/') })
    node = decodeNode(found.Hash, await getBlock(found.Hash, options))
  }
  return node
}

export interface ReadFileOptions extends BlockReadOptions {
  path?: string | undefined
  maxBytes?: number | undefined
}

/**
 * Streams a file's bytes block by block (each verified by `getBlock`), fetching a few blocks
 * ahead. Every node's declared sizes are checked against what its children hold.
 */
export async function* readFile(
  getBlock: GetVerifiedBlock,
  root: CID,
  options: ReadFileOptions,
): AsyncGenerator<Uint8Array> {
  const { maxBytes } = options
  if (maxBytes !== undefined && (!Number.isSafeInteger(maxBytes) || maxBytes < 0))
    throw new InvalidParametersError({
      action: 'get',
      fields: [{ path: 'maxBytes', message: `must be a non-negative integer, got ${maxBytes}` }],
    })
  const node = await resolvePath(getBlock, root, options.path, options)
  const path = parsePath(options.path).join('/')
  if (node.kind !== 'file') throw new NotAFileError({ cid: root.toString(), path, type: node.kind })
  const label = path === '' ? root.toString() : `${root}/${path}`
  if (maxBytes !== undefined && node.size > BigInt(maxBytes))
    throw new ContentTooLargeError({ cid: label, maxBytes, size: node.size })
  let total = 0
  for await (const chunk of fileChunks(getBlock, node, options, 0)) {
    total += chunk.byteLength
    if (maxBytes !== undefined && total > maxBytes) throw new ContentTooLargeError({ cid: label, maxBytes })
    yield chunk
  }
}

async function* fileChunks(
  getBlock: GetVerifiedBlock,
  node: FileNode,
  options: BlockReadOptions,
  depth: number,
): AsyncGenerator<Uint8Array> {
  if (node.raw !== undefined) {
    if (node.raw.byteLength > 0) yield node.raw
    return
  }
  if (depth > MAX_DEPTH)
    throw new InvalidDagError({ cid: node.cid.toString(), reason: 'the file DAG is too deep' })
  const data = node.unixfs.data
  if (data !== undefined && data.byteLength > 0) yield data
  const links = node.pb.Links
  if (links.length === 0) return

  // Fetch up to PREFETCH blocks ahead; stop them all when reading ends, early or not.
  const controller = new AbortController()
  const signal =
    options.signal === undefined ? controller.signal : AbortSignal.any([options.signal, controller.signal])
  const pending: Promise<Uint8Array>[] = []
  let requested = 0
  try {
    for (let index = 0; index < links.length; index++) {
      while (requested < links.length && pending.length < PREFETCH) {
        const request = getBlock((links[requested] as PBLink).Hash, { signal })
        request.catch(() => {})
        pending.push(request)
        requested++
      }
      const link = links[index] as PBLink
      const child = decodeNode(link.Hash, await (pending.shift() as Promise<Uint8Array>))
      if (child.kind !== 'file')
        throw new InvalidDagError({
          cid: node.cid.toString(),
          reason: `link ${index} points to a ${child.kind}`,
        })
      const declared = node.unixfs.blockSizes[index] as bigint
      if (child.size !== declared)
        throw new InvalidDagError({
          cid: node.cid.toString(),
          reason: `block ${index} holds ${child.size} bytes, the node declares ${declared}`,
        })
      yield* fileChunks(getBlock, child, options, depth + 1)
    }
  } finally {
    controller.abort()
  }
}

/** Lists the directory at `path` in `root`, resolving each entry's type and size (a few at a time). */
export async function listDirectory(
  getBlock: GetVerifiedBlock,
  root: CID,
  options: BlockReadOptions & { path?: string | undefined },
): Promise<DirectoryListingEntry[]> {
  const node = await resolvePath(getBlock, root, options.path, options)
  if (node.kind !== 'directory')
    throw new NotADirectoryError({
      cid: root.toString(),
      path: parsePath(options.path).join('/'),
      type: node.kind,
    })
  const entries: { name: string; link: PBLink }[] = []
  for await (const entry of directoryEntries(getBlock, node, options)) entries.push(entry)

  const listing: DirectoryListingEntry[] = new Array(entries.length)
  let next = 0
  const worker = async () => {
    while (next < entries.length) {
      const index = next++
      const { name, link } = entries[index] as { name: string; link: PBLink }
      const child = decodeNode(link.Hash, await getBlock(link.Hash, options))
      listing[index] = {
        name,
        cid: link.Hash.toString(),
        type: child.kind,
        size:
          child.kind === 'file'
            ? Number(child.size)
            : child.kind === 'symlink'
              ? child.target.byteLength
              : (link.Tsize ?? 0),
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(LIST_CONCURRENCY, entries.length) }, worker))
  return listing.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
}
