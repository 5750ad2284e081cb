import type { ImportCandidate, ImporterOptions, ImportResult } from 'ipfs-unixfs-importer'
import { importer, importFile } from 'ipfs-unixfs-importer'
import { fixedSize } from 'ipfs-unixfs-importer/chunker'
import { balanced } from 'ipfs-unixfs-importer/layout'
import type { CID } from 'multiformats/cid'
import type { Content, DirectoryEntry } from './ContentStore.js'
import { contentChunks } from './content.js'
import { InvalidContentError, InvalidDirectoryEntryError } from './errors.js'

/**
 * The UnixFS import settings every store uses, as plain values. They are Kubo's defaults for
 * `ipfs add -r --cid-version=1 --raw-leaves` (Kubo 0.40 `Import.*` defaults with CIDv1):
 *
 * | setting                | value          | Kubo flag / config                                  |
 * | ---------------------- | -------------- | --------------------------------------------------- |
 * | CID version            | 1              | `--cid-version=1`                                   |
 * | hash                   | sha2-256       | `--hash=sha2-256` (default)                         |
 * | leaves                 | raw            | `--raw-leaves` (default with CIDv1)                 |
 * | chunker                | 262144 bytes   | `--chunker=size-262144` (default)                   |
 * | file layout            | balanced       | no `--trickle` (default)                            |
 * | links per file node    | 174            | `Import.UnixFSFileMaxLinks` (default 174)           |
 * | single-block files     | the raw block  | (always: a file of one chunk is that raw block)     |
 * | mtime / mode           | not stored     | no `--preserve-mtime` / `--preserve-mode`           |
 * | HAMT threshold         | > 262144 bytes | `Import.UnixFSHAMTDirectorySizeThreshold` (256KiB)  |
 * | HAMT size estimate     | link bytes     | `Import.UnixFSHAMTDirectorySizeEstimation` (links)  |
 * | HAMT fanout            | 256            | `Import.UnixFSHAMTDirectoryMaxFanout` (256)         |
 *
 * A directory becomes a HAMT shard when the sum over its entries of (name bytes + CID bytes)
 * exceeds 262144 (a directory exactly at 262144 stays flat), as boxo does. Directory entries
 * are sorted by name bytes (the dag-pb canonical order Kubo writes).
 */
export const unixfsImportSettings = Object.freeze({
  cidVersion: 1,
  hash: 'sha2-256',
  rawLeaves: true,
  chunkSize: 262_144,
  layout: 'balanced',
  maxChildrenPerNode: 174,
  reduceSingleLeafToSelf: true,
  shardSplitThresholdBytes: 262_144,
  shardSplitStrategy: 'links-bytes',
  shardFanoutBits: 8,
} as const)

/**
 * The `ipfs-unixfs-importer` options built from {@link unixfsImportSettings}: the one place the
 * SDK's CIDs are decided. Pass it (a copy: the importer may add fields) to `importer()` to get the
 * CIDs every store returns. Options that only affect speed (concurrency) are not part of it.
 *
 * @example
 * import { importer } from 'ipfs-unixfs-importer'
 * import { unixfsImportOptions } from '@gridforge/sdk/storage'
 *
 * const blocks = { put: async (cid) => cid }
 * for await (const entry of importer([{ content: new Uint8Array([1]) }], blocks, { ...unixfsImportOptions }))
 *   console.log(entry.cid.toString())
 */
export const unixfsImportOptions: Readonly<ImporterOptions> = Object.freeze({
  cidVersion: unixfsImportSettings.cidVersion,
  rawLeaves: unixfsImportSettings.rawLeaves,
  reduceSingleLeafToSelf: unixfsImportSettings.reduceSingleLeafToSelf,
  chunker: fixedSize({ chunkSize: unixfsImportSettings.chunkSize }),
  layout: balanced({ maxChildrenPerNode: unixfsImportSettings.maxChildrenPerNode }),
  shardSplitThresholdBytes: unixfsImportSettings.shardSplitThresholdBytes,
  shardSplitStrategy: unixfsImportSettings.shardSplitStrategy,
  shardFanoutBits: unixfsImportSettings.shardFanoutBits,
  fieldOrder: 'links-first',
  wrapWithDirectory: false,
})

