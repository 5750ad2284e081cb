import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { anyCid, publishTestSource } from '../fixtures.js'
import { bareKey, ensureBuilt, newAccount, runCli, workspace } from './run.js'

describe('gridforge errors and exit codes', () => {
  let space: Awaited<ReturnType<typeof workspace>>
  let sourceId: number

  beforeAll(async () => {
    ;[space, sourceId] = await Promise.all([workspace(), publishTestSource(), ensureBuilt()])
  }, 180_000)
  afterAll(() => space.cleanup())

  it('exits 2 on an unknown command or option', async () => {
    const unknown = await runCli(['tasks'])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain("unknown command 'tasks'")
    const option = await runCli(['task', 'status', '1', '--bogus'])
    expect(option.code).toBe(2)
    expect(option.stderr).toContain("unknown option '--bogus'")
  })

  it('exits 2 naming the invalid field, before sending anything', async () => {
    const { key } = await newAccount()
    const { code, stderr, stdout } = await runCli(
      [
        ...space.globals,
        'task',
        'submit',
        '--source',
        String(sourceId),
        '--input',
        anyCid,
        '--max-payment',
        'lots',
      ],
      { env: { GRIDFORGE_PRIVATE_KEY: key } },
    )
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr).toContain(
      "error: submitTask: invalid `maxPayment`: 'lots' is not a decimal amount like '1.5'",
    )
    expect(stderr).not.toContain('    at ') // no stack trace
  })

  it('exits 2 with --json and the fields in one JSON document', async () => {
    const { key } = await newAccount()
    const { code, stdout } = await runCli(
      [
        ...space.globals,
        '--json',
        'task',
        'submit',
        '--source',
        String(sourceId),
        '--input',
        'nope',
        '--max-payment',
        '1',
      ],
      { env: { GRIDFORGE_PRIVATE_KEY: key } },
    )
    expect(code).toBe(2)
    const document = JSON.parse(stdout)
    expect(document.error.exitCode).toBe(2)
    expect(document.error.message).toContain("'nope' is neither a CID nor an existing file or folder")
  })

  it('exits 2 when a write has no key, saying how to configure one', async () => {
    const { code, stderr } = await runCli([...space.globals, 'wallet', 'deposit', '5'])
    expect(code).toBe(2)
    expect(stderr).toContain('no key is configured')
    expect(stderr).toContain('GRIDFORGE_PRIVATE_KEY')
  })

  it('exits 3 on a revert with the error name, arguments and hint', async () => {
    const { key, address } = await newAccount({ grid: '0' })
    const { code, stderr } = await runCli(
      [
        ...space.globals,
        'task',
        'submit',
        '--source',
        String(sourceId),
        '--input',
        anyCid,
        '--max-payment',
        '5',
      ],
      { env: { GRIDFORGE_PRIVATE_KEY: key } },
    )
    expect(code).toBe(3)
    expect(stderr).toContain('submitTask reverted with TaskMarketInsufficientBalance')
    expect(stderr).toContain('contract error: TaskMarketInsufficientBalance')
    expect(stderr).toContain(`arguments: ["${address}", 0, 5000000000000000000]`)
    expect(stderr).toContain(
      'hint: balance 0 GRID < 5 GRID needed: deposit, or approve the market to pull the rest',
    )
  })

  it('prints a revert as JSON with --json', async () => {
    const { key } = await newAccount({ grid: '0' })
    const { code, stdout } = await runCli([...space.globals, '--json', 'wallet', 'withdraw', '1'], {
      env: { GRIDFORGE_PRIVATE_KEY: key },
    })
    expect(code).toBe(3)
    const { error } = JSON.parse(stdout)
    expect(error.name).toBe('ContractRevertedError')
    expect(error.errorName).toMatch(/^TaskMarket/)
    expect(error.exitCode).toBe(3)
  })

  it('exits 6 when the RPC node is unreachable', async () => {
    const { code, stderr } = await runCli([
      '--rpc',
      'http://127.0.0.1:9',
      '--store',
      space.store,
      'task',
      'status',
      '1',
    ])
    expect(code).toBe(6)
    expect(stderr).toContain('error: cannot reach the RPC node at http://127.0.0.1:9')
    expect(stderr).toContain('--rpc')
  })

  it("refuses a --chain that is not the node's", async () => {
    const { code, stderr } = await runCli([...space.globals, '--chain', '1', 'task', 'status', '1'])
    expect(code).toBe(2)
    expect(stderr).toMatch(/--chain says chain 1, but the node at http:\/\/127\.0\.0\.1:\d+ is chain 31337/)
  })

  it('says how to pass a deployment file that cannot be read', async () => {
    const { code, stderr } = await runCli([
      '--deployment',
      '/nonexistent/deployment.json',
      'task',
      'status',
      '1',
    ])
    expect(code).toBe(2)
    expect(stderr).toContain('--deployment: cannot read /nonexistent/deployment.json (ENOENT)')
  })

  it('never prints the key: not in reverts, stack traces or --json', async () => {
    const { key } = await newAccount({ grid: '0' })
    for (const args of [
      ['task', 'submit', '--source', String(sourceId), '--input', anyCid, '--max-payment', '5'],
      ['--json', 'wallet', 'withdraw', '1'],
      ['wallet', 'address'],
    ]) {
      const { stdout, stderr } = await runCli([...space.globals, ...args], {
        env: { GRIDFORGE_PRIVATE_KEY: key, GRIDFORGE_DEBUG: '1' },
      })
      expect(`${stdout}${stderr}`.toLowerCase()).not.toContain(bareKey(key))
    }
  })

  it('never prints a malformed key either', async () => {
    const { key } = await newAccount({ grid: '0' })
    const broken = `${key}zz`
    const { code, stdout, stderr } = await runCli([...space.globals, 'wallet', 'deposit', '1'], {
      env: { GRIDFORGE_PRIVATE_KEY: broken, GRIDFORGE_DEBUG: '1' },
    })
    expect(code).toBe(2)
    expect(stderr).toContain('GRIDFORGE_PRIVATE_KEY is not a private key')
    expect(`${stdout}${stderr}`.toLowerCase()).not.toContain(bareKey(key))
  })
})
