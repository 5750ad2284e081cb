import { type CommandRunner, execFileRunner } from './commandRunner.js'
import { NvidiaSmiOutputError } from './errors.js'
import type { GpuInfo, NvidiaReport } from './HostReport.js'

/**
 * The fields asked of `nvidia-smi --query-gpu`, in the order {@link parseGpuQuery}
 * reads them. Everything about a GPU comes from here (no list of models is kept:
 * a GPU released tomorrow is described by its own driver).
 */
export const gpuQueryFields = [
  'index',
  'uuid',
  'name',
  'memory.total',
  'compute_cap',
  'driver_version',
  'mig.mode.current',
] as const

/** Arguments of the GPU query: one CSV line per GPU, no header, MiB without the unit. */
export const gpuQueryArgs: readonly string[] = [
  `--query-gpu=${gpuQueryFields.join(',')}`,
  '--format=csv,noheader,nounits',
]

const uuidPattern = /^GPU-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const driverPattern = /^\d+(?:\.\d+)+$/
// `[N/A]`: the GPU has no such property (MIG on a GeForce card); `[Not Supported]`: the driver cannot tell.
const notAvailable = new Set(['[N/A]', '[Not Supported]', 'N/A'])

/**
 * Reads the output of `nvidia-smi` with the GPU query's arguments: one GPU per line,
 * `index, uuid, name, memory.total, compute_cap, driver_version, mig.mode.current`.
 * Compute capability `8.9` becomes `89`; a MIG column of `Enabled` sets
 * `migEnabled`, `Disabled` or `[N/A]` (GPUs without MIG) leaves it false.
 * Throws {@link NvidiaSmiOutputError} on a line it cannot read, rather than
 * guess a GPU's memory or capability.
 *
 * @example
 * import { parseGpuQuery } from '@gridforge/provider-kit'
 *
 * parseGpuQuery('0, GPU-2b1f4c3e-7d6a-4e2b-9f1c-8a3d5e6f7a8b, NVIDIA GeForce RTX 4090, 24564, 8.9, 550.54.15, [N/A]\n')
 * // [{ index: 0, uuid: 'GPU-2b1f…', name: 'NVIDIA GeForce RTX 4090', vramMiB: 24564, computeCapability: 89, driver: '550.54.15', migEnabled: false }]
 */
export function parseGpuQuery(csv: string): GpuInfo[] {
  const gpus: GpuInfo[] = []
  const lines = csv.split(/\r?\n/)
  for (const [i, raw] of lines.entries()) {
    const text = raw.trim()
    if (text === '') continue
    const fail = (reason: string) => new NvidiaSmiOutputError({ line: i + 1, text: raw, reason })
    // GPU names never contain commas; a line with another count is not this query's answer.
    const fields = text.split(',').map((field) => field.trim())
    if (fields.length !== gpuQueryFields.length)
      throw fail(`expected ${gpuQueryFields.length} comma-separated fields, got ${fields.length}`)
    const [index, uuid, name, memory, computeCap, driver, mig] = fields as [
      string,
      string,
      string,
      string,
      string,
      string,
      string,
    ]
    if (!/^\d+$/.test(index)) throw fail(`index ${JSON.stringify(index)} is not a number`)
    if (!uuidPattern.test(uuid)) throw fail(`uuid ${JSON.stringify(uuid)} is not a GPU-… UUID`)
    if (name === '' || notAvailable.has(name)) throw fail('the GPU has no name')
    if (!/^\d+$/.test(memory) || Number(memory) === 0)
      throw fail(`memory.total ${JSON.stringify(memory)} is not a number of MiB`)
    const capability = /^(\d{1,2})\.(\d)$/.exec(computeCap)
    if (capability === null) throw fail(`compute_cap ${JSON.stringify(computeCap)} is not major.minor`)
    if (!driverPattern.test(driver)) throw fail(`driver_version ${JSON.stringify(driver)} is not a version`)
    if (mig !== 'Enabled' && mig !== 'Disabled' && !notAvailable.has(mig))
      throw fail(`mig.mode.current ${JSON.stringify(mig)} is not Enabled, Disabled or [N/A]`)
    gpus.push({
      index: Number(index),
      uuid,
      name,
      vramMiB: Number(memory),
      computeCapability: Number(capability[1]) * 10 + Number(capability[2]),
      driver,
      migEnabled: mig === 'Enabled',
    })
  }
  return gpus.sort((a, b) => a.index - b.index)
}

