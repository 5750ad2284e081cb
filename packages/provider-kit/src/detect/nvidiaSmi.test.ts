import { describe, expect, test } from 'vitest'
import { NvidiaSmiOutputError } from './errors.js'
import { gpuQueryArgs, parseCudaVersion, parseGpuQuery, queryNvidia } from './nvidiaSmi.js'
import { nvidiaSmiCase, nvidiaSmiCases, nvidiaSmiFixture } from './testing.js'

const recorded = (name: string, file: string) => nvidiaSmiCase(name).read(file)

describe('parseGpuQuery', () => {
  test('1× RTX 4090: sm_89, no MIG on GeForce ([N/A])', () => {
    expect(parseGpuQuery(recorded('rtx-4090', 'query.csv'))).toEqual([
      {
        index: 0,
        uuid: 'GPU-80571715-6852-1950-234e-f5058fc16ddb',
        name: 'NVIDIA GeForce RTX 4090',
        vramMiB: 24564,
        computeCapability: 89,
        driver: '550.54.15',
        migEnabled: false,
      },
    ])
  })

  test('8× H100 SXM: eight GPUs in index order, sm_90, 81559 MiB each', () => {
    const gpus = parseGpuQuery(recorded('h100-sxm-8x', 'query.csv'))
    expect(gpus.map((gpu) => gpu.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7])
    expect(new Set(gpus.map((gpu) => gpu.uuid)).size).toBe(8)
    for (const gpu of gpus) {
      expect(gpu).toMatchObject({
        name: 'NVIDIA H100 80GB HBM3',
        vramMiB: 81559,
        computeCapability: 90,
        driver: '550.127.05',
        migEnabled: false,
      })
    }
  })

  test('mixed models keep each GPU its own memory and capability', () => {
    expect(
      parseGpuQuery(recorded('mixed-l4-t4', 'query.csv')).map(({ name, vramMiB, computeCapability }) => ({
        name,
        vramMiB,
        computeCapability,
      })),
    ).toEqual([
      { name: 'NVIDIA L4', vramMiB: 23034, computeCapability: 89 },
      { name: 'Tesla T4', vramMiB: 15360, computeCapability: 75 },
    ])
  })

  test('MIG: Enabled sets migEnabled, Disabled does not', () => {
    const gpus = parseGpuQuery(recorded('a100-mig', 'query.csv'))
    expect(gpus.map((gpu) => [gpu.index, gpu.migEnabled, gpu.computeCapability, gpu.vramMiB])).toEqual([
      [0, true, 80, 40960],
      [1, false, 80, 40960],
    ])
  })

  test('compute capability comes from the query, not a table of models (12.0 → 120, a future 10.3 → 103)', () => {
    const line = (name: string, cap: string) =>
      `0, GPU-ed825377-b227-5c88-7773-d5d2b2770edf, ${name}, 97887, ${cap}, 575.57.08, [N/A]`
    expect(parseGpuQuery(line('NVIDIA GeForce RTX 5090', '12.0'))[0]?.computeCapability).toBe(120)
    expect(parseGpuQuery(line('Some GPU Not Released Yet', '10.3'))[0]?.computeCapability).toBe(103)
  })

  test('lines in any order, CRLF and blank lines: sorted by index', () => {
    const csv = recorded('mixed-l4-t4', 'query.csv').trim().split('\n').reverse().join('\r\n\r\n')
    expect(parseGpuQuery(csv).map((gpu) => gpu.index)).toEqual([0, 1])
  })

  test('no output: no GPU', () => {
    expect(parseGpuQuery('')).toEqual([])
  })

  test.each([
    ['a cut line', recorded('garbled', 'query.csv'), 2, 'expected 7 comma-separated fields, got 5'],
    [
      'memory [N/A]',
      '0, GPU-ed825377-b227-5c88-7773-d5d2b2770edf, NVIDIA A100-SXM4-40GB, [N/A], 8.0, 525.85.12, Enabled',
      1,
      'memory.total "[N/A]" is not a number of MiB',
    ],
    [
      'compute_cap [N/A]',
      '0, GPU-ed825377-b227-5c88-7773-d5d2b2770edf, NVIDIA A100-SXM4-40GB, 40960, [N/A], 525.85.12, Enabled',
      1,
      'compute_cap "[N/A]" is not major.minor',
    ],
    [
      'a bad UUID',
      '0, 00000000:01:00.0, NVIDIA GeForce RTX 4090, 24564, 8.9, 550.54.15, [N/A]',
      1,
      'uuid "00000000:01:00.0" is not a GPU-… UUID',
    ],
    [
      'the header row (a query without noheader)',
      'index, uuid, name, memory.total [MiB], compute_cap, driver_version, mig.mode.current',
      1,
      'index "index" is not a number',
    ],
    [
      'an unknown MIG mode',
      '0, GPU-ed825377-b227-5c88-7773-d5d2b2770edf, NVIDIA A100-SXM4-40GB, 40960, 8.0, 525.85.12, Pending',
      1,
      'mig.mode.current "Pending" is not Enabled, Disabled or [N/A]',
    ],
    ['an error message', 'No devices were found', 1, 'expected 7 comma-separated fields, got 1'],
  ])('%s: a typed error naming the line', (_, csv, line, reason) => {
    let thrown: unknown
    try {
      parseGpuQuery(csv)
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(NvidiaSmiOutputError)
    const error = thrown as NvidiaSmiOutputError
    expect(error.line).toBe(line)
    expect(error.shortMessage).toBe(`nvidia-smi printed an unreadable GPU line (line ${line}): ${reason}`)
    expect(error.metaMessages[0]).toMatch(/reinstall the NVIDIA driver/)
  })
})

describe('parseCudaVersion', () => {
  test.each([
    ['rtx-4090', '12.4'],
    ['h100-sxm-8x', '12.4'],
    ['mixed-l4-t4', '12.2'],
    ['a100-mig', '12.0'],
    ['driver-470', '11.4'],
  ])('%s table: CUDA %s', (name, cuda) => {
    expect(parseCudaVersion(recorded(name, 'nvidia-smi.txt'))).toBe(cuda)
  })

  test('no header, or N/A: undefined', () => {
    expect(parseCudaVersion(recorded('driver-not-loaded', 'nvidia-smi.txt'))).toBeUndefined()
    expect(
      parseCudaVersion('| NVIDIA-SMI 550.54.15   Driver Version: 550.54.15   CUDA Version: N/A |'),
    ).toBeUndefined()
  })
})

describe('queryNvidia on every recorded case', () => {
  test('every fixture folder is covered below', () => {
    expect(nvidiaSmiCases).toEqual([
      'a100-mig',
      'absent',
      'driver-470',
      'driver-not-loaded',
      'garbled',
      'h100-sxm-8x',
      'mixed-l4-t4',
      'no-devices',
      'rtx-4090',
      'version-mismatch',
    ])
  })

  test('absent: nvidia-smi not installed', async () => {
    expect(await queryNvidia({ exec: nvidiaSmiFixture('absent') })).toEqual({ status: 'absent', gpus: [] })
  })

  test.each([
    ['rtx-4090', 1, '550.54.15', '12.4'],
    ['h100-sxm-8x', 8, '550.127.05', '12.4'],
    ['mixed-l4-t4', 2, '535.183.01', '12.2'],
    ['a100-mig', 2, '525.85.12', '12.0'],
  ])('%s: ok, %i GPUs, driver %s, CUDA %s', async (name, count, driver, cuda) => {
    const exec = nvidiaSmiFixture(name)
    const report = await queryNvidia({ exec })
    expect(report).toMatchObject({ status: 'ok', driver, cuda })
    expect(report.gpus).toHaveLength(count)
    expect(report.gpus).toEqual(parseGpuQuery(recorded(name, 'query.csv')))
    expect(exec.calls).toEqual([
      { file: 'nvidia-smi', args: [...gpuQueryArgs] },
      { file: 'nvidia-smi', args: [] },
    ])
  })

  test.each([
    ['driver-not-loaded', /^NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver/],
    [
      'version-mismatch',
      /^Failed to initialize NVML: Driver\/library version mismatch\nNVML library version: 550\.107$/,
    ],
    ['no-devices', /^No devices were found$/],
    ['driver-470', /^Field "compute_cap" is not a valid field to query\.$/],
    [
      'garbled',
      /^nvidia-smi printed an unreadable GPU line \(line 2\): expected 7 comma-separated fields, got 5: "1, GPU-7f71/,
    ],
  ])('%s: broken, with what nvidia-smi said', async (name, error) => {
    const report = await queryNvidia({ exec: nvidiaSmiFixture(name) })
    expect(report.status).toBe('broken')
    expect(report.gpus).toEqual([])
    expect(report.status === 'broken' && report.error).toMatch(error)
  })

  test('a command that cannot finish (timeout) is broken, not a crash', async () => {
    const report = await queryNvidia({
      exec: async () => ({ status: 'failed', error: 'nvidia-smi did not finish within 30000 ms (killed)' }),
    })
    expect(report).toEqual({
      status: 'broken',
      gpus: [],
      error: 'nvidia-smi did not finish within 30000 ms (killed)',
    })
  })

  test('a failing exit with no output says the exit code', async () => {
    const report = await queryNvidia({
      exec: async () => ({ status: 'exited', exitCode: 15, stdout: '', stderr: '' }),
    })
    expect(report).toEqual({ status: 'broken', gpus: [], error: 'nvidia-smi exited with code 15' })
  })

  test('the query works but the table fails: GPUs without a CUDA version', async () => {
    const rtx = nvidiaSmiFixture('rtx-4090')
    const report = await queryNvidia({
      exec: async (file, args) =>
        args.length === 0
          ? { status: 'exited', exitCode: 255, stdout: 'Unknown Error\n', stderr: '' }
          : rtx(file, args),
      nvidiaSmi: '/usr/bin/nvidia-smi',
    })
    expect(report).toMatchObject({ status: 'ok', driver: '550.54.15', cuda: undefined })
    expect(rtx.calls[0]?.file).toBe('/usr/bin/nvidia-smi')
  })
})
