import { mkdir, mkdtemp, rm, symlink, truncate, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { directorySize } from './directorySize.js'

let dir: string

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'gridforge-directory-size-'))
})

afterAll(() => rm(dir, { recursive: true, force: true }))

describe('directorySize', () => {
  test('adds up the files of every subdirectory', async () => {
    const root = path.join(dir, 'nested')
    await mkdir(path.join(root, 'a', 'b'), { recursive: true })
    await writeFile(path.join(root, 'top'), 'x'.repeat(100))
    await writeFile(path.join(root, 'a', 'b', 'deep'), 'y'.repeat(23))
    expect(await directorySize(root)).toBe(123)
    expect(await directorySize(path.join(dir, 'missing'))).toBe(0)
  })

  test('never follows symbolic links, to files or directories, loops included', async () => {
    const root = path.join(dir, 'links')
    await mkdir(root)
    await writeFile(path.join(root, 'file'), 'z'.repeat(10))
    await symlink('/', path.join(root, 'to-root'))
    await symlink(root, path.join(root, 'loop'))
    const size = await directorySize(root)
    // The file, plus each link's own size (the length of its target path).
    expect(size).toBe(10 + '/'.length + root.length)
  })

  test('counts a sparse file at its apparent size, and stops early above a bound', async () => {
    const root = path.join(dir, 'sparse')
    await mkdir(root)
    await writeFile(path.join(root, 'hole'), '')
    await truncate(path.join(root, 'hole'), 1 << 30)
    expect(await directorySize(root)).toBe(1 << 30)
    await writeFile(path.join(root, 'more'), 'x')
    expect(await directorySize(root, 10)).toBeGreaterThan(10)
  })
})
