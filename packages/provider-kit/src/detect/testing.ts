// Test helpers (not published: `files` excludes src/**/testing*.ts).
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { CommandResult, CommandRunner } from './commandRunner.js'
import type { DockerReport, GpuInfo, HostReport, NvidiaReport } from './HostReport.js'
import { gpuQueryArgs } from './nvidiaSmi.js'

const fixtures = fileURLToPath(new URL('../../test/fixtures/nvidia-smi/', import.meta.url))

/** The recorded `nvidia-smi` cases under test/fixtures/nvidia-smi (one folder with a case.json each). */
export const nvidiaSmiCases: readonly string[] = readdirSync(fixtures, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(`${fixtures}${entry.name}/case.json`))
  .map((entry) => entry.name)
  .sort()

interface RecordedCommand {
  exitCode: number
  file: string
}

interface RecordedCase {
  description: string
  absent?: boolean
  query?: RecordedCommand
  table?: RecordedCommand
}

/** A recorded case's description and files. */
export function nvidiaSmiCase(name: string): RecordedCase & { read(file: string): string } {
  const recorded = JSON.parse(readFileSync(`${fixtures}${name}/case.json`, 'utf8')) as RecordedCase
  return { ...recorded, read: (file) => readFileSync(`${fixtures}${name}/${file}`, 'utf8') }
}

/**
 * A {@link CommandRunner} that answers `nvidia-smi` the way the recorded case
 * did (the GPU query and the plain table), and records the calls.
 */
export function nvidiaSmiFixture(
  name: string,
): CommandRunner & { calls: { file: string; args: string[] }[] } {
  const recorded = nvidiaSmiCase(name)
  const calls: { file: string; args: string[] }[] = []
  const replay = (command: RecordedCommand | undefined): CommandResult => {
    if (recorded.absent === true || command === undefined) return { status: 'notFound' }
    // nvidia-smi writes its answers and its failures to stdout.
    return { status: 'exited', exitCode: command.exitCode, stdout: recorded.read(command.file), stderr: '' }
  }
  const runner = async (file: string, args: readonly string[]) => {
    calls.push({ file, args: [...args] })
    if (args.length === 0) return replay(recorded.table)
    if (args.join(' ') === gpuQueryArgs.join(' ')) return replay(recorded.query)
    return {
      status: 'exited',
      exitCode: 2,
      stdout: `Invalid combination of input arguments.\n`,
      stderr: '',
    } as const
  }
  return Object.assign(runner, { calls })
}

export const rtx4090: GpuInfo = {
  index: 0,
  uuid: 'GPU-80571715-6852-1950-234e-f5058fc16ddb',
  name: 'NVIDIA GeForce RTX 4090',
  vramMiB: 24564,
  computeCapability: 89,
  driver: '550.54.15',
  migEnabled: false,
}

export const dockerWithNvidia: DockerReport = {
  reachable: true,
  version: '27.3.1',
  apiVersion: '1.47',
  nvidiaRuntime: true,
  runtimes: ['io.containerd.runc.v2', 'nvidia', 'runc'],
}

export const dockerWithoutNvidia: DockerReport = {
  reachable: true,
  version: '20.10.24+dfsg1',
  apiVersion: '1.41',
  nvidiaRuntime: false,
  runtimes: ['io.containerd.runc.v2', 'io.containerd.runtime.v1.linux', 'runc'],
}

export const dockerUnreachable: DockerReport = {
  reachable: false,
  error: 'connect ENOENT /var/run/docker.sock',
  nvidiaRuntime: false,
}

export const nvidiaAbsent: NvidiaReport = { status: 'absent', gpus: [] }

/** A recorded output of the CUDA n-body sample (test/fixtures/nvidia-smi/nbody). */
export function nbodyOutput(name: 'h100-sxm' | 'rtx-4090' | 'insufficient-driver'): string {
  return readFileSync(`${fixtures}nbody/${name}.txt`, 'utf8')
}

/** A host report with one RTX 4090 and Docker with the NVIDIA runtime, changed by `overrides`. */
export function hostReport(overrides: Partial<HostReport> = {}): HostReport {
  return {
    os: {
      platform: 'linux',
      distro: 'Ubuntu',
      release: '22.04.4 LTS',
      kernel: '6.5.0-41-generic',
      arch: 'x64',
    },
    cpu: { model: 'AMD Ryzen 9 7950X 16-Core Processor', cores: 32 },
    memoryMiB: 64_000,
    diskFreeMiB: 800_000,
    nvidia: { status: 'ok', gpus: [rtx4090], driver: '550.54.15', cuda: '12.4' },
    docker: dockerWithNvidia,
    ...overrides,
  }
}
