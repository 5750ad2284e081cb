import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import {
  bareKey,
  devnetConfig,
  ensureBuilt,
  newAccount,
  registeredProvider,
  runCli,
  startCli,
  workspace,
} from './run.js'

describe('gridforge-provider start', () => {
  let space: Awaited<ReturnType<typeof workspace>>
  beforeAll(async () => {
    await ensureBuilt()
    space = await workspace()
  })
  afterAll(() => space.cleanup())

  it('runs the agent with JSON logs on stderr and stops gracefully on SIGTERM (exit 0)', async () => {
    const provider = await registeredProvider()
    await space.write(devnetConfig(space, inject('devnet').rpcUrl, '[policy]\nconcurrency = 1\n'))

    const run = startCli(['start', '--config', space.config], {
      env: { GRIDFORGE_PRIVATE_KEY: provider.key },
    })
    await run.waitForStderr(/"msg":"agent started"/)
    run.child.kill('SIGTERM')
    const { code, stdout, stderr } = await run.done
    expect(code).toBe(0)
    expect(stdout).toBe('')
    const lines = stderr
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { level: string; msg: string; provider?: string })
    const messages = lines.map((line) => line.msg)
    expect(messages).toContain('agent started')
    expect(messages.some((message) => message.startsWith('stopping: finishing or journaling'))).toBe(true)
    expect(messages.at(-1)).toBe('stopped')
    expect(lines.find((line) => line.msg === 'agent started')).toMatchObject({
      level: 'info',
      provider: provider.address,
      runtime: 'docker',
      isolated: true,
    })
    expect(stderr.toLowerCase()).not.toContain(bareKey(provider.key))
  })

  it('refuses an account that is not registered (exit 2)', async () => {
    const stranger = await newAccount({ grid: '0' })
    await space.write(devnetConfig(space, inject('devnet').rpcUrl))
    const { code, stderr } = await runCli(['start', '--config', space.config], {
      env: { GRIDFORGE_PRIVATE_KEY: stranger.key },
    })
    expect(code).toBe(2)
    expect(stderr).toContain(`error: ${stranger.address} is not a registered provider`)
    expect(stderr).toContain('gridforge-provider register')
  })

  it('warns loudly, first, that the process runtime runs tasks unisolated', async () => {
    const stranger = await newAccount({ grid: '0' })
    await space.write(
      devnetConfig(space, inject('devnet').rpcUrl, '[runtime]\nkind = "process"\nallowUnisolated = true\n'),
    )
    const { stderr } = await runCli(['start', '--config', space.config], {
      env: { GRIDFORGE_PRIVATE_KEY: stranger.key },
    })
    expect(stderr.split('\n')[0]).toContain(
      'WARNING: [runtime] kind = "process" — tasks run UNISOLATED on this host',
    )
  })

  it('says the engine is not usable (exit 8)', async () => {
    const stranger = await newAccount({ grid: '0' })
    await space.write(
      devnetConfig(space, inject('devnet').rpcUrl, '[runtime]\nsocket = "/nonexistent/docker.sock"\n'),
    )
    const { code, stderr } = await runCli(['start', '--config', space.config], {
      env: { GRIDFORGE_PRIVATE_KEY: stranger.key },
    })
    expect(code).toBe(8)
    expect(stderr).toContain('error: the Docker engine is not reachable')
  })

  it('needs a key', async () => {
    await space.write(devnetConfig(space, inject('devnet').rpcUrl))
    const { code, stderr } = await runCli(['start', '--config', space.config])
    expect(code).toBe(2)
    expect(stderr).toContain('error: this command signs transactions, but no key is configured')
  })
})