/**
 * The CUDA version in the header of plain `nvidia-smi` output
 * (`| NVIDIA-SMI 550.54.15   Driver Version: 550.54.15   CUDA Version: 12.4 |`):
 * the newest CUDA the driver runs. `undefined` when absent or `N/A`.
 *
 * @example
 * import { parseCudaVersion } from '@gridforge/provider-kit'
 *
 * parseCudaVersion('| NVIDIA-SMI 550.54.15    Driver Version: 550.54.15    CUDA Version: 12.4 |') // '12.4'
 */
export function parseCudaVersion(text: string): string | undefined {
  return /CUDA Version\s*:\s*(\d+\.\d+(?:\.\d+)?)/.exec(text)?.[1]
}

export interface QueryNvidiaOptions {
  /** How to run commands (default: {@link execFileRunner}). */
  exec?: CommandRunner | undefined
  /** The `nvidia-smi` executable (default `'nvidia-smi'`, looked up in `PATH`). */
  nvidiaSmi?: string | undefined
}

/**
 * Asks `nvidia-smi` for the GPUs (the CSV query) and the CUDA version (the plain
 * table), and says how it went: `absent` when `nvidia-smi` is not installed,
 * `broken` with its output when it fails (no driver loaded, driver/library
 * version mismatch, no device, a field this driver does not know, garbled
 * output), `ok` with the GPUs otherwise. Never throws.
 *
 * @example
 * import { queryNvidia } from '@gridforge/provider-kit'
 *
 * const nvidia = await queryNvidia()
 * if (nvidia.status === 'ok') console.log(nvidia.gpus.length, nvidia.driver, nvidia.cuda)
 */
export async function queryNvidia(options: QueryNvidiaOptions = {}): Promise<NvidiaReport> {
  const { exec = execFileRunner(), nvidiaSmi = 'nvidia-smi' } = options
  // Both at once: the plain table is only read when the query succeeds, and a
  // host with 8 GPUs takes a noticeable time to answer each.
  const [query, table] = await Promise.all([exec(nvidiaSmi, gpuQueryArgs), exec(nvidiaSmi, [])])
  if (query.status === 'notFound') return { status: 'absent', gpus: [] }
  if (query.status === 'failed') return { status: 'broken', gpus: [], error: query.error }
  if (query.exitCode !== 0) {
    // nvidia-smi prints its failures on stdout ("NVIDIA-SMI has failed because…").
    const output = `${query.stdout}\n${query.stderr}`.trim()
    return {
      status: 'broken',
      gpus: [],
      error: output === '' ? `nvidia-smi exited with code ${query.exitCode}` : output,
    }
  }
  let gpus: GpuInfo[]
  try {
    gpus = parseGpuQuery(query.stdout)
  } catch (error) {
    if (!(error instanceof NvidiaSmiOutputError)) throw error
    return { status: 'broken', gpus: [], error: `${error.shortMessage}: ${error.details}` }
  }
  const first = gpus[0]
  // Exit 0 with no line should not happen (no GPU is exit 6, "No devices were found"): treat it alike.
  if (first === undefined) return { status: 'broken', gpus: [], error: 'No devices were found' }
  const cuda = table.status === 'exited' && table.exitCode === 0 ? parseCudaVersion(table.stdout) : undefined
  return { status: 'ok', gpus, driver: first.driver, cuda }
}