/** Where imported blocks go. */
export type BlockSink = (cid: CID, bytes: Uint8Array) => Promise<void> | void

export interface ImportOptions {
  signal?: AbortSignal | undefined
  /** Files imported at once (speed only). */
  fileImportConcurrency?: number | undefined
}

function writableStorage(sink: BlockSink, signal: AbortSignal | undefined) {
  return {
    async put(cid: CID, bytes: Uint8Array | Iterable<Uint8Array> | AsyncIterable<Uint8Array>): Promise<CID> {
      signal?.throwIfAborted()
      if (!(bytes instanceof Uint8Array))
        throw new InvalidContentError({ reason: 'the importer produced a streamed block' })
      await sink(cid, bytes)
      return cid
    },
  }
}

function options(extra: ImporterOptions, concurrency: number | undefined): ImporterOptions {
  return {
    ...unixfsImportOptions,
    fileImportConcurrency: concurrency ?? 4,
    blockWriteConcurrency: 8,
    ...extra,
  }
}

async function* abortable<T>(source: AsyncIterable<T>, signal: AbortSignal | undefined): AsyncGenerator<T> {
  for await (const item of source) {
    signal?.throwIfAborted()
    yield item
  }
}

/** Imports one file and returns its root CID. */
export async function importFileContent(
  content: Content,
  sink: BlockSink,
  opts: ImportOptions = {},
): Promise<CID> {
  opts.signal?.throwIfAborted()
  const chunks = abortable(contentChunks(content), opts.signal)
  const result = await importFile({ content: chunks }, writableStorage(sink, opts.signal), options({}, 1))
  opts.signal?.throwIfAborted()
  return result.cid
}

/** Imports a directory tree (wrapped in one root directory) and returns the root CID. */
export async function importDirectoryEntries(
  entries: Iterable<DirectoryEntry> | AsyncIterable<DirectoryEntry>,
  sink: BlockSink,
  opts: ImportOptions = {},
): Promise<CID> {
  opts.signal?.throwIfAborted()
  let root: ImportResult | undefined
  for await (const result of importer(
    importCandidates(entries, opts.signal),
    writableStorage(sink, opts.signal),
    options({ wrapWithDirectory: true }, opts.fileImportConcurrency),
  ))
    root = result
  opts.signal?.throwIfAborted()
  // With no entry at all the importer yields nothing: the result is the empty directory.
  if (root === undefined || root.path !== '') return importEmptyDirectory(sink)
  return root.cid
}

async function importEmptyDirectory(sink: BlockSink): Promise<CID> {
  let root: ImportResult | undefined
  for await (const result of importer([{ path: 'empty' }], writableStorage(sink, undefined), options({}, 1)))
    root = result
  if (root === undefined) throw new InvalidContentError({ reason: 'could not build the empty directory' })
  return root.cid
}

async function* importCandidates(
  entries: Iterable<DirectoryEntry> | AsyncIterable<DirectoryEntry>,
  signal: AbortSignal | undefined,
): AsyncGenerator<ImportCandidate> {
  const paths = new EntryPaths()
  for await (const entry of entries) {
    signal?.throwIfAborted()
    const candidate = toCandidate(entry, paths, signal)
    if (candidate !== undefined) yield candidate
  }
}

/**
 * Checks one directory entry (path, kind, no clash with earlier entries recorded in `paths`)
 * and returns it; throws {@link InvalidDirectoryEntryError} naming the path.
 */
