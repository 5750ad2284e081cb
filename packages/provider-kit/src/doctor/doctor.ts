import { offeredGpus } from '../detect/capabilities.js'
import type { GpuInfo, HostReport } from '../detect/HostReport.js'

export type CheckStatus = 'ok' | 'warn' | 'fail'

/** What a check is about; each appears at most once in a checklist. */
export type CheckId =
  | 'node'
  | 'docker'
  | 'nvidia-driver'
  | 'gpus'
  | 'mig'
  | 'nvidia-runtime'
  | 'cuda'
  | 'disk'
  | 'memory'

/** One line of the preflight checklist. A failed check always says how to fix it. */
export type CheckItem =
  | { id: CheckId; title: string; status: 'ok' | 'warn'; detail: string; fix?: string | undefined }
  | { id: CheckId; title: string; status: 'fail'; detail: string; fix: string }

export interface RunDoctorOptions {
  /** The Node.js version to check (default: `process.versions.node`). */
  nodeVersion?: string | undefined
  /** Oldest Node.js accepted (default `'22.12.0'`, the package's `engines`). */
  minNodeVersion?: string | undefined
  /** The data directory, named in the disk check (default: "the data directory"). */
  dataDir?: string | undefined
  /** Below this much free disk the check fails (default 10 GiB: one CUDA image and its layers). */
  minDiskFreeMiB?: number | undefined
  /** Below this much free disk the check warns (default 50 GiB). */
  recommendedDiskFreeMiB?: number | undefined
  /** Below this much memory the check fails (default 2 GiB). */
  minMemoryMiB?: number | undefined
  /** Below this much memory the check warns (default 8 GiB). */
  recommendedMemoryMiB?: number | undefined
  /** CUDA versions below this warn (default `'12.0'`: most images are built for CUDA 12). */
  minCuda?: string | undefined
}

const gib = 1024

/**
 * The preflight checklist for a host: Node.js version, Docker engine, NVIDIA
 * driver, GPUs (and MIG), the NVIDIA container runtime when there are GPUs,
 * CUDA version, free disk and memory. Each item says what was found and, when
 * it is not `ok`, how to fix it; a `fail` means the agent would not work (or
 * would take tasks it cannot run). Checks that do not apply are left out (no
 * container runtime check without GPUs, no CUDA check without a driver).
 *
 * @example
 * import { detectHost, formatChecklist, runDoctor } from '@gridforge/provider-kit'
 *
 * const checks = runDoctor(await detectHost(), { dataDir: '/var/lib/gridforge' })
 * console.log(formatChecklist(checks))
 * process.exitCode = checks.some((check) => check.status === 'fail') ? 1 : 0
 */
export function runDoctor(report: HostReport, options: RunDoctorOptions = {}): CheckItem[] {
  const checks: CheckItem[] = [
    nodeCheck(options),
    dockerCheck(report),
    driverCheck(report),
    gpusCheck(report),
  ]
  const mig = migCheck(report)
  if (mig !== undefined) checks.push(mig)
  if (report.nvidia.gpus.length > 0) checks.push(nvidiaRuntimeCheck(report))
  if (report.nvidia.status === 'ok') checks.push(cudaCheck(report.nvidia.cuda, options.minCuda ?? '12.0'))
  checks.push(diskCheck(report, options), memoryCheck(report, options))
  return checks
}

function nodeCheck(options: RunDoctorOptions): CheckItem {
  const version = options.nodeVersion ?? process.versions.node
  const min = options.minNodeVersion ?? '22.12.0'
  if (compareVersions(version, min) >= 0)
    return { id: 'node', title: `Node.js ${version}`, status: 'ok', detail: '' }
  return {
    id: 'node',
    title: `Node.js ${version} is too old`,
    status: 'fail',
    detail: `the provider kit needs Node.js ${min} or later`,
    fix: 'install Node.js 22 LTS or later (https://nodejs.org/en/download, or: nvm install 22)',
  }
}

function dockerCheck(report: HostReport): CheckItem {
  const { docker } = report
  if (docker.reachable)
    return {
      id: 'docker',
      title: `Docker engine ${docker.version} reachable`,
      status: 'ok',
      detail: `API ${docker.apiVersion}; runtimes: ${docker.runtimes.join(', ') || 'none listed'}`,
    }
  const denied = /EACCES|permission denied/i.test(docker.error)
  return {
    id: 'docker',
    title: denied ? 'Docker engine not reachable: permission denied' : 'Docker engine not reachable',
    status: 'fail',
    detail: `${docker.error} (tasks run in containers: without Docker the agent cannot isolate them)`,
    fix: denied
      ? 'let this user use Docker: sudo usermod -aG docker $USER, then log out and in again (or run the agent as a user in the docker group)'
      : 'install Docker Engine (https://docs.docker.com/engine/install/) and start it: sudo systemctl enable --now docker (or set DOCKER_HOST to a running engine)',
  }
}

