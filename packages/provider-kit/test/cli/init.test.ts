import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config/loadConfig.js'
import { ensureBuilt, runCli, workspace } from './run.js'

describe('gridforge-provider init', () => {
  let space: Awaited<ReturnType<typeof workspace>>
  beforeAll(async () => {
    await ensureBuilt()
    space = await workspace()
  })
  afterAll(() => space.cleanup())

  it('writes a commented config that loadConfig accepts, with the given values', async () => {
    const file = path.join(space.root, 'new', 'provider.toml')
    const { code, stdout, stderr } = await runCli(
      [
        'init',
        '--config',
        file,
        '--rpc',
        'http://127.0.0.1:9545',
        '--chain-id',
        '31337',
        '--store',
        'store',
        '--sources',
        '2,5',
        '--stake',
        '150',
      ],
      { cwd: space.root },
    )
    expect(stderr).toBe('')
    expect(code).toBe(0)
    expect(stdout).toContain(`wrote ${file}`)
    const text = await readFile(file, 'utf8')
    expect(text).toMatch(/^# gridforge-provider configuration/)
    expect(text).toContain('# pollingInterval = "1s"')
    const config = await loadConfig(file)
    expect(config.chain).toMatchObject({ rpc: 'http://127.0.0.1:9545', chainId: 31337 })
    // A relative --store is relative to where init ran, not to the file.
    expect(config.store).toEqual({ kind: 'fs', root: path.join(space.root, 'store'), gateway: undefined })
    expect(config.policy.sources).toEqual([2, 5])
    expect(config.register).toEqual({ stake: '150', sources: [2, 5] })
  })

  it('refuses to overwrite an existing file unless --force', async () => {
    const file = path.join(space.root, 'existing.toml')
    await writeFile(file, '# mine\n')
    const refused = await runCli(['init', '--config', file])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain(`error: ${file} exists; not overwriting it`)
    expect(refused.stderr).toContain('--force')
    expect(await readFile(file, 'utf8')).toBe('# mine\n')

    const json = await runCli(['init', '--config', file, '--json'])
    expect(json.code).toBe(2)
    expect(JSON.parse(json.stdout)).toMatchObject({ error: { name: 'ConfigExistsError', exitCode: 2 } })

    const forced = await runCli(['init', '--config', file, '--force', '--json'])
    expect(forced.code).toBe(0)
    expect(JSON.parse(forced.stdout)).toEqual({ file })
    await expect(loadConfig(file)).resolves.toMatchObject({ file })
  })

  it('names the option whose value would not load, and writes nothing', async () => {
    const file = path.join(space.root, 'bad.toml')
    const rpc = await runCli(['init', '--config', file, '--rpc', 'ws://127.0.0.1:8545'])
    expect(rpc.code).toBe(2)
    expect(rpc.stderr).toContain('error: --rpc: expected the JSON-RPC endpoint: an http:// or https:// URL')
    const chain = await runCli(['init', '--config', file, '--chain-id', 'mainnet'])
    expect(chain.code).toBe(2)
    expect(chain.stderr).toContain("error: --chain-id: 'mainnet' is not a chain id")
    const stake = await runCli(['init', '--config', file, '--stake', '1e3'])
    expect(stake.code).toBe(2)
    expect(stake.stderr).toContain('error: --stake: expected a decimal token amount')
    await expect(readFile(file)).rejects.toThrow(/ENOENT/)
  })

  it('writes to GRIDFORGE_PROVIDER_CONFIG, else ~/.gridforge/provider.toml', async () => {
    const viaEnv = path.join(space.root, 'env.toml')
    expect((await runCli(['init'], { env: { GRIDFORGE_PROVIDER_CONFIG: viaEnv } })).code).toBe(0)
    await expect(loadConfig(viaEnv)).resolves.toBeDefined()
    const home = path.join(space.root, 'home')
    const { code, stdout } = await runCli(['init'], { env: { HOME: home } })
    expect(code).toBe(0)
    expect(stdout).toContain(path.join(home, '.gridforge', 'provider.toml'))
    const config = await loadConfig(path.join(home, '.gridforge', 'provider.toml'), { home })
    expect(config.agent.dataDir).toBe(path.join(home, '.gridforge', 'provider'))
  })
})
