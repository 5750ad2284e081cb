import { mkdir, open, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { type ContentStore, NotADirectoryError } from '@gridforge/sdk/storage'
import { errorKind, messageOf } from './errorKind.js'
import { TaskRefusedError } from './errors.js'

export interface FetchInputParameters {
  store: ContentStore
  taskId: bigint
  cid: string
  /** Emptied, then filled with the input. */
  dir: string
  /** The name a file CID is written under in `dir` (default `input`). */
  fileName?: string | undefined
  /** Most bytes fetched in all (files together). */
  maxBytes: number
  signal?: AbortSignal | undefined
}

/**
 * Writes a task's input to `dir`: a directory CID as its tree, a file CID as
 * `dir/input` (or `dir/<fileName>`). Every byte is verified against the CID by the store; names are
 * checked (no `/`, `.` or `..`), symlinks refused (the process runtime would
 * follow them on the host) and the total is capped, so a hostile input can
 * neither escape `dir` nor fill the disk.
 */
export async function fetchInput(parameters: FetchInputParameters): Promise<void> {
  const { store, taskId, cid, dir, maxBytes, signal } = parameters
  await rm(dir, { recursive: true, force: true })
  await mkdir(dir, { recursive: true })
  let total = 0
  const refuse = (reason: string, cause?: unknown) => new TaskRefusedError({ taskId, reason, cause })

  const writeFile = async (fileCid: string, target: string) => {
    const handle = await open(target, 'wx')
    try {
      for await (const chunk of store.get(fileCid, { signal, maxBytes: maxBytes - total })) {
        total += chunk.byteLength
        if (total > maxBytes) throw refuse(`input is larger than ${maxBytes} bytes`)
        await handle.write(chunk)
      }
    } finally {
      await handle.close()
    }
  }

  const walk = async (dirCid: string, target: string, depth: number): Promise<void> => {
    if (depth > 64) throw refuse('input directories are nested more than 64 deep')
    for (const entry of await store.ls(dirCid, { signal })) {
      if (entry.name === '' || entry.name === '.' || entry.name === '..' || /[/\0]/.test(entry.name))
        throw refuse(`input has an invalid file name ${JSON.stringify(entry.name)}`)
      const path = join(target, entry.name)
      if (entry.type === 'symlink') throw refuse(`input has a symlink (${entry.name}): not accepted`)
      if (entry.type === 'directory') {
        await mkdir(path)
        await walk(entry.cid, path, depth + 1)
      } else {
        if (total + entry.size > maxBytes) throw refuse(`input is larger than ${maxBytes} bytes`)
        await writeFile(entry.cid, path)
      }
    }
  }

  try {
    let isDirectory = true
    try {
      await store.ls(cid, { signal })
    } catch (error) {
      if (!(error instanceof NotADirectoryError)) throw error
      isDirectory = false
    }
    if (isDirectory) await walk(cid, dir, 0)
    else await writeFile(cid, join(dir, parameters.fileName ?? 'input'))
  } catch (error) {
    if (error instanceof TaskRefusedError) throw error
    // Content that failed verification or cannot be a DAG stays so; a missing input may still arrive.
    if (errorKind(error) === 'permanent') throw refuse(`input ${cid} is invalid: ${messageOf(error)}`, error)
    throw error
  }
}