/** Why `nvidia-smi` fails, from what it printed, and what to do about it. */
function driverFailure(error: string): { title: string; fix: string } {
  if (/version mismatch/i.test(error))
    return {
      title: 'NVIDIA driver/library version mismatch',
      fix: 'reboot: the driver was upgraded and the loaded kernel module is still the old one (or unload and reload it: sudo rmmod nvidia_uvm nvidia_drm nvidia_modeset nvidia && sudo modprobe nvidia)',
    }
  if (/couldn't communicate with the NVIDIA driver|driver not loaded/i.test(error))
    return {
      title: 'NVIDIA driver not loaded',
      fix: 'load the kernel module: check `lsmod | grep nvidia` and `dmesg | grep -i nvidia`; reinstall the driver for the running kernel (DKMS), or enroll its key / disable Secure Boot, then reboot',
    }
  if (/No devices were found/i.test(error))
    return {
      title: 'NVIDIA driver sees no GPU',
      fix: 'check that the GPU is visible (`lspci | grep -i nvidia`); in a VM or container, pass the GPU through; reseat or power the card',
    }
  if (/is not a valid field to query/i.test(error))
    return {
      title: 'NVIDIA driver too old',
      fix: 'upgrade the NVIDIA driver to 525 or later (it reports compute capability and runs CUDA 12 images): https://docs.nvidia.com/datacenter/tesla/driver-installation-guide/',
    }
  return {
    title: 'NVIDIA driver not working',
    fix: 'run `nvidia-smi` and fix what it reports; reinstall the NVIDIA driver and reboot if its output is garbled',
  }
}

function driverCheck(report: HostReport): CheckItem {
  const { nvidia } = report
  if (nvidia.status === 'ok')
    return { id: 'nvidia-driver', title: `NVIDIA driver ${nvidia.driver}`, status: 'ok', detail: '' }
  if (nvidia.status === 'absent')
    return {
      id: 'nvidia-driver',
      title: 'NVIDIA driver not installed (nvidia-smi not found)',
      status: 'warn',
      detail: 'this host can take CPU tasks only',
      fix: 'to offer GPUs, install the NVIDIA driver (https://docs.nvidia.com/datacenter/tesla/driver-installation-guide/) and reboot',
    }
  const { title, fix } = driverFailure(nvidia.error)
  return {
    id: 'nvidia-driver',
    title,
    status: 'fail',
    detail: `nvidia-smi: ${firstLines(nvidia.error)}`,
    fix,
  }
}

function gpusCheck(report: HostReport): CheckItem {
  const { nvidia } = report
  if (nvidia.status === 'absent')
    return {
      id: 'gpus',
      title: 'No NVIDIA GPU',
      status: 'warn',
      detail: 'only tasks that need no GPU will be taken',
    }
  if (nvidia.status === 'broken')
    return {
      id: 'gpus',
      title: 'GPUs unknown',
      status: 'warn',
      detail: 'nvidia-smi fails, so no GPU is offered',
      fix: 'fix the NVIDIA driver (above), then run doctor again',
    }
  const offered = offeredGpus(report)
  const title = `${nvidia.gpus.length} GPU${nvidia.gpus.length === 1 ? '' : 's'}: ${describeGpus(nvidia.gpus)}`
  if (offered.length === 0)
    return {
      id: 'gpus',
      title,
      status: 'fail',
      detail: 'every GPU is in MIG mode, so none is offered',
      fix: 'turn MIG off on the GPUs to offer (see the MIG line)',
    }
  return {
    id: 'gpus',
    title,
    status: 'ok',
    detail: `${offered.length} offered to tasks`,
  }
}

function migCheck(report: HostReport): CheckItem | undefined {
  const mig = report.nvidia.gpus.filter((gpu) => gpu.migEnabled)
  if (mig.length === 0) return undefined
  const indexes = mig.map((gpu) => gpu.index).join(',')
  return {
    id: 'mig',
    title: `MIG enabled on GPU ${indexes}: not offered`,
    status: 'warn',
    detail:
      'a container pinned to a MIG GPU gets one slice, not the memory the GPU reports; MIG GPUs are left out of the capabilities',
    fix: `to offer them whole: sudo nvidia-smi -i ${indexes} -mig 0 (stop what runs on them first; a GPU reset or a reboot may be needed)`,
  }
}

function nvidiaRuntimeCheck(report: HostReport): CheckItem {
  const { docker } = report
  if (!docker.reachable)
    return {
      id: 'nvidia-runtime',
      title: 'NVIDIA container runtime not checked',
      status: 'warn',
      detail: 'Docker is not reachable',
      fix: 'fix Docker (above), then run doctor again',
    }
  if (docker.nvidiaRuntime)
    return {
      id: 'nvidia-runtime',
      title: 'NVIDIA container runtime registered',
      status: 'ok',
      detail: 'containers can be given GPUs',
    }
  return {
    id: 'nvidia-runtime',
    title: 'NVIDIA container runtime missing',
    status: 'fail',
    detail: `Docker lists no nvidia runtime (runtimes: ${docker.runtimes.join(', ') || 'none'}): containers cannot be given the GPUs`,
    fix: 'install nvidia-container-toolkit, then: nvidia-ctk runtime configure --runtime=docker && systemctl restart docker',
  }
}

function cudaCheck(cuda: string | undefined, minCuda: string): CheckItem {
  if (cuda === undefined)
    return {
      id: 'cuda',
      title: 'CUDA version unknown',
      status: 'warn',
      detail: 'nvidia-smi printed no "CUDA Version"',
      fix: 'run `nvidia-smi`; upgrade the NVIDIA driver if its header shows no CUDA version',
    }
  if (compareVersions(cuda, minCuda) >= 0)
    return { id: 'cuda', title: `CUDA ${cuda}`, status: 'ok', detail: 'the newest CUDA this driver runs' }
  return {
    id: 'cuda',
    title: `CUDA ${cuda} is older than ${minCuda}`,
    status: 'warn',
    detail: `images built for CUDA ${minCuda} or later will not start on this driver`,
    fix: 'upgrade the NVIDIA driver (525.60.13 or later runs every CUDA 12 image)',
  }
}

function diskCheck(report: HostReport, options: RunDoctorOptions): CheckItem {
  const where = options.dataDir ?? 'the data directory'
  const min = options.minDiskFreeMiB ?? 10 * gib
  const recommended = options.recommendedDiskFreeMiB ?? 50 * gib
  const free = report.diskFreeMiB
  if (free === undefined)
    return {
      id: 'disk',
      title: 'Free disk space unknown',
      status: 'warn',
      detail: `could not read the free space of ${where}`,
      fix: `check that ${where} (or its parent) exists and is readable`,
    }
  const title = `${formatMiB(free)} free for ${where}`
  const fix = `free space (docker system prune removes unused images and stopped containers) or use a data directory on a larger disk`
  if (free < min)
    return {
      id: 'disk',
      title,
      status: 'fail',
      detail: `at least ${formatMiB(min)} is needed for inputs, outputs and images`,
      fix,
    }
  if (free < recommended)
    return {
      id: 'disk',
      title,
      status: 'warn',
      detail: `${formatMiB(recommended)} or more is recommended: CUDA images take several GiB each`,
      fix,
    }
  return { id: 'disk', title, status: 'ok', detail: '' }
}

function memoryCheck(report: HostReport, options: RunDoctorOptions): CheckItem {
  const memory = report.memoryMiB
  const min = options.minMemoryMiB ?? 2 * gib
  const recommended = options.recommendedMemoryMiB ?? 8 * gib
  const vram = offeredGpus(report).reduce((sum, gpu) => sum + gpu.vramMiB, 0)
  const title = `${formatMiB(memory)} memory`
  const fix = 'add memory, or run the agent on a larger host'
  if (memory < min)
    return { id: 'memory', title, status: 'fail', detail: `at least ${formatMiB(min)} is needed`, fix }
  if (memory < recommended)
    return {
      id: 'memory',
      title,
      status: 'warn',
      detail: `${formatMiB(recommended)} or more is recommended`,
      fix,
    }
  // Frameworks stage data in pinned host memory: less RAM than VRAM starves GPU tasks.
  if (memory < vram)
    return {
      id: 'memory',
      title,
      status: 'warn',
      detail: `less than the GPUs' ${formatMiB(vram)}: GPU tasks that stage data in host memory may run out`,
      fix,
    }
  return { id: 'memory', title, status: 'ok', detail: '' }
}

/** `8× NVIDIA H100 80GB HBM3 (81559 MiB, sm_90)`; mixed models are listed in order. */
function describeGpus(gpus: readonly GpuInfo[]): string {
  const groups: { key: string; count: number }[] = []
  for (const gpu of gpus) {
    const key = `${gpu.name} (${gpu.vramMiB} MiB, sm_${gpu.computeCapability})`
    const last = groups.at(-1)
    if (last?.key === key) last.count++
    else groups.push({ key, count: 1 })
  }
  return groups.map(({ key, count }) => (count === 1 ? key : `${count}× ${key}`)).join(', ')
}

function formatMiB(mib: number): string {
  if (mib < gib) return `${mib} MiB`
  // Rounded down: a checklist must not promise space or memory the host does not have.
  if (mib < 10 * gib) return `${(Math.floor((mib / gib) * 10) / 10).toFixed(1)} GiB`
  return `${Math.floor(mib / gib)} GiB`
}

function firstLines(text: string): string {
  return text.trim().split(/\r?\n/).filter(Boolean).slice(0, 2).join(' / ')
}

/** Compares dotted versions numerically (`22.9.0` < `22.12.0`); missing parts count as 0. */
function compareVersions(a: string, b: string): number {
  const parse = (version: string) =>
    version
      .replace(/^v/, '')
      .split(/[.+-]/)
      .map((part) => Number.parseInt(part, 10) || 0)
  const [x, y] = [parse(a), parse(b)]
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const difference = (x[i] ?? 0) - (y[i] ?? 0)
    if (difference !== 0) return difference
  }
  return 0
}
