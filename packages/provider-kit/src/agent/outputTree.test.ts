import { execFileSync } from 'node:child_process'
import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { TaskOutputRejectedError } from './errors.js'
import { checkOutputTree } from './outputTree.js'

async function outputDir() {
  const root = await mkdtemp(join(tmpdir(), 'gridforge-output-'))
  await mkdir(join(root, 'sub'))
  await writeFile(join(root, 'sub', 'result.txt'), 'ok')
  return root
}

describe('checkOutputTree', () => {
  test('regular files, folders and links inside the tree pass', async () => {
    const root = await outputDir()
    await symlink('sub/result.txt', join(root, 'latest'))
    await symlink('../sub/result.txt', join(root, 'sub', 'again'))
    await expect(checkOutputTree(root, 1n)).resolves.toBeUndefined()
  })

  test('a FIFO is refused with its path (reading it would block for ever)', async () => {
    const root = await outputDir()
    execFileSync('mkfifo', [join(root, 'sub', 'pipe')])
    const error = await checkOutputTree(root, 7n).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(TaskOutputRejectedError)
    expect((error as TaskOutputRejectedError).reason).toBe('"sub/pipe" is a FIFO')
  })

  test('a socket is refused', async () => {
    const root = await outputDir()
    const server = createServer().listen(join(root, 'socket'))
    await new Promise((resolve) => server.once('listening', resolve))
    try {
      await expect(checkOutputTree(root, 7n)).rejects.toThrow(/"socket" is a socket/)
    } finally {
      server.close()
    }
  })

  test('links out of the tree (relative or absolute) are refused', async () => {
    const relative = await outputDir()
    await symlink('../../etc/passwd', join(relative, 'sub', 'escape'))
    await expect(checkOutputTree(relative, 7n)).rejects.toThrow(
      /"sub\/escape" is a link out of the output folder/,
    )
    const absolute = await outputDir()
    await symlink('/etc/passwd', join(absolute, 'passwd'))
    await expect(checkOutputTree(absolute, 7n)).rejects.toThrow(
      /link out of the output folder \(to \/etc\/passwd\)/,
    )
  })
})
