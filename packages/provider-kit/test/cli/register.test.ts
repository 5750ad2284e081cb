import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { getProvider, getStake, isSubscribed } from '@gridforge/sdk'
import { encryptKeystore } from '@gridforge/sdk/keystore'
import { fsStore, getJson } from '@gridforge/sdk/storage'
import { createPublicClient, http, parseUnits } from 'viem'
import { hardhat } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { deployment } from '../../../sdk/test/chain.js'
import { publishTestSource } from '../../../sdk/test/fixtures.js'
import { capabilitiesOf } from '../../src/detect/capabilities.js'
import { detectHost } from '../../src/detect/detectHost.js'
import { bareKey, type CliResult, devnetConfig, ensureBuilt, newAccount, runCli, workspace } from './run.js'

describe('gridforge-provider register and status', () => {
  let space: Awaited<ReturnType<typeof workspace>>
  let account: Awaited<ReturnType<typeof newAccount>>
  let sources: number[]
  const outputs: CliResult[] = []
  const client = () => createPublicClient({ chain: hardhat, transport: http(inject('devnet').rpcUrl) })
  const run = async (
    args: string[],
    env: Record<string, string> = { GRIDFORGE_PRIVATE_KEY: account.key },
  ) => {
    const result = await runCli(['--config', space.config, ...args], { env, timeout: 120_000 })
    outputs.push(result)
    return result
  }

  beforeAll(async () => {
    await ensureBuilt()
    space = await workspace()
    account = await newAccount({ grid: '1000' })
    sources = [await publishTestSource(), await publishTestSource()]
    await space.write(
      devnetConfig(
        space,
        inject('devnet').rpcUrl,
        `[register]\nstake = "150"\nsources = [${sources.join(', ')}]\n`,
      ),
    )
  })
  afterAll(() => space.cleanup())

  it('stakes, registers with this host’s capabilities and a profile with the benchmark, and subscribes', async () => {
    const { code, stdout, stderr } = await run(['register', '--json'])
    expect(stderr).toContain('benchmarking this host')
    expect(code).toBe(0)
    const result = JSON.parse(stdout)
    const expected = capabilitiesOf(await detectHost())
    expect(result).toMatchObject({
      provider: account.address,
      chainId: 31337,
      action: 'registered',
      capabilities: expected,
      benchmark: { kind: 'cpu', unit: 'MB/s' },
      subscriptions: { added: sources, already: [] },
    })
    expect(result.transactions).toHaveLength(3)

    const onChain = await getProvider(client(), { deployment: deployment(), provider: account.address })
    expect(onChain).toMatchObject({ registered: true, paused: false, capabilities: expected })
    const stake = await getStake(client(), { deployment: deployment(), account: account.address })
    expect(stake.staked).toBe(parseUnits('150', 18))
    for (const sourceId of sources) {
      expect(
        await isSubscribed(client(), { deployment: deployment(), provider: account.address, sourceId }),
      ).toBe(true)
    }

    const profile = (await getJson(fsStore({ root: space.store }), result.profile)) as {
      format: string
      capabilities: unknown
      benchmark: { kind: string; score: number }
      host: { cpu: { cores: number } }
    }
    expect(profile.format).toBe('gridforge-provider-profile')
    expect(profile.capabilities).toEqual(expected)
    expect(profile.benchmark.kind).toBe('cpu')
    expect(profile.benchmark.score).toBeGreaterThan(0)
    expect(profile.host.cpu.cores).toBe(expected.cpuCores)
  })

  it('does nothing the second time', async () => {
    const { code, stdout, stderr } = await run(['register'])
    expect(code).toBe(0)
    expect(stderr).not.toContain('benchmarking')
    expect(stdout).toContain('capabilities unchanged')
    expect(stdout).toContain('nothing to do: no transaction sent')
    const json = JSON.parse((await run(['register', '--json'])).stdout)
    expect(json).toMatchObject({ action: 'unchanged', transactions: [], stake: { added: '0' } })
    expect(json.subscriptions).toEqual({ added: [], already: sources })
  })

  it('signs with a keystore named in the config', async () => {
    const keystore = path.join(space.root, 'key.json')
    await writeFile(
      keystore,
      JSON.stringify(await encryptKeystore(account.key, 'hunter22', { scrypt: { n: 1024, r: 8, p: 1 } })),
    )
    const withKeystore = path.join(space.root, 'keystore.toml')
    await writeFile(
      withKeystore,
      devnetConfig(
        space,
        inject('devnet').rpcUrl,
        `[account]\nkeystore = "${keystore}"\n[register]\nstake = "150"\n`,
      ),
    )
    const wrong = await runCli(['--config', withKeystore, 'register'], {
      env: { GRIDFORGE_KEYSTORE_PASSWORD: 'nope' },
    })
    expect(wrong.code).toBe(2)
    expect(wrong.stderr).toContain('wrong keystore password')
    const right = await runCli(['--config', withKeystore, 'register', '--json'], {
      env: { GRIDFORGE_KEYSTORE_PASSWORD: 'hunter22' },
    })
    outputs.push(wrong, right)
    expect(right.code).toBe(0)
    expect(JSON.parse(right.stdout)).toMatchObject({
      provider: account.address,
      action: 'unchanged',
      transactions: [],
    })
    // status reads the address from the keystore: no password needed.
    const status = await runCli(['--config', withKeystore, 'status', '--json'])
    outputs.push(status)
    expect(status.code).toBe(0)
    expect(JSON.parse(status.stdout).provider.toLowerCase()).toBe(account.address.toLowerCase())
  })

  it('shows the provider, its stake and subscriptions and the journal in status', async () => {
    const journal = path.join(space.dataDir, 'journal')
    const { openJournal, newEntry } = await import('../../src/agent/journal.js')
    const entries = await openJournal(journal)
    await entries.put({
      ...newEntry({ taskId: 7n, sourceId: sources[0] ?? 1, replicas: 1 }),
      step: 'running',
      slot: 0,
    })
    await entries.put({
      ...newEntry({ taskId: 5n, sourceId: sources[0] ?? 1, replicas: 1 }),
      step: 'abandoned',
      reason: 'the input is larger than policy.maxInput',
    })
    await entries.put({
      ...newEntry({ taskId: 6n, sourceId: sources[1] ?? 2, replicas: 1 }),
      step: 'done',
      runtimeSec: 3,
    })
    await entries.put({
      ...newEntry({ taskId: 8n, sourceId: sources[1] ?? 2, replicas: 1 }),
      step: 'done',
      failure: { kind: 'exited', exitCode: 2 },
    })

    const { code, stdout } = await run(['status', '--json'])
    expect(code).toBe(0)
    const status = JSON.parse(stdout)
    expect(status).toMatchObject({
      provider: account.address,
      registered: true,
      paused: false,
      capabilities: capabilitiesOf(await detectHost()),
      subscriptions: sources,
      subscriptionsFrom: 'events',
      stake: {
        staked: parseUnits('150', 18).toString(),
        locked: '0',
        available: parseUnits('150', 18).toString(),
      },
      market: { balance: '0' },
      rewards: expect.stringMatching(/^\d+$/),
      journal: {
        dir: journal,
        inProgress: [{ taskId: '7', step: 'running', slot: 0 }],
        byStep: { running: 1 },
      },
    })
    expect(
      status.journal.recent.map((entry: { taskId: string; step: string; reason?: string }) => [
        entry.taskId,
        entry.step,
        entry.reason,
      ]),
    ).toEqual(
      expect.arrayContaining([
        ['5', 'abandoned', 'the input is larger than policy.maxInput'],
        ['6', 'done', undefined],
      ]),
    )
    expect(status.journal.recent.find((entry: { taskId: string }) => entry.taskId === '8')?.failure).toEqual({
      kind: 'exited',
      exitCode: 2,
    })

    const human = await run(['status'])
    expect(human.code).toBe(0)
    expect(human.stdout).toMatch(/registered: +yes, since /)
    expect(human.stdout).toContain(`subscriptions:   ${sources.join(', ')}`)
    expect(human.stdout).toContain('tasks in progress: 1 (1 running)')
    expect(human.stdout).toMatch(/5 +abandoned .*the input is larger than policy\.maxInput/)
    expect(human.stdout).toMatch(/8 +done .*reported: exited with code 2/)
  })

  it('never prints the key', () => {
    expect(outputs.length).toBeGreaterThan(5)
    for (const { stdout, stderr } of outputs)
      expect(`${stdout}${stderr}`.toLowerCase()).not.toContain(bareKey(account.key))
  })
})
