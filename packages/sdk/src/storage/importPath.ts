import type {
  ContentStore,
  ContentStoreWriteErrorType,
  DirectoryEntry,
  WriteOptions,
} from './ContentStore.js'
import { InvalidDirectoryEntryError, StorageIoError, type StorageIoErrorType } from './errors.js'

export interface ImportPathParameters extends WriteOptions {
  /** Include names starting with `.` (Kubo's `--hidden`). Default `false`, as `ipfs add -r`. */
  hidden?: boolean | undefined
}
export type ImportPathReturnType = string
export type ImportPathErrorType = ContentStoreWriteErrorType | StorageIoErrorType

// node:fs is loaded on first use, so that the storage entry loads in browsers.
type Fs = typeof import('node:fs')
type FsPromises = typeof import('node:fs/promises')
type Path = typeof import('node:path')

/**
 * Stores a file or a whole folder from disk (Node only) and returns its CID, the one
 * `ipfs add -r --cid-version=1 --raw-leaves <fsPath>` prints: files are streamed from disk
 * (never read whole), folders are walked depth first, empty folders are kept, symlinks inside
 * a folder are stored as UnixFS symlinks (not followed), and names starting with `.` are
 * skipped unless `hidden: true` (as Kubo does). A symlink given as `fsPath` itself is followed.
 *
 * @example
 * import { fsStore, importPath } from '@gridforge/sdk/storage'
 *
 * const cid = await importPath(fsStore({ root: '.gridforge/store' }), './inputs')
 */
export async function importPath(
  store: ContentStore,
  fsPath: string,
  parameters: ImportPathParameters = {},
): Promise<ImportPathReturnType> {
  const [fs, fsp, path] = await Promise.all([
    import('node:fs'),
    import('node:fs/promises'),
    import('node:path'),
  ])
  let stats: Awaited<ReturnType<FsPromises['stat']>>
  try {
    stats = await fsp.stat(fsPath)
  } catch (cause) {
    throw new StorageIoError({ path: fsPath, operation: 'read', cause })
  }
  if (stats.isFile()) return store.put(fileChunks(fs, fsPath), parameters)
  if (stats.isDirectory())
    return store.putDirectory(walk({ fs, fsp, path }, fsPath, '', parameters.hidden ?? false), parameters)
  throw new InvalidDirectoryEntryError({ path: fsPath, reason: 'not a regular file or a directory' })
}

/** A file's bytes, opened only when first read. */
async function* fileChunks(fs: Fs, file: string): AsyncGenerator<Uint8Array> {
  try {
    for await (const chunk of fs.createReadStream(file, { highWaterMark: 256 * 1024 }))
      yield chunk as Uint8Array
  } catch (cause) {
    throw new StorageIoError({ path: file, operation: 'read', cause })
  }
}

async function* walk(
  modules: { fs: Fs; fsp: FsPromises; path: Path },
  root: string,
  relative: string,
  hidden: boolean,
): AsyncGenerator<DirectoryEntry> {
  const { fs, fsp, path } = modules
  const directory = relative === '' ? root : path.join(root, ...relative.split('/'))
  let dirents: import('node:fs').Dirent[]
  try {
    dirents = await fsp.readdir(directory, { withFileTypes: true })
  } catch (cause) {
    throw new StorageIoError({ path: directory, operation: 'list', cause })
  }
  dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  for (const dirent of dirents) {
    if (!hidden && dirent.name.startsWith('.')) continue
    const entryPath = relative === '' ? dirent.name : `${relative}/${dirent.name}`
    const absolute = path.join(directory, dirent.name)
    if (dirent.isDirectory()) {
      yield { path: entryPath, type: 'directory' }
      yield* walk(modules, root, entryPath, hidden)
    } else if (dirent.isFile()) {
      yield { path: entryPath, content: fileChunks(fs, absolute) }
    } else if (dirent.isSymbolicLink()) {
      let target: string
      try {
        target = await fsp.readlink(absolute)
      } catch (cause) {
        throw new StorageIoError({ path: absolute, operation: 'read link', cause })
      }
      yield { path: entryPath, type: 'symlink', target }
    } else {
      throw new InvalidDirectoryEntryError({
        path: entryPath,
        reason: 'not a regular file, directory or symlink',
      })
    }
  }
}
