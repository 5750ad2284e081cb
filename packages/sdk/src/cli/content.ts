/** Moving task inputs into the content store and results out of it. */

import { once } from 'node:events'
import { lstat, mkdir, open } from 'node:fs/promises'
import path from 'node:path'
import { type Terminal, UsageError } from '@gridforge/cli-kit'
import { importPath } from '../storage/importPath.js'
import { isCid } from '../utils/cid.js'
import type { Store } from './store.js'

/**
 * A task input given on the command line: a CID as is, or a file or folder,
 * imported into the store with the SDK's deterministic UnixFS settings (the
 * CID `ipfs add -r --cid-version=1 --raw-leaves` gives).
 */
export async function resolveInput(
  value: string,
  {
    store,
    terminal,
    baseDir = process.cwd(),
    option = '--input',
  }: {
    store: Store
    terminal: Terminal
    baseDir?: string | undefined
    option?: string | undefined
  },
): Promise<string> {
  const file = path.resolve(baseDir, value)
  const stats = await lstat(file).catch(() => undefined)
  if (stats === undefined) {
    if (isCid(value)) return value
    throw new UsageError(`${option}: '${value}' is neither a CID nor an existing file or folder`)
  }
  terminal.progress(`importing ${value} into ${store.description}…`)
  const cid = await importPath(store, file)
  terminal.progress(`imported ${value}: ${cid}`)
  return cid
}

/** What {@link exportContent} wrote. */
export interface ExportedContent {
  cid: string
  type: 'file' | 'directory'
  /** Files written, relative to the output folder. */
  files: string[]
  /** Symbolic links in the content; never created on disk (they could point anywhere). */
  skippedLinks: string[]
  bytes: number
}

async function kindOf(store: Store, cid: string): Promise<'file' | 'directory'> {
  try {
    await store.ls(cid)
    return 'directory'
  } catch (error) {
    if (error instanceof Error && error.name === 'NotADirectoryError') return 'file'
    throw error
  }
}

/** Whether `cid` is a directory (else a file). */
export async function isDirectory(store: Store, cid: string): Promise<boolean> {
  return (await kindOf(store, cid)) === 'directory'
}

async function writeStream(file: string, chunks: AsyncIterable<Uint8Array>): Promise<number> {
  // `wx`: never overwrite, never follow a link planted where an output goes. Opened first, so that an
  // existing file is a clear error rather than a stream failure.
  const handle = await open(file, 'wx').catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    throw new UsageError(`${file} already exists: outputs never overwrite files`, [
      'Pass an --out folder that does not hold these files, or remove them first.',
    ])
  })
  const stream = handle.createWriteStream()
  let bytes = 0
  try {
    for await (const chunk of chunks) {
      bytes += chunk.byteLength
      if (!stream.write(chunk)) await once(stream, 'drain')
    }
  } finally {
    stream.end()
    await once(stream, 'close').catch(() => undefined)
  }
  return bytes
}

/**
 * Writes the file or directory `cid` into the folder `out` (created if
 * needed): a directory's entries go in `out`, a file becomes `out/<name>`.
 * Every block is verified against its CID as it is read; existing files are
 * never overwritten.
 */
export async function exportContent(
  store: Store,
  cid: string,
  out: string,
  { terminal, fileName = 'output' }: { terminal: Terminal; fileName?: string },
): Promise<ExportedContent> {
  const type = await kindOf(store, cid)
  const result: ExportedContent = { cid, type, files: [], skippedLinks: [], bytes: 0 }
  await mkdir(out, { recursive: true })
  if (type === 'file') {
    terminal.progress(`fetching ${cid}…`)
    result.bytes += await writeStream(path.join(out, fileName), store.get(cid))
    result.files.push(fileName)
    return result
  }
  const walk = async (relative: string) => {
    const entries = await store.ls(cid, relative === '' ? {} : { path: relative })
    for (const entry of entries) {
      if (entry.name === '' || entry.name === '.' || entry.name === '..' || /[/\\\0]/.test(entry.name)) {
        throw new UsageError(`refusing to write an entry named ${JSON.stringify(entry.name)} from ${cid}`)
      }
      const inner = relative === '' ? entry.name : `${relative}/${entry.name}`
      const target = path.join(out, ...inner.split('/'))
      if (entry.type === 'directory') {
        await mkdir(target, { recursive: true })
        await walk(inner)
      } else if (entry.type === 'file') {
        terminal.progress(`fetching ${inner} (${entry.size} bytes)…`)
        result.bytes += await writeStream(target, store.get(cid, { path: inner }))
        result.files.push(inner)
      } else {
        result.skippedLinks.push(inner)
      }
    }
  }
  await walk('')
  return result
}
