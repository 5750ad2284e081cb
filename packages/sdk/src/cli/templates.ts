/**
 * Source templates: the folders under the package's `templates/` (a
 * `source.json`, a `Dockerfile`, the scripts it copies and a `README.md`)
 * that `gridforge source init` copies to start a source.
 */

import { cp, mkdir, readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { UsageError } from '@gridforge/cli-kit'
import { parseSourceMetadata, type SourceMetadata } from '../sources/metadata.js'

/** One template, as `gridforge source init --list` shows it. */
export interface SourceTemplate {
  /** The template's name: its folder under `templates/`, e.g. `'pytorch-inference'`. */
  name: string
  /** Where its files are. */
  directory: string
  /** Its `source.json`, parsed (defaults filled in). */
  metadata: SourceMetadata
  /** The first sentence of the metadata's description (else its name): what the source does. */
  summary: string
}

/** What {@link copyTemplate} wrote. */
export interface CopiedTemplate {
  /** The directory the files were written to (absolute). */
  directory: string
  /** The files written, relative to `directory`, sorted. */
  files: string[]
}

const packageName = '@gridforge/sdk'

/**
 * The package's `templates/` folder, found from the module that asks: the
 * bundled `dist/cli.js` (one level below the package root) or, under vitest,
 * `src/cli/templates.ts` (two levels below). The first folder upwards whose
 * `package.json` is `@gridforge/sdk`'s is the package root.
 *
 * @example
 * const root = await templatesRoot() // '/…/node_modules/@gridforge/sdk/templates'
 */
export async function templatesRoot(from: string = import.meta.url): Promise<string> {
  let directory = path.dirname(from.startsWith('file:') ? fileURLToPath(from) : from)
  for (let level = 0; level < 4; level++) {
    const manifest = await readFile(path.join(directory, 'package.json'), 'utf8').then(
      (text) => JSON.parse(text) as { name?: unknown },
      () => undefined,
    )
    if (manifest?.name === packageName) return path.join(directory, 'templates')
    const parent = path.dirname(directory)
    if (parent === directory) break
    directory = parent
  }
  throw new Error(`the templates of ${packageName} were not found above ${from}`)
}

/** Every template under `root`, by name. */
export async function listTemplates({ root }: { root?: string } = {}): Promise<SourceTemplate[]> {
  const directory = root ?? (await templatesRoot())
  const entries = await readdir(directory, { withFileTypes: true })
  const templates: SourceTemplate[] = []
  for (const entry of entries.filter((item) => item.isDirectory()).sort(byName)) {
    const folder = path.join(directory, entry.name)
    const metadata = parseSourceMetadata(await readFile(path.join(folder, 'source.json'), 'utf8'))
    templates.push({
      name: entry.name,
      directory: folder,
      metadata,
      summary: summaryOf(metadata),
    })
  }
  return templates
}

/** The template called `name`; a {@link UsageError} listing the others when there is none. */
export async function findTemplate(name: string, { root }: { root?: string } = {}): Promise<SourceTemplate> {
  const templates = await listTemplates(root === undefined ? {} : { root })
  const found = templates.find((template) => template.name === name)
  if (found !== undefined) return found
  throw new UsageError(`--template: there is no template '${name}'`, [
    `Templates: ${templates.map((template) => template.name).join(', ')}.`,
    'gridforge source init --list describes them.',
  ])
}

/**
 * Copies a template's files into `target`, creating it when needed. A
 * directory that is not empty is refused unless `force` is set; then files
 * with a template file's name are replaced and the others are kept.
 */
export async function copyTemplate({
  template,
  target,
  force = false,
}: {
  template: SourceTemplate
  target: string
  force?: boolean
}): Promise<CopiedTemplate> {
  const directory = path.resolve(target)
  const existing = await readdir(directory).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined
    if (error.code === 'ENOTDIR') throw new UsageError(`${target} exists and is not a directory`)
    throw error
  })
  if (existing !== undefined && existing.length > 0 && !force) {
    throw new UsageError(`${target} is not empty`, [
      'Choose another directory, or pass --force to write the template over it (files with the same names are replaced, others are kept).',
    ])
  }
  await mkdir(directory, { recursive: true })
  await cp(template.directory, directory, { recursive: true, force: true, errorOnExist: false })
  return { directory, files: await filesUnder(template.directory) }
}

/** Whether an image reference is a template's placeholder: its digest is all zeros. */
export function isPlaceholderImage(image: string): boolean {
  return /@sha256:0{64}$/.test(image)
}

/** The files under `directory`, relative to it, `/`-separated and sorted. */
async function filesUnder(directory: string): Promise<string[]> {
  const files: string[] = []
  for (const entry of await readdir(directory, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue
    const relative = path.relative(directory, path.join(entry.parentPath, entry.name))
    files.push(relative.split(path.sep).join('/'))
  }
  return files.sort()
}

/** The first sentence of the description's first line, or the source's name. */
function summaryOf(metadata: SourceMetadata): string {
  const line = metadata.description?.split('\n')[0]?.trim() ?? ''
  const sentence = /^(.*?[.!?])(?:\s|$)/.exec(line)?.[1] ?? line
  return sentence === '' ? metadata.name : sentence
}

function byName(a: { name: string }, b: { name: string }): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0
}
