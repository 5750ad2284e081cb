import type { InvalidParametersErrorType } from '../errors/validation.js'
import type {
  BlockTooLargeErrorType,
  ContentNotFoundErrorType,
  ContentTooLargeErrorType,
  ContentVerificationErrorType,
  InvalidCidErrorType,
  InvalidContentErrorType,
  InvalidDagErrorType,
  InvalidDirectoryEntryErrorType,
  InvalidJsonValueErrorType,
  InvalidPathErrorType,
  KuboCidMismatchErrorType,
  KuboRpcErrorType,
  NotADirectoryErrorType,
  NotAFileErrorType,
  PathNotFoundErrorType,
  ReadOnlyStoreErrorType,
  StorageRequestErrorType,
  StorageTimeoutErrorType,
  UnsupportedCidErrorType,
} from './errors.js'

/**
 * Bytes to store: a `Uint8Array`, an async (or sync) iterable of chunks (a Node stream, a
 * generator), or a web `ReadableStream`. Streams are read once, chunk by chunk, never whole.
 */
export type Content =
  | Uint8Array
  | AsyncIterable<Uint8Array>
  | Iterable<Uint8Array>
  | ReadableStream<Uint8Array>

/**
 * One entry of a directory to store. `path` is relative to the directory's root and uses
 * `/` between names (`outputs/result.json`); parent directories are implied.
 */
export type DirectoryEntry =
  /** A file. */
  | { path: string; content: Content }
  /** An (empty) directory; only needed for directories without files. */
  | { path: string; type: 'directory' }
  /** A symbolic link, stored as a UnixFS symlink and never followed on read. */
  | { path: string; type: 'symlink'; target: string }

/** Options of every read. */
export interface ReadOptions {
  /** Cancels the read; the signal's reason is thrown. */
  signal?: AbortSignal | undefined
}

/** Options of every write. */
export interface WriteOptions {
  /** Cancels the write; the signal's reason is thrown. */
  signal?: AbortSignal | undefined
}

export interface GetOptions extends ReadOptions {
  /** Read a file inside the directory `cid`, e.g. `outputs/result.json`. */
  path?: string | undefined
  /**
   * Stop with `ContentTooLargeError` once the content exceeds this many bytes: checked
   * against the size the root block declares before anything is read, then while reading.
   */
  maxBytes?: number | undefined
}

export interface LsOptions extends ReadOptions {
  /** List a directory inside `cid` instead of `cid` itself. */
  path?: string | undefined
}

/** One entry of a directory listing. */
export interface DirectoryListingEntry {
  name: string
  /** CID of the entry (a string, like every CID in this module). */
  cid: string
  type: 'file' | 'directory' | 'symlink'
  /**
   * Files: their size in bytes. Symlinks: the length of their target. Directories: the
   * cumulative size of their DAG as recorded in the link (Kubo's `Tsize`).
   */
  size: number
}

/** Errors any read may throw. */
export type ContentStoreReadErrorType =
  | InvalidCidErrorType
  | UnsupportedCidErrorType
  | ContentNotFoundErrorType
  | ContentVerificationErrorType
  | BlockTooLargeErrorType
  | InvalidDagErrorType
  | InvalidPathErrorType
  | PathNotFoundErrorType
  | NotADirectoryErrorType
  | StorageTimeoutErrorType
  | StorageRequestErrorType
  | KuboRpcErrorType

/** Errors `get` may throw (while iterating); `InvalidParametersError` for a bad `maxBytes`. */
export type ContentStoreGetErrorType =
  | ContentStoreReadErrorType
  | NotAFileErrorType
  | ContentTooLargeErrorType
  | InvalidParametersErrorType

/** Errors any write may throw. */
export type ContentStoreWriteErrorType =
  | InvalidContentErrorType
  | InvalidDirectoryEntryErrorType
  | InvalidJsonValueErrorType
  | ReadOnlyStoreErrorType
  | KuboRpcErrorType
  | KuboCidMismatchErrorType
  | StorageTimeoutErrorType
  | StorageRequestErrorType

/**
 * A content-addressed store of UnixFS files and directories.
 *
 * Every write imports with the fixed settings of `unixfsImportOptions`, so a store returns the
 * CID `ipfs add --cid-version=1 --raw-leaves` gives. Every read is streamed block by block and
 * each block is checked against its CID, whatever the store: a store cannot serve other bytes
 * for a CID without `ContentVerificationError`.
 *
 * Implementations: `memoryStore`, `fsStore` (embedded default), `kuboStore` (Kubo RPC),
 * `gatewayReader` (read-only, trustless HTTP gateway), `pinningServiceStore` (another store, pinned
 * to an IPFS pinning service).
 */
export interface ContentStore {
  /** What the store is, for messages: `memory`, `fs /data/gridforge`, `kubo http://127.0.0.1:5001`. */
  readonly description: string
  /** Stores a file and returns its CID. */
  put(content: Content, options?: WriteOptions): Promise<string>
  /**
   * Stores `value` as deterministic JSON (see `encodeJson`: sorted keys, no whitespace, UTF-8)
   * and returns its CID; equal values give equal CIDs.
   */
  putJson(value: unknown, options?: WriteOptions): Promise<string>
  /** Stores a directory tree and returns the CID of its root. An empty list gives the empty directory. */
  putDirectory(
    entries: Iterable<DirectoryEntry> | AsyncIterable<DirectoryEntry>,
    options?: WriteOptions,
  ): Promise<string>
  /** Streams a file's bytes (of `cid`, or of `path` inside the directory `cid`), verified block by block. */
  get(cid: string, options?: GetOptions): AsyncIterable<Uint8Array>
  /**
   * The bytes of the one block `cid` addresses, verified against it: a raw leaf's bytes or an
   * encoded dag-pb node, as a trustless gateway serves them (`?format=raw`). For serving or
   * exporting blocks (a gateway, a CAR); read files with `get`.
   */
  getBlock(cid: string, options?: ReadOptions): Promise<Uint8Array>
  /**
   * Stores one block under `cid` (a raw leaf's bytes or an encoded dag-pb node), after checking
   * the bytes against the CID (`ContentVerificationError` when they do not match). For content
   * that arrives as blocks rather than files: a DAG imported with other settings keeps its CID,
   * as `openOutput` needs when it writes a decrypted output. Optional: read-only stores
   * (`gatewayReader`) and stores that import files themselves may not have it.
   */
  putBlock?(cid: string, bytes: Uint8Array, options?: WriteOptions): Promise<void>
  /** Whether the store holds the root block of `cid` (it does not walk the DAG). */
  has(cid: string, options?: ReadOptions): Promise<boolean>
  /** Lists a directory, entries sorted by name. */
  ls(cid: string, options?: LsOptions): Promise<DirectoryListingEntry[]>
}
