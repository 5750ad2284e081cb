import { beforeAll, describe, expect, it } from 'vitest'
import packageJson from '../../package.json' with { type: 'json' }
import { ensureBuilt, runCli } from './run.js'

describe('gridforge-provider --help', () => {
  beforeAll(() => ensureBuilt())

  it('lists the commands, the environment and the exit codes', async () => {
    const { code, stdout } = await runCli(['--help'])
    expect(code).toBe(0)
    for (const command of ['doctor', 'init', 'register', 'bench', 'start', 'status']) {
      expect(stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'))
    }
    expect(stdout).toContain('GRIDFORGE_PRIVATE_KEY')
    expect(stdout).toContain('Exit codes:')
    expect(stdout).toContain('8  host not ready')
  })

  it.each(['doctor', 'init', 'register', 'bench', 'start', 'status'])(
    '%s --help has usage and an example',
    async (command) => {
      const { code, stdout } = await runCli([command, '--help'])
      expect(code).toBe(0)
      expect(stdout).toContain(`Usage: gridforge-provider ${command}`)
      expect(stdout).toMatch(/Examples?:\n {2}\$ /)
    },
  )

  it('prints the version, and exits 2 on an unknown command', async () => {
    expect((await runCli(['--version'])).stdout.trim()).toBe(packageJson.version)
    const unknown = await runCli(['serve'])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain("unknown command 'serve'")
  })
})