export function validateEntry(entry: DirectoryEntry, paths: EntryPaths): DirectoryEntry {
  if (entry === null || typeof entry !== 'object')
    throw new InvalidDirectoryEntryError({
      path: String(entry),
      reason: 'an entry must be an object with a `path`',
    })
  const path = normalizeEntryPath(entry.path)
  if ('content' in entry) {
    paths.add(path, 'file')
    return entry
  }
  if (entry.type === 'directory') {
    paths.add(path, 'directory')
    return entry
  }
  if (entry.type === 'symlink') {
    if (typeof entry.target !== 'string' || entry.target === '')
      throw new InvalidDirectoryEntryError({ path, reason: 'a symlink needs a non-empty `target` string' })
    paths.add(path, 'symlink')
    return entry
  }
  throw new InvalidDirectoryEntryError({
    path,
    reason: "an entry needs `content` (a file) or `type: 'directory' | 'symlink'`",
  })
}

function toCandidate(
  entry: DirectoryEntry,
  paths: EntryPaths,
  signal: AbortSignal | undefined,
): ImportCandidate | undefined {
  const implied = paths.has(entry?.path)
  const valid = validateEntry(entry, paths)
  // A directory that earlier entries already created: importing it again would empty it.
  if (implied && !('content' in valid) && valid.type === 'directory') return undefined
  if ('content' in valid)
    return { path: valid.path, content: abortable(contentChunks(valid.content), signal) }
  if (valid.type === 'symlink') return { path: valid.path, link: valid.target }
  return { path: valid.path }
}

/** Orders entries as a tree walk (a directory's entries are contiguous and follow it). */
export function compareEntryPaths(a: string, b: string): number {
  const left = a.split('/')
  const right = b.split('/')
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const l = left[i] as string
    const r = right[i] as string
    if (l !== r) return l < r ? -1 : 1
  }
  return left.length - right.length
}

/** Checks a relative entry path and returns it; throws {@link InvalidDirectoryEntryError}. */
export function normalizeEntryPath(path: unknown): string {
  if (typeof path !== 'string')
    throw new InvalidDirectoryEntryError({ path: String(path), reason: 'the path must be a string' })
  const reason = entryPathProblem(path)
  if (reason !== undefined) throw new InvalidDirectoryEntryError({ path, reason })
  return path
}

function entryPathProblem(path: string): string | undefined {
  if (path === '') return 'the path is empty'
  if (path.startsWith('/')) return 'the path must be relative (no leading `/`)'
  if (path.includes('\0')) return 'the path contains a NUL byte'
  for (const segment of path.split('/')) {
    if (segment === '') return 'the path has an empty segment (`//` or a trailing `/`)'
    if (segment === '.' || segment === '..') return `the path has a \`${segment}\` segment`
    if (segment.endsWith('\\')) return 'a name ends with `\\` (it would escape the `/` after it)'
  }
  return undefined
}

/** Tracks imported paths so that duplicates and file/directory clashes are refused. */
export class EntryPaths {
  readonly #kinds = new Map<string, 'file' | 'directory' | 'symlink' | 'implied'>()

  /** Whether `path` is already known (as an entry or as the parent of one). */
  has(path: unknown): boolean {
    return typeof path === 'string' && this.#kinds.has(path)
  }

  add(path: string, kind: 'file' | 'directory' | 'symlink'): void {
    const segments = path.split('/')
    for (let i = 1; i < segments.length; i++) {
      const parent = segments.slice(0, i).join('/')
      const existing = this.#kinds.get(parent)
      if (existing === 'file' || existing === 'symlink')
        throw new InvalidDirectoryEntryError({
          path,
          reason: `\`${parent}\` is a ${existing}, not a directory`,
        })
      if (existing === undefined) this.#kinds.set(parent, 'implied')
    }
    const existing = this.#kinds.get(path)
    if (existing !== undefined) {
      if (existing === 'implied' && kind === 'directory') {
        this.#kinds.set(path, 'directory')
        return
      }
      throw new InvalidDirectoryEntryError({
        path,
        reason: existing === 'implied' ? `\`${path}\` is already a directory` : 'the path appears twice',
      })
    }
    this.#kinds.set(path, kind)
  }
}
