import { mkdtemp, rm, statfs } from 'node:fs/promises'
import * as os from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { dockerClient } from '../runtime/docker/dockerClient.js'
import type { DockerProbe } from '../runtime/docker/probeDocker.js'
import { type DetectHostOptions, detectHost, type SystemInfoSource } from './detectHost.js'
import { queryNvidia } from './nvidiaSmi.js'
import { nvidiaSmiCases, nvidiaSmiFixture } from './testing.js'

const system: SystemInfoSource = {
  cpu: async () => ({ manufacturer: 'Intel', brand: 'Xeon® Platinum 8480+', cores: 224 }),
  mem: async () => ({ total: 2_164_052_185_088 }),
  osInfo: async () => ({
    platform: 'linux',
    distro: 'Ubuntu',
    release: '22.04.4 LTS',
    kernel: '5.15.0-122-generic',
    arch: 'x64',
  }),
}

const dockerWithNvidia: DockerProbe = {
  ping: async () => 'OK',
  version: async () => ({ Version: '27.3.1', ApiVersion: '1.47' }),
  info: async () => ({ Runtimes: { nvidia: { path: 'nvidia-container-runtime' }, runc: { path: 'runc' } } }),
}

const injected = (name: string): DetectHostOptions => ({
  exec: nvidiaSmiFixture(name),
  system,
  docker: dockerWithNvidia,
  diskFree: async () => 1_900_000 * 2 ** 20,
})

let dataDir: string
beforeAll(async () => {
  dataDir = await mkdtemp(join(os.tmpdir(), 'gridforge-detect-'))
})
afterAll(() => rm(dataDir, { recursive: true, force: true }))

describe('detectHost on this machine (systeminformation, statfs, nvidia-smi and Docker for real)', () => {
  test('CPU, memory, OS and disk from the host; no nvidia-smi here; Docker reachable', async () => {
    const report = await detectHost({ dataDir })
    const stats = await statfs(dataDir)
    expect(report.cpu.cores).toBe(os.cpus().length)
    expect(report.cpu.model).not.toBe('')
    expect(report.memoryMiB).toBe(Math.floor(os.totalmem() / 2 ** 20))
    expect(report.os).toMatchObject({ platform: os.platform(), kernel: os.release(), arch: os.arch() })
    // Free space moves as other tests write: within 1 GiB of statfs is the same filesystem.
    expect(Math.abs((report.diskFreeMiB ?? 0) - (stats.bavail * stats.bsize) / 2 ** 20)).toBeLessThan(1024)
    expect(report.nvidia).toEqual({ status: 'absent', gpus: [] })
    expect(report.docker).toMatchObject({
      reachable: true,
      version: (await dockerClient().version()).Version,
    })
    console.log('detectHost on this machine:', JSON.stringify(report))
  })

  test('a data directory that does not exist yet is measured on its nearest existing parent', async () => {
    const report = await detectHost({
      dataDir: join(dataDir, 'not', 'yet', 'created'),
      exec: nvidiaSmiFixture('absent'),
    })
    expect(report.diskFreeMiB).toBeGreaterThan(0)
  })
})

describe('detectHost with injected sources', () => {
  test.each(nvidiaSmiCases)(
    '%s: the NVIDIA part is what queryNvidia reads from the recording',
    async (name) => {
      const report = await detectHost(injected(name))
      expect(report.nvidia).toEqual(await queryNvidia({ exec: nvidiaSmiFixture(name) }))
    },
  )

  test('8× H100 host: the whole report', async () => {
    const report = await detectHost(injected('h100-sxm-8x'))
    expect(report).toEqual({
      os: {
        platform: 'linux',
        distro: 'Ubuntu',
        release: '22.04.4 LTS',
        kernel: '5.15.0-122-generic',
        arch: 'x64',
      },
      cpu: { model: 'Intel Xeon® Platinum 8480+', cores: 224 },
      memoryMiB: 2_063_800,
      diskFreeMiB: 1_900_000,
      nvidia: { status: 'ok', gpus: expect.any(Array), driver: '550.127.05', cuda: '12.4' },
      docker: {
        reachable: true,
        version: '27.3.1',
        apiVersion: '1.47',
        nvidiaRuntime: true,
        runtimes: ['nvidia', 'runc'],
      },
    })
    expect(report.nvidia.gpus).toHaveLength(8)
  })

  test("AMD's brand already names the maker", async () => {
    const report = await detectHost({
      ...injected('rtx-4090'),
      system: {
        ...system,
        cpu: async () => ({ manufacturer: 'AMD', brand: 'AMD Ryzen 9 7950X 16-Core Processor', cores: 32 }),
      },
    })
    expect(report.cpu).toEqual({ model: 'AMD Ryzen 9 7950X 16-Core Processor', cores: 32 })
  })

  test('systeminformation failing falls back to node:os; unreadable disk is undefined', async () => {
    const failing = () => Promise.reject(new Error('not supported on this platform'))
    const report = await detectHost({
      ...injected('absent'),
      system: { cpu: failing, mem: failing, osInfo: failing },
      diskFree: failing,
    })
    expect(report.cpu.cores).toBe(os.availableParallelism())
    expect(report.memoryMiB).toBe(Math.floor(os.totalmem() / 2 ** 20))
    expect(report.os.platform).toBe(os.platform())
    expect(report.diskFreeMiB).toBeUndefined()
  })
})
