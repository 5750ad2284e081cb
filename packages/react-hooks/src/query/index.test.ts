import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import * as query from './index.js'

describe('@gridforge/react-hooks/query exports', () => {
  // A change to this list is an API change: review it (and add a changeset).
  it('exports exactly these names', () => {
    expect(Object.keys(query).sort()).toMatchSnapshot()
  })

  it('pairs every query key with its options, and every mutation with what it invalidates', () => {
    const names = Object.keys(query)
    for (const name of names.filter((name) => name.endsWith('QueryKey')))
      expect(names, name).toContain(name.replace(/QueryKey$/, 'QueryOptions'))
    for (const name of names.filter((name) => name.endsWith('MutationOptions')))
      expect(names, name).toContain(name.replace(/MutationOptions$/, 'Invalidates'))
  })

  it('imports no React: it runs with @wagmi/core and @tanstack/query-core alone', async () => {
    const directory = path.dirname(fileURLToPath(import.meta.url))
    const files = (await readdir(directory)).filter(
      (file) => file.endsWith('.ts') && !file.endsWith('.test.ts'),
    )
    expect(files).toContain('watch.ts')
    for (const file of files) {
      const source = await readFile(path.join(directory, file), 'utf8')
      expect(source, file).not.toMatch(/from '(react|react-dom|wagmi|@tanstack\/react-query)(\/[^']*)?'/)
    }
  })
})
