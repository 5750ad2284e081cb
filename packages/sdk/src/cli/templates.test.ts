import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { copyTemplate, findTemplate, isPlaceholderImage, listTemplates, templatesRoot } from './templates.js'

const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const names = [
  'blender-render',
  'ffmpeg-transcode',
  'jupyter-papermill',
  'pytorch-inference',
  'pytorch-training',
  'scientific-simulation',
]

describe('templatesRoot', () => {
  it('finds the package templates from the source tree (vitest) and from the bundle (dist/cli.js)', async () => {
    const expected = path.join(packageRoot, 'templates')
    expect(await templatesRoot()).toBe(expected)
    expect(await templatesRoot(pathToFileURL(path.join(packageRoot, 'dist', 'cli.js')).href)).toBe(expected)
    expect(await templatesRoot(path.join(packageRoot, 'dist', 'cli.js'))).toBe(expected)
  })

  it('fails outside the package', async () => {
    await expect(templatesRoot(path.join(tmpdir(), 'x', 'cli.js'))).rejects.toThrow(
      'the templates of @gridforge/sdk were not found',
    )
  })
})

describe('listTemplates', () => {
  it('lists every template by name, with its parsed metadata and a one-line summary', async () => {
    const templates = await listTemplates()
    expect(templates.map((template) => template.name)).toEqual(names)
    for (const template of templates) {
      expect(template.metadata.template).toBe(template.name)
      expect(template.summary).not.toContain('\n')
      expect(template.summary.length).toBeGreaterThan(20)
      expect(isPlaceholderImage(template.metadata.image)).toBe(true)
    }
  })
})

describe('findTemplate', () => {
  it('finds a template by name', async () => {
    expect((await findTemplate('ffmpeg-transcode')).metadata.resources.gpus).toBe(0)
  })

  it('refuses an unknown name with a usage error that lists the templates', async () => {
    const error = await findTemplate('../pytorch-inference').catch((caught: unknown) => caught)
    expect(error).toMatchObject({
      name: 'UsageError',
      shortMessage: "--template: there is no template '../pytorch-inference'",
      metaMessages: [`Templates: ${names.join(', ')}.`, 'gridforge source init --list describes them.'],
    })
  })
})

describe('copyTemplate', () => {
  let root: string
  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'gridforge-templates-'))
  })
  afterEach(() => rm(root, { recursive: true, force: true }))

  it('copies every file into a new directory and says which', async () => {
    const template = await findTemplate('jupyter-papermill')
    const target = path.join(root, 'nested', 'notebooks')
    const copied = await copyTemplate({ template, target })
    expect(copied.directory).toBe(target)
    expect(copied.files).toEqual([
      'Dockerfile',
      'README.md',
      'example/measurements.csv',
      'example/notebook.ipynb',
      'example/parameters.json',
      'requirements.txt',
      'run.py',
      'source.json',
    ])
    expect(await readFile(path.join(target, 'source.json'), 'utf8')).toBe(
      await readFile(path.join(template.directory, 'source.json'), 'utf8'),
    )
  })

  it('writes into an empty directory', async () => {
    const template = await findTemplate('scientific-simulation')
    await copyTemplate({ template, target: root })
    expect((await readdir(root)).sort()).toEqual(
      ['Dockerfile', 'README.md', 'requirements.txt', 'simulate.py', 'source.json'].sort(),
    )
  })

  it('refuses a directory that is not empty, and with force replaces the template files only', async () => {
    const template = await findTemplate('ffmpeg-transcode')
    await writeFile(path.join(root, 'source.json'), '{"mine": true}')
    await writeFile(path.join(root, 'notes.txt'), 'keep me')
    await expect(copyTemplate({ template, target: root })).rejects.toMatchObject({
      name: 'UsageError',
      shortMessage: `${root} is not empty`,
    })
    expect(await readFile(path.join(root, 'source.json'), 'utf8')).toBe('{"mine": true}')

    await copyTemplate({ template, target: root, force: true })
    expect(JSON.parse(await readFile(path.join(root, 'source.json'), 'utf8')).template).toBe(
      'ffmpeg-transcode',
    )
    expect(await readFile(path.join(root, 'notes.txt'), 'utf8')).toBe('keep me')
  })

  it('refuses a target that is a file, even with force', async () => {
    const template = await findTemplate('ffmpeg-transcode')
    const file = path.join(root, 'file')
    await writeFile(file, 'x')
    await expect(copyTemplate({ template, target: file, force: true })).rejects.toMatchObject({
      name: 'UsageError',
      shortMessage: `${file} exists and is not a directory`,
    })
  })

  it('lists templates from another root', async () => {
    await mkdir(path.join(root, 'tiny'))
    await writeFile(
      path.join(root, 'tiny', 'source.json'),
      JSON.stringify({
        name: 'Tiny',
        image: `tiny@sha256:${'ab'.repeat(32)}`,
        description: 'One line.\nMore.',
      }),
    )
    const [tiny] = await listTemplates({ root })
    expect(tiny).toMatchObject({ name: 'tiny', summary: 'One line.' })
    expect(isPlaceholderImage(tiny?.metadata.image ?? '')).toBe(false)
  })
})
