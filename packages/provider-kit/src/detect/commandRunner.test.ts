import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { execFileRunner } from './commandRunner.js'

describe('execFileRunner (real processes)', () => {
  const run = execFileRunner()

  test('exit 0 with its output', async () => {
    expect(await run('sh', ['-c', 'echo out; echo err >&2'])).toEqual({
      status: 'exited',
      exitCode: 0,
      stdout: 'out\n',
      stderr: 'err\n',
    })
  })

  test('a non-zero exit keeps the output (nvidia-smi explains its failures on stdout)', async () => {
    expect(await run('sh', ['-c', 'echo "No devices were found"; exit 6'])).toEqual({
      status: 'exited',
      exitCode: 6,
      stdout: 'No devices were found\n',
      stderr: '',
    })
  })

  test('a missing executable is notFound', async () => {
    expect(await run('nvidia-smi-that-is-not-installed', ['-L'])).toEqual({ status: 'notFound' })
  })

  test('a command that hangs is killed at the timeout', async () => {
    const result = await execFileRunner({ timeout: 200 })('sleep', ['30'])
    expect(result).toEqual({ status: 'failed', error: 'sleep did not finish within 200 ms (killed)' })
  })

  test('a command killed by a signal', async () => {
    expect(await run('sh', ['-c', 'kill -9 $$'])).toEqual({
      status: 'failed',
      error: 'sh was killed by SIGKILL',
    })
  })

  test('an executable that cannot be run (permission denied)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gridforge-runner-'))
    try {
      // No execute bit: even root cannot run it.
      await writeFile(join(dir, 'nvidia-smi'), '#!/bin/sh\necho never\n', { mode: 0o644 })
      const result = await run(join(dir, 'nvidia-smi'), [])
      expect(result.status).toBe('failed')
      expect(result.status === 'failed' && result.error).toMatch(/EACCES/)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
