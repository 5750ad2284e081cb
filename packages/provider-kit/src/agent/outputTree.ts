import { lstat, readdir, readlink } from 'node:fs/promises'
import { isAbsolute, join, relative, resolve } from 'node:path'
import { TaskOutputRejectedError } from './errors.js'

/**
 * Walks a task's output folder and refuses, with the entry's path, what must
 * not be stored: FIFOs (reading one blocks for ever), sockets, devices, and
 * links that point out of the folder. Regular files, folders and links within
 * the tree pass.
 *
 * @example
 * await checkOutputTree('/var/lib/gridforge/agent/work/7/output', 7n)
 */
export async function checkOutputTree(root: string, taskId: bigint): Promise<void> {
  const refuse = (path: string, what: string) =>
    new TaskOutputRejectedError({ taskId, reason: `${JSON.stringify(relative(root, path))} is ${what}` })
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) await walk(path)
      else if (entry.isSymbolicLink()) {
        const target = await readlink(path)
        const resolved = isAbsolute(target) ? target : resolve(dir, target)
        const inside = relative(root, resolved)
        if (isAbsolute(target) || inside === '..' || inside.startsWith('../'))
          throw refuse(path, `a link out of the output folder (to ${target})`)
      } else if (!entry.isFile()) {
        const stats = await lstat(path)
        const what = stats.isFIFO()
          ? 'a FIFO'
          : stats.isSocket()
            ? 'a socket'
            : stats.isBlockDevice() || stats.isCharacterDevice()
              ? 'a device'
              : 'not a regular file'
        throw refuse(path, what)
      }
    }
  }
  await walk(root)
}
