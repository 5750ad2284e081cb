import { lstat, readdir } from 'node:fs/promises'
import path from 'node:path'

/**
 * Total apparent size in bytes of the regular files under `dir`, what
 * collecting the directory would read. Symbolic links are counted as links
 * (their own size) and never followed, so a link to `/` or a loop cannot make
 * the walk escape the directory or run forever. Sparse files count at their
 * apparent size: importing one reads every hole.
 *
 * Entries that vanish during the walk (the task is still writing) are skipped.
 * Stops early, returning a value above `stopAbove`, once the total exceeds it.
 *
 * @example
 * const bytes = await directorySize('/var/lib/gridforge/work/7-0/output')
 */
export async function directorySize(dir: string, stopAbove = Number.POSITIVE_INFINITY): Promise<number> {
  return (await directoryUsage(dir, stopAbove)).bytes
}

/** What {@link directoryUsage} measured. */
export interface DirectoryUsage {
  /** As {@link directorySize}. */
  bytes: number
  /** Entries the walk visited (files, links, directories): what the walk cost. */
  entries: number
}

/**
 * {@link directorySize}, with the number of entries walked: the output
 * watchdog spaces its measurements by what each one costs.
 *
 * @example
 * const { bytes, entries } = await directoryUsage(outputDir, maxOutputBytes)
 */
export async function directoryUsage(
  dir: string,
  stopAbove = Number.POSITIVE_INFINITY,
): Promise<DirectoryUsage> {
  let bytes = 0
  let visited = 0
  const pending = [dir]
  while (pending.length > 0) {
    const current = pending.pop() as string
    let entries: import('node:fs').Dirent[]
    try {
      entries = await readdir(current, { withFileTypes: true })
    } catch (error) {
      if (isGone(error)) continue
      throw error
    }
    for (const entry of entries) {
      visited++
      const full = path.join(current, entry.name)
      if (entry.isDirectory()) {
        pending.push(full)
        continue
      }
      try {
        bytes += (await lstat(full)).size
      } catch (error) {
        if (!isGone(error)) throw error
      }
      if (bytes > stopAbove) return { bytes, entries: visited }
    }
  }
  return { bytes, entries: visited }
}

function isGone(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  return code === 'ENOENT' || code === 'ENOTDIR'
}
