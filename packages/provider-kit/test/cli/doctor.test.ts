import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt, runCli, workspace } from './run.js'

// This host (and CI): a Docker engine, no NVIDIA driver, no GPU.
describe('gridforge-provider doctor', () => {
  beforeAll(() => ensureBuilt())

  it('prints the checklist: Docker OK, no GPU (a warning, not a failure)', async () => {
    const { code, stdout, stderr } = await runCli(['doctor'])
    expect(stderr).toContain('checking this host')
    expect(stdout).toMatch(/^✔ Node\.js \d+\.\d+\.\d+$/m)
    expect(stdout).toMatch(/^✔ Docker engine \S+ reachable$/m)
    expect(stdout).toMatch(/^⚠ NVIDIA driver not installed/m)
    expect(stdout).toMatch(/^⚠ No NVIDIA GPU$/m)
    expect(stdout).toContain('this host is ready to run tasks')
    expect(code).toBe(0)
  })

  it('prints the checks and the host report with --json', async () => {
    const { code, stdout } = await runCli(['doctor', '--json'])
    expect(code).toBe(0)
    const result = JSON.parse(stdout)
    expect(Object.keys(result).sort()).toEqual(['checks', 'host', 'ok'])
    expect(result.ok).toBe(true)
    const byId = Object.fromEntries(
      result.checks.map((check: { id: string; status: string }) => [check.id, check.status]),
    )
    expect(byId).toMatchObject({ node: 'ok', docker: 'ok', 'nvidia-driver': 'warn', gpus: 'warn' })
    for (const check of result.checks)
      expect(Object.keys(check)).toEqual(expect.arrayContaining(['id', 'title', 'status', 'detail']))
    expect(result.host.docker).toMatchObject({ reachable: true })
    expect(result.host.nvidia).toMatchObject({ status: 'absent', gpus: [] })
    expect(result.host.cpu.cores).toBeGreaterThan(0)
  })

  it('exits 8 with a fix when a check fails (the configured engine is not there)', async () => {
    const space = await workspace()
    try {
      await space.write('[runtime]\nsocket = "/nonexistent/docker.sock"\n')
      const { code, stdout } = await runCli(['doctor', '--config', space.config])
      expect(code).toBe(8)
      expect(stdout).toMatch(/^✘ Docker engine not reachable/m)
      expect(stdout).toMatch(/^ {4}fix: /m)
      expect(stdout).toContain('1 check failed')
      const json = await runCli(['doctor', '--json', '--config', space.config])
      expect(json.code).toBe(8)
      expect(JSON.parse(json.stdout)).toMatchObject({ ok: false })
    } finally {
      await space.cleanup()
    }
  })

  it('does not need the engine with the process runtime, and says so', async () => {
    const space = await workspace()
    try {
      await space.write('[runtime]\nkind = "process"\nallowUnisolated = true\n')
      const env = { DOCKER_HOST: 'unix:///nonexistent/docker.sock' }
      const { code, stdout } = await runCli(['doctor', '--config', space.config, '--json'], { env })
      expect(code).toBe(0)
      const docker = JSON.parse(stdout).checks.find((check: { id: string }) => check.id === 'docker')
      expect(docker).toMatchObject({
        status: 'warn',
        title: 'Docker engine not reachable (not needed: [runtime] kind = "process")',
        detail: 'tasks run as plain processes on this host, NOT isolated',
      })
      // Without that config the same host fails the check.
      expect((await runCli(['doctor'], { env })).code).toBe(8)
    } finally {
      await space.cleanup()
    }
  })
})

describe('gridforge-provider bench', () => {
  beforeAll(() => ensureBuilt())

  it('prints the CPU score on a host without GPUs', async () => {
    const { code, stdout } = await runCli(['bench', '--duration', '200ms'])
    expect(code).toBe(0)
    expect(stdout).toMatch(/^CPU score: [\d.]+ MB\/s$/m)
    expect(stdout).toMatch(/SHA-256 on \d+ threads for \d+ ms/)
  })

  it('prints the benchmark as JSON, and refuses a bad duration', async () => {
    const { code, stdout } = await runCli(['bench', '--json', '--duration', '200ms'])
    expect(code).toBe(0)
    const benchmark = JSON.parse(stdout)
    expect(benchmark).toMatchObject({ kind: 'cpu', unit: 'MB/s', details: { algorithm: 'sha256' } })
    expect(benchmark.score).toBeGreaterThan(0)
    const bad = await runCli(['bench', '--duration', 'soon'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain("error: --duration: 'soon' is not an interval")
  })
})
