import { Option } from 'commander'
import { HttpRequestError } from 'viem'
import { describe, expect, it } from 'vitest'
import { UsageError } from './errors.js'
import { createProgram, globalsOf, runProgram } from './program.js'
import { recordingTerminal, reporting } from './testing.js'

function program(terminal: ReturnType<typeof recordingTerminal>['terminal'], action: () => void = () => {}) {
  const built = createProgram(terminal, {
    name: 'demo',
    description: 'A demo CLI.',
    version: '1.2.3',
    options: [new Option('--rpc <url>', 'JSON-RPC endpoint').default('http://127.0.0.1:8545')],
    environmentHelp: 'Environment:\n  DEMO_RPC  default for --rpc',
    exitCodeHelp: 'Exit codes:\n  0  ok',
    examples: ['demo run'],
  })
  built
    .command('run')
    .description('run it')
    .action((_options, command) => {
      globalsOf(command, terminal)
      action()
    })
  return built
}

const run = (argv: string[], action?: () => void, exitCode?: () => number) => {
  const recorded = recordingTerminal()
  const built = program(recorded.terminal, action)
  const code = runProgram(built, argv, {
    terminal: recorded.terminal,
    reporting,
    rpcUrl: () => built.opts<{ rpc: string }>().rpc,
    exitCode,
  })
  return code.then((value) => ({ code: value, stdout: recorded.stdout(), stderr: recorded.stderr() }))
}

describe('createProgram and runProgram', () => {
  it('exits 0 on --help and --version, with the help’s sections in order', async () => {
    const help = await run(['--help'])
    expect(help.code).toBe(0)
    expect(help.stdout).toMatch(/-V, --version[\s\S]*--rpc <url>[\s\S]*--json[\s\S]*-h, --help/)
    expect(help.stdout).toContain(
      'Environment:\n  DEMO_RPC  default for --rpc\n\nExit codes:\n  0  ok\n\nExample:\n  $ demo run\n',
    )
    expect((await run(['--version'])).stdout).toBe('1.2.3\n')
  })

  it('exits 2 on what commander rejects', async () => {
    const unknown = await run(['walk'])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain("unknown command 'walk'")
    expect((await run(['run', '--bogus'])).code).toBe(2)
  })

  it('reports a thrown error with its exit code, as JSON with --json', async () => {
    const failed = await run(['--json', 'run'], () => {
      throw new UsageError('no key configured')
    })
    expect(failed.code).toBe(2)
    expect(failed.stderr).toBe('error: no key configured\n')
    expect(JSON.parse(failed.stdout).error).toMatchObject({ name: 'UsageError', exitCode: 2 })
  })

  it('names the RPC URL in use when the node cannot be reached', async () => {
    const failed = await run(['--rpc', 'http://127.0.0.1:1', 'run'], () => {
      throw new HttpRequestError({ url: 'http://127.0.0.1:1', details: 'fetch failed' })
    })
    expect(failed.code).toBe(6)
    expect(failed.stderr).toContain(
      'error: cannot reach the RPC node at http://127.0.0.1:1\n  Start the node, or pass --rpc <url>.\n',
    )
  })

  it('returns the exit code a command chose without failing', async () => {
    expect((await run(['run'], undefined, () => 8)).code).toBe(8)
    expect((await run(['run'])).code).toBe(0)
  })
})
