import { statfs } from 'node:fs/promises'
import * as os from 'node:os'
import { dirname, resolve } from 'node:path'
import * as si from 'systeminformation'
import { type DockerProbe, probeDocker } from '../runtime/docker/probeDocker.js'
import { type CommandRunner, execFileRunner } from './commandRunner.js'
import type { HostReport } from './HostReport.js'
import { queryNvidia } from './nvidiaSmi.js'

/**
 * Where CPU, memory and OS facts come from: the `systeminformation` module by
 * default (only these three calls: the others spawn slow commands).
 */
export interface SystemInfoSource {
  cpu(): Promise<{ manufacturer: string; brand: string; cores: number }>
  mem(): Promise<{ total: number }>
  osInfo(): Promise<{ platform: string; distro: string; release: string; kernel: string; arch: string }>
}

export interface DetectHostOptions {
  /** The agent's data directory: disk space is measured on its filesystem (default: the current directory). */
  dataDir?: string | undefined
  /** Runs `nvidia-smi` (default: {@link execFileRunner}). */
  exec?: CommandRunner | undefined
  /** The `nvidia-smi` executable (default `'nvidia-smi'` from `PATH`). */
  nvidiaSmi?: string | undefined
  /** The Docker engine to probe (default: `dockerClient()`, which honours `DOCKER_HOST`). */
  docker?: DockerProbe | undefined
  /** CPU, memory and OS facts (default: `systeminformation`). */
  system?: SystemInfoSource | undefined
  /** Free bytes on the filesystem holding `path`, `undefined` when unknown (default: `statfs`). */
  diskFree?: ((path: string) => Promise<number | undefined>) | undefined
}

/**
 * Detects what this host offers: OS, CPU, memory, free disk space where the
 * agent keeps its data, NVIDIA GPUs, driver and CUDA version (from `nvidia-smi`),
 * and whether the Docker engine answers and can give containers GPUs. Never
 * throws: what cannot be learned is reported as absent or broken, and
 * `runDoctor` says how to fix it.
 *
 * @example
 * import { detectHost, runDoctor, formatChecklist } from '@gridforge/provider-kit'
 *
 * const host = await detectHost({ dataDir: '/var/lib/gridforge' })
 * console.log(host.nvidia.status, host.nvidia.gpus.map((gpu) => gpu.name))
 * console.log(formatChecklist(runDoctor(host)))
 */
export async function detectHost(options: DetectHostOptions = {}): Promise<HostReport> {
  const {
    dataDir = process.cwd(),
    exec = execFileRunner(),
    nvidiaSmi,
    system = si,
    diskFree = freeBytes,
  } = options
  const [cpu, memoryBytes, osInfo, free, nvidia, dockerReport] = await Promise.all([
    system.cpu().then(
      (cpu) => ({ model: cpuModel(cpu.manufacturer, cpu.brand), cores: cpu.cores }),
      () => ({ model: os.cpus()[0]?.model.trim() ?? '', cores: os.availableParallelism() }),
    ),
    system.mem().then(
      (mem) => mem.total,
      () => os.totalmem(),
    ),
    system.osInfo().then(
      ({ platform, distro, release, kernel, arch }) => ({ platform, distro, release, kernel, arch }),
      () => ({
        platform: os.platform(),
        distro: '',
        release: os.release(),
        kernel: os.release(),
        arch: os.arch(),
      }),
    ),
    diskFree(resolve(dataDir)).catch(() => undefined),
    queryNvidia({ exec, nvidiaSmi }),
    probeDocker(options.docker),
  ])
  return {
    os: osInfo,
    cpu: { model: cpu.model, cores: Math.max(1, cpu.cores) },
    memoryMiB: Math.floor(memoryBytes / 2 ** 20),
    diskFreeMiB: free === undefined ? undefined : Math.floor(free / 2 ** 20),
    nvidia,
    docker: dockerReport,
  }
}

/** `Intel` + `Xeon® Platinum 8480+` → `Intel Xeon® Platinum 8480+`; AMD's brand already says `AMD …`. */
function cpuModel(manufacturer: string, brand: string): string {
  const maker = manufacturer.trim()
  const model = brand.trim()
  if (maker === '' || model.toLowerCase().startsWith(maker.toLowerCase().replace(/®|™/g, ''))) return model
  return `${maker} ${model}`.trim()
}

/**
 * Free bytes for unprivileged users on the filesystem holding `path` (or its
 * nearest existing parent: the data directory may not exist before `init`).
 * `statfs` answers for the path itself; `systeminformation.fsSize()` lists
 * only local mounts (`df -l`) and would need the mount matched by prefix,
 * which misreports a data directory on NFS or a bind mount.
 */
async function freeBytes(path: string): Promise<number | undefined> {
  for (let current = path; ; current = dirname(current)) {
    try {
      const stats = await statfs(current)
      return stats.bavail * stats.bsize
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || dirname(current) === current) return undefined
    }
  }
}
