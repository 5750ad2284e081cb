import { hardwareHash, receiptSchema } from '@gridforge/sdk'
import { describe, expect, test } from 'vitest'
import { capabilitiesOf, offeredGpus } from './capabilities.js'
import { UnknownGpuError } from './errors.js'
import type { HostReport } from './HostReport.js'
import { queryNvidia } from './nvidiaSmi.js'
import { receiptHardwareOf } from './receiptHardware.js'
import { hostReport, nvidiaSmiFixture } from './testing.js'

const hostWith = async (name: string): Promise<HostReport> =>
  hostReport({ nvidia: await queryNvidia({ exec: nvidiaSmiFixture(name) }) })

describe('capabilitiesOf', () => {
  test.each([
    ['rtx-4090', { gpuCount: 1, vramMiB: 24564, computeCapability: 89 }],
    ['h100-sxm-8x', { gpuCount: 8, vramMiB: 81559, computeCapability: 90 }],
    // Mixed: the smallest memory and the oldest architecture (a task may land on either).
    ['mixed-l4-t4', { gpuCount: 2, vramMiB: 15360, computeCapability: 75 }],
    // GPU 0 has MIG on: only GPU 1 is offered.
    ['a100-mig', { gpuCount: 1, vramMiB: 40960, computeCapability: 80 }],
    ['absent', { gpuCount: 0, vramMiB: 0, computeCapability: 0 }],
    ['driver-not-loaded', { gpuCount: 0, vramMiB: 0, computeCapability: 0 }],
    ['version-mismatch', { gpuCount: 0, vramMiB: 0, computeCapability: 0 }],
    ['garbled', { gpuCount: 0, vramMiB: 0, computeCapability: 0 }],
  ])('%s → %o', async (name, gpus) => {
    expect(capabilitiesOf(await hostWith(name))).toEqual({ ...gpus, cpuCores: 32, memoryMiB: 64_000 })
  })

  test('every GPU in MIG mode: none offered', async () => {
    const report = await hostWith('a100-mig')
    const gpus = report.nvidia.gpus.map((gpu) => ({ ...gpu, migEnabled: true }))
    const allMig = hostReport({ nvidia: { status: 'ok', gpus, driver: '525.85.12', cuda: '12.0' } })
    expect(offeredGpus(allMig)).toEqual([])
    expect(capabilitiesOf(allMig)).toMatchObject({ gpuCount: 0, vramMiB: 0, computeCapability: 0 })
  })

  test('clamped to what the registry stores', () => {
    expect(capabilitiesOf(hostReport({ cpu: { model: '', cores: 0 }, memoryMiB: 0 }))).toMatchObject({
      cpuCores: 1,
      memoryMiB: 1,
    })
    expect(
      capabilitiesOf(hostReport({ cpu: { model: '', cores: 70_000 }, memoryMiB: 2 ** 40 })),
    ).toMatchObject({
      cpuCores: 65_535,
      memoryMiB: 2 ** 32 - 1,
    })
  })
})

describe('receiptHardwareOf', () => {
  const hardwareSchema = receiptSchema.shape.hardware

  test('8× H100: all offered GPUs, CPU, memory, driver and CUDA; valid for the receipt schema', async () => {
    const hardware = receiptHardwareOf(await hostWith('h100-sxm-8x'))
    expect(hardware).toEqual({
      gpus: Array.from({ length: 8 }, () => ({
        name: 'NVIDIA H100 80GB HBM3',
        vramMiB: 81559,
        computeCapability: 90,
      })),
      cpuModel: 'AMD Ryzen 9 7950X 16-Core Processor',
      cpuCores: 32,
      memoryMiB: 64_000,
      driver: '550.127.05',
      cuda: '12.4',
    })
    expect(hardwareSchema.safeParse(hardware).success).toBe(true)
    expect(hardwareHash(hardware)).toMatch(/^0x[0-9a-f]{64}$/)
  })

  test('the GPUs the task ran on, by UUID or index', async () => {
    const report = await hostWith('mixed-l4-t4')
    const t4 = report.nvidia.gpus[1]!
    expect(receiptHardwareOf(report, { gpus: [t4.uuid] }).gpus).toEqual([
      { name: 'Tesla T4', vramMiB: 15360, computeCapability: 75 },
    ])
    expect(receiptHardwareOf(report, { gpus: ['1', '0'] }).gpus.map((gpu) => gpu.name)).toEqual([
      'Tesla T4',
      'NVIDIA L4',
    ])
    expect(receiptHardwareOf(report, { gpus: [] }).gpus).toEqual([])
  })

  test('a GPU that is not offered (MIG on, or unknown) is refused with a typed error', async () => {
    const report = await hostWith('a100-mig')
    const mig = report.nvidia.gpus[0]!
    expect(() => receiptHardwareOf(report, { gpus: [mig.uuid] })).toThrow(UnknownGpuError)
    expect(() => receiptHardwareOf(report, { gpus: ['7'] })).toThrow(/GPU 7 is not one this host offers/)
  })

  test('a CPU host: no GPU, no driver or CUDA fields, empty CPU model left out', async () => {
    const report = hostReport({ nvidia: { status: 'absent', gpus: [] }, cpu: { model: '  ', cores: 4 } })
    const hardware = receiptHardwareOf(report)
    expect(hardware).toEqual({ gpus: [], cpuCores: 4, memoryMiB: 64_000 })
    expect(hardwareSchema.safeParse(hardware).success).toBe(true)
  })
})
