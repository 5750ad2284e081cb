import type { Capabilities } from '@gridforge/sdk'
import type { GpuInfo, HostReport } from './HostReport.js'

/**
 * The GPUs this host offers to tasks: every GPU `nvidia-smi` reports, except
 * those in MIG mode.
 *
 * Why MIG GPUs are left out: a container pinned to a MIG-enabled GPU's UUID
 * does not get the whole GPU. CUDA sees one MIG instance at most, with a
 * fraction of the memory and SMs that `nvidia-smi` reports for the parent,
 * so offering it whole would advertise VRAM a task cannot have. Offering its
 * slices (`MIG-…` devices, each its own memory and compute capability) is
 * possible later; in v1 a MIG GPU is not offered and `runDoctor` warns with
 * the command that turns MIG off.
 *
 * @example
 * import { detectHost, offeredGpus } from '@gridforge/provider-kit'
 *
 * const gpuIds = offeredGpus(await detectHost()).map((gpu) => gpu.uuid)
 */
export function offeredGpus(report: HostReport): GpuInfo[] {
  if (report.nvidia.status !== 'ok') return []
  return report.nvidia.gpus.filter((gpu) => !gpu.migEnabled)
}

/**
 * What this host offers, in the form the ProviderRegistry records at
 * registration and compares with a source's requirements: the number of
 * {@link offeredGpus}, the memory of the smallest and the compute capability
 * of the oldest (a task may be placed on any of them), CPU cores and memory.
 * Values are clamped to what the registry stores (255 GPUs, 65 535 cores).
 *
 * @example
 * import { capabilitiesOf, detectHost } from '@gridforge/provider-kit'
 *
 * capabilitiesOf(await detectHost())
 * // { gpuCount: 8, vramMiB: 81559, computeCapability: 90, cpuCores: 224, memoryMiB: 2063812 }
 */
export function capabilitiesOf(report: HostReport): Capabilities {
  const gpus = offeredGpus(report)
  return {
    gpuCount: Math.min(gpus.length, 255),
    vramMiB: gpus.length === 0 ? 0 : Math.min(...gpus.map((gpu) => gpu.vramMiB), 2 ** 32 - 1),
    computeCapability: gpus.length === 0 ? 0 : Math.min(...gpus.map((gpu) => gpu.computeCapability), 255),
    cpuCores: clamp(report.cpu.cores, 1, 2 ** 16 - 1),
    memoryMiB: clamp(report.memoryMiB, 1, 2 ** 32 - 1),
  }
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(Math.max(Math.floor(value), min), max)
}
