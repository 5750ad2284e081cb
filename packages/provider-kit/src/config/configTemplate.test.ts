import { describe, expect, it } from 'vitest'
import { configTemplate } from './configTemplate.js'
import { parseConfig } from './loadConfig.js'
import { configFileSchema } from './schema.js'

const file = '/srv/gridforge/provider.toml'
const home = '/home/provider'

/** The template with every `# key = value` line uncommented. */
function uncommentAll(text: string): string {
  return text.replace(/^# (\w+ = .*)$/gm, '$1')
}

describe('configTemplate', () => {
  it('parses and validates as written, to the defaults', () => {
    expect(parseConfig(configTemplate(), { file, home })).toEqual(parseConfig('', { file, home }))
  })

  it('sets what init was given', () => {
    const config = parseConfig(
      configTemplate({
        rpc: 'https://rpc.example',
        chainId: 8453,
        deployment: './base.json',
        keystore: '~/key.json',
        store: '/mnt/shared/store',
        dataDir: '/var/lib/gridforge',
        sources: [4, 7],
        stake: '150',
      }),
      { file, home },
    )
    expect(config.chain).toMatchObject({
      rpc: 'https://rpc.example',
      chainId: 8453,
      deployment: '/srv/gridforge/base.json',
    })
    expect(config.account.keystore).toBe('/home/provider/key.json')
    expect(config.store).toEqual({ kind: 'fs', root: '/mnt/shared/store', gateway: undefined })
    expect(config.agent.dataDir).toBe('/var/lib/gridforge')
    expect(config.policy.sources).toEqual([4, 7])
    expect(config.register).toEqual({ stake: '150', sources: [4, 7] })
  })

  it('writes a Kubo store for a URL', () => {
    const config = parseConfig(configTemplate({ store: 'http://127.0.0.1:5001' }), { file, home })
    expect(config.store).toEqual({ kind: 'kubo', url: 'http://127.0.0.1:5001', gateway: undefined })
  })

  it('shows valid values on every commented option line', () => {
    const config = parseConfig(uncommentAll(configTemplate()), { file, home })
    expect(config.withdraw).toEqual({ everyMs: 3_600_000, minimum: '0' })
    expect(config.policy.audits).toEqual({ enabled: true, minPayment: '0' })
    expect(config.runtime.limits).toEqual({
      memoryBytes: 8 * 1024 ** 3,
      cpus: 4,
      pids: 512,
      tmpBytes: 256 * 1024 ** 2,
      maxOutputBytes: 1024 ** 3,
      maxLogBytes: 1024 ** 2,
    })
  })

  it('mentions every option of the schema, with a comment above it', () => {
    const text = configTemplate()
    const schema = configFileSchema({ baseDir: '/', home })
    const sections = schema.shape
    const expected: string[] = []
    for (const [section, table] of Object.entries(sections)) {
      const keys = keysOf(table)
      for (const key of keys) expected.push(`${section}.${key}`)
    }
    expect(expected).toContain('runtime.limits.maxLog')
    for (const option of expected) {
      const [section, ...rest] = option.split('.')
      const key = rest.pop() ?? ''
      const header = `[${[section, ...rest].join('.')}]`
      const body = text.slice(text.indexOf(`\n${header}\n`))
      expect(body, option).toMatch(new RegExp(`^(# |#   )?${key} = `, 'm'))
    }
    // Every option line is preceded by a comment saying what it does.
    const lines = text.split('\n')
    lines.forEach((line, index) => {
      if (/^(# )?\w+ = /.test(line)) expect(lines[index - 1], line).toMatch(/^#/)
    })
  })
})

/** The option names of a section of the schema (the variants' keys for store and runtime, limits and audits included). */
function keysOf(schema: unknown): string[] {
  const found = new Set<string>()
  const visit = (node: unknown, depth: number) => {
    if (node === null || typeof node !== 'object' || depth > 8) return
    const def = (node as { _zod?: { def?: Record<string, unknown> } })._zod?.def
    if (def === undefined) return
    if (def.type === 'object') {
      for (const [key, value] of Object.entries(def.shape as Record<string, unknown>)) {
        // Sub-tables: [runtime.limits], [policy.audits].
        if (key === 'limits' || key === 'audits') {
          for (const option of keysOf(value)) found.add(`${key}.${option}`)
        } else found.add(key)
      }
      return
    }
    for (const child of [def.innerType, def.in, def.out, def.schema, ...((def.options as unknown[]) ?? [])])
      visit(child, depth + 1)
  }
  visit(schema, 0)
  return [...found]
}
