import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { devnetConfig, ensureBuilt, registeredProvider, runCli, startCli, workspace } from './run.js'

describe('gridforge-provider: the price floor of the policy, on chain', () => {
  let space: Awaited<ReturnType<typeof workspace>>
  beforeAll(async () => {
    await ensureBuilt()
    space = await workspace()
  })
  afterAll(() => space.cleanup())

  it('status shows the published floor and the policy’s; start publishes the policy’s', async () => {
    const provider = await registeredProvider()
    await space.write(
      devnetConfig(space, inject('devnet').rpcUrl, '[policy]\nminPricePerGpuSecond = "0.000001"\n'),
    )
    const env = { GRIDFORGE_PRIVATE_KEY: provider.key }

    const before = await runCli(['status', '--config', space.config], { env })
    expect(before.code).toBe(0)
    expect(before.stdout).toMatch(
      /price floor:\s+0 GRID per GPU-second \(the policy says 0\.000001 GRID: the agent publishes it when it starts\)/,
    )

    const agent = startCli(['start', '--config', space.config], { env })
    await agent.waitForStderr(/"msg":"agent started"/)
    agent.child.kill('SIGTERM')
    const { code, stderr } = await agent.done
    expect(code).toBe(0)
    const published = stderr
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.msg === 'published price floor')
    expect(published).toMatchObject([{ minPricePerGpuSecond: '1000000000000', previous: '0' }])

    const after = await runCli(['status', '--json', '--config', space.config], { env })
    expect(after.code).toBe(0)
    expect(JSON.parse(after.stdout).priceFloor).toBe('1000000000000')
    const shown = await runCli(['status', '--config', space.config], { env })
    expect(shown.stdout).toMatch(/price floor:\s+0\.000001 GRID per GPU-second\n/)
  })
})
