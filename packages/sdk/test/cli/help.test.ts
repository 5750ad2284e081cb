import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt, runCli } from './run.js'

const commands = [
  ['source'],
  ['source', 'publish'],
  ['source', 'show'],
  ['source', 'list'],
  ['source', 'init'],
  ['task'],
  ['task', 'submit'],
  ['task', 'quote'],
  ['task', 'status'],
  ['task', 'watch'],
  ['task', 'result'],
  ['task', 'logs'],
  ['task', 'cancel'],
  ['task', 'release'],
  ['task', 'list'],
  ['receipt'],
  ['receipt', 'show'],
  ['receipt', 'verify'],
  ['wallet'],
  ['wallet', 'deposit'],
  ['wallet', 'withdraw'],
  ['wallet', 'balance'],
  ['wallet', 'address'],
  ['wallet', 'keystore'],
  ['wallet', 'keystore', 'create'],
  ['stake'],
  ['stake', 'add'],
  ['stake', 'unbond'],
  ['stake', 'withdraw'],
  ['stake', 'rewards'],
  ['stake', 'claim'],
  ['stats'],
]

describe('gridforge --help', () => {
  beforeAll(() => ensureBuilt(), 180_000)

  it('documents the global options, the environment and the exit codes', async () => {
    const { code, stdout } = await runCli(['--help'])
    expect(code).toBe(0)
    for (const option of [
      '--rpc <url>',
      '--chain <id>',
      '--deployment <file.json>',
      '--store',
      '--keystore',
      '--indexer <url>',
      '--json',
    ]) {
      expect(stdout).toContain(option)
    }
    expect(stdout).toContain('GRIDFORGE_PRIVATE_KEY')
    expect(stdout).toContain('GRIDFORGE_KEYSTORE_PASSWORD')
    expect(stdout).toContain('GRIDFORGE_INDEXER_URL')
    for (const line of [
      '0  ok',
      '1  unexpected error',
      '2  usage or invalid parameters',
      '3  contract revert',
      '4  task failed, expired or was cancelled',
      '5  timeout',
      '6  RPC node unreachable',
      '7  verification failed',
    ]) {
      expect(stdout).toContain(line)
    }
    for (const group of ['source', 'task', 'receipt', 'wallet', 'stake', 'stats'])
      expect(stdout).toMatch(new RegExp(`\\n  ${group} `))
  })

  it.each(commands.map((args) => ({ command: args.join(' '), args })))(
    '$command --help has usage and an example',
    async ({ args }) => {
      const { code, stdout, stderr } = await runCli([...args, '--help'])
      expect(stderr).toBe('')
      expect(code).toBe(0)
      expect(stdout).toContain(`Usage: gridforge ${args.join(' ')}`)
      expect(stdout).toMatch(/Examples?:\n {2}\$ (GRIDFORGE_\w+=\S+ )?gridforge /)
      // Global options are listed on every command.
      expect(stdout).toContain('--rpc <url>')
    },
  )

  it('says that task submit seals outputs unless --no-seal, and that task result opens them', async () => {
    const submit = await runCli(['task', 'submit', '--help'])
    expect(submit.stdout).toContain('--no-seal')
    expect(submit.stdout).toContain('publish the output in the clear')
    expect(submit.stdout.replace(/\s+/g, ' ')).toContain('only you can read it')
    const result = await runCli(['task', 'result', '--help'])
    expect(result.stdout.replace(/\s+/g, ' ')).toContain(
      "a sealed output is opened first with your result key (you must be the task's client)",
    )
  })

  it('prints the version', async () => {
    const { code, stdout } = await runCli(['--version'])
    expect(code).toBe(0)
    expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+/)
  })
})
