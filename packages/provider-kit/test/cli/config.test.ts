import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { bareKey, devnetConfig, ensureBuilt, newAccount, runCli, workspace } from './run.js'

describe('gridforge-provider with a bad config', () => {
  let space: Awaited<ReturnType<typeof workspace>>
  beforeAll(async () => {
    await ensureBuilt()
    space = await workspace()
  })
  afterAll(() => space.cleanup())

  it('exits 2 naming the field and what it expects', async () => {
    await space.write(devnetConfig(space, inject('devnet').rpcUrl, '[runtime.limits]\nmemory = "lots"\n'))
    const { code, stdout, stderr } = await runCli(['status', '--config', space.config])
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr).toContain(
      `error: ${space.config}: runtime.limits.memory: expected a size like "2GiB", "512MiB" or a number of bytes`,
    )
  })

  it('lists every bad field, and gives them as JSON with --json', async () => {
    await space.write('[policy]\nconcurrency = 0\nminPricePerGpuSecond = 1\n[runtime]\nkind = "process"\n')
    const { code, stdout, stderr } = await runCli(['start', '--json', '--config', space.config])
    expect(code).toBe(2)
    expect(stderr).toContain(`error: ${space.config}: 3 invalid fields`)
    expect(stderr).toContain('- policy.concurrency: must be at least 1')
    expect(stderr).toContain('- runtime.allowUnisolated: kind = "process" runs tasks unisolated')
    const { error } = JSON.parse(stdout)
    expect(error).toMatchObject({ name: 'ConfigInvalidError', exitCode: 2 })
    expect(error.fields).toHaveLength(3)
    expect(error.fields).toEqual(
      expect.arrayContaining([
        { path: 'runtime.allowUnisolated', message: expect.stringContaining('allowUnisolated = true') },
        { path: 'policy.concurrency', message: 'must be at least 1' },
        { path: 'policy.minPricePerGpuSecond', message: expect.stringContaining('decimal token amount') },
      ]),
    )
  })

  it('says where the line is when the file is not TOML', async () => {
    await space.write('[chain]\nrpc = http://127.0.0.1:8545\n')
    const { code, stderr } = await runCli(['status', '--config', space.config])
    expect(code).toBe(2)
    expect(stderr).toMatch(new RegExp(`error: ${space.config}:2:\\d+: not valid TOML`))
  })

  it('says how to create a missing file', async () => {
    const missing = `${space.root}/nope.toml`
    const { code, stderr } = await runCli(['register', '--config', missing])
    expect(code).toBe(2)
    expect(stderr).toContain(`error: no config file at ${missing}`)
    expect(stderr).toContain(`gridforge-provider init --config ${missing}`)
  })

  it('refuses a key written into the file, without printing it', async () => {
    const { key } = await newAccount({ grid: '0', eth: '0' })
    await space.write(`[account]\nprivateKey = "${key}"\n`)
    const { code, stdout, stderr } = await runCli(['status', '--json', '--config', space.config])
    expect(code).toBe(2)
    expect(stderr).toContain('account.privateKey: keys and passwords never go in the config file')
    expect(`${stdout}${stderr}`.toLowerCase()).not.toContain(bareKey(key))
  })

  it('refuses a chain id the node does not have, and an unreachable node', async () => {
    await space.write(devnetConfig(space, inject('devnet').rpcUrl).replace('chainId = 31337', 'chainId = 1'))
    const mismatch = await runCli(['status', '--config', space.config], {
      env: { GRIDFORGE_PRIVATE_KEY: (await newAccount({ grid: '0', eth: '0' })).key },
    })
    expect(mismatch.code).toBe(2)
    expect(mismatch.stderr).toContain('(chain.chainId) says chain 1, but the node at')
    await space.write(devnetConfig(space, 'http://127.0.0.1:9'))
    const unreachable = await runCli(['status', '--config', space.config], {
      env: { GRIDFORGE_PRIVATE_KEY: (await newAccount({ grid: '0', eth: '0' })).key },
    })
    expect(unreachable.code).toBe(6)
    expect(unreachable.stderr).toContain('error: cannot reach the RPC node at http://127.0.0.1:9')
  })
})
