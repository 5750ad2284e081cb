import { maxReceiptGpus, type ReceiptHardware } from '@gridforge/sdk'
import { offeredGpus } from './capabilities.js'
import { UnknownGpuError } from './errors.js'
import type { HostReport } from './HostReport.js'

export interface ReceiptHardwareOptions {
  /**
   * The GPUs the task ran on, by UUID or index (`RunSpec.gpus`); default: all
   * the GPUs the host offers. An id that is not an offered GPU throws
   * {@link UnknownGpuError}.
   */
  gpus?: readonly string[] | undefined
}

/**
 * The hardware summary a receipt carries (and its signature covers): the GPUs
 * (model, memory, compute capability), CPU model and cores, memory, NVIDIA
 * driver and CUDA versions. Strings are cut to the receipt's limits.
 *
 * @example
 * import { detectHost, receiptHardwareOf } from '@gridforge/provider-kit'
 *
 * const host = await detectHost()
 * receiptHardwareOf(host, { gpus: ['GPU-5345155e-3e34-ee91-6c64-f020a277764a'] })
 * // { gpus: [{ name: 'NVIDIA H100 80GB HBM3', vramMiB: 81559, computeCapability: 90 }], cpuModel: '…', cpuCores: 224, memoryMiB: 2063812, driver: '550.127.05', cuda: '12.4' }
 */
export function receiptHardwareOf(report: HostReport, options: ReceiptHardwareOptions = {}): ReceiptHardware {
  const offered = offeredGpus(report)
  const gpus =
    options.gpus === undefined
      ? offered
      : options.gpus.map((id) => {
          const gpu = offered.find((gpu) => gpu.uuid === id || String(gpu.index) === id)
          if (gpu === undefined) throw new UnknownGpuError({ id, offered: offered.map((gpu) => gpu.uuid) })
          return gpu
        })
  const cpuModel = report.cpu.model.trim().slice(0, 256)
  return {
    gpus: gpus.slice(0, maxReceiptGpus).map((gpu) => ({
      name: gpu.name.slice(0, 256),
      vramMiB: gpu.vramMiB,
      computeCapability: gpu.computeCapability,
    })),
    ...(cpuModel === '' ? {} : { cpuModel }),
    cpuCores: Math.min(Math.max(report.cpu.cores, 1), 2 ** 16 - 1),
    memoryMiB: Math.min(report.memoryMiB, 2 ** 32 - 1),
    ...(report.nvidia.status === 'ok' ? { driver: report.nvidia.driver.slice(0, 64) } : {}),
    ...(report.nvidia.cuda === undefined ? {} : { cuda: report.nvidia.cuda.slice(0, 64) }),
  }
}
