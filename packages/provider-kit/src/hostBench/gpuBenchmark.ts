import type { GpuInfo } from '../detect/HostReport.js'
import { ImageUnavailableError } from '../errors.js'
import type { OneOffRunResult, OneOffRunSpec } from '../runtime/docker/runOneOff.js'
import type { DockerRuntime } from '../runtime/dockerRuntime.js'
import { GpuBenchmarkError, NbodyOutputError } from './errors.js'
import { type NbodyResult, parseNbodyOutput } from './nbody.js'

/** NVIDIA's CUDA n-body sample, the image the GPU benchmark runs. */
export const nbodyImage = 'nvcr.io/nvidia/k8s/cuda-sample:nbody-cuda11.7.1'

/** Label on benchmark containers (value: the GPU's UUID), so a leftover one can be found and removed. */
export const hostBenchmarkLabel = 'dev.gridforge.host-benchmark'

export interface NbodyRunParameters {
  image: string
  /** The GPU's UUID: the container gets this GPU and no other. */
  uuid: string
  numBodies: number
  timeoutMs: number
  pull: boolean
}

/**
 * The one-off run of the benchmark on one GPU: n-body on the GPU whose UUID
 * is given (a device request to the NVIDIA driver), with no network, no
 * capabilities and no privilege escalation (the Docker runtime's one-off
 * defaults: it is a foreign image), 2 GiB of memory and 256 processes.
 *
 * @example
 * const result = await dockerRuntime().runOneOff(nbodyRun({ image: nbodyImage, uuid: 'GPU-…', numBodies: 262_144, timeoutMs: 180_000, pull: true }))
 */
export function nbodyRun({ image, uuid, numBodies, timeoutMs, pull }: NbodyRunParameters): OneOffRunSpec {
  return {
    image,
    pull,
    command: ['nbody', '-gpu', '-benchmark', `-numbodies=${numBodies}`],
    gpus: [uuid],
    labels: { [hostBenchmarkLabel]: uuid },
    memoryBytes: 2 * 2 ** 30,
    pids: 256,
    timeoutMs,
  }
}

export interface BenchmarkGpusParameters {
  /** Where the n-body containers run: the Docker runtime (`dockerRuntime()`). */
  runtime: Pick<DockerRuntime, 'runOneOff'>
  gpus: readonly GpuInfo[]
  /** Default {@link nbodyImage}. */
  image?: string | undefined
  /** Bodies simulated (default 262 144: well under a second on an H100, a few on a T4). */
  numBodies?: number | undefined
  /** Milliseconds one GPU's container may run before it is killed (default 180 000). */
  timeoutMs?: number | undefined
  /** Pull the image when it is not on the host (default true). */
  pull?: boolean | undefined
}

export interface GpuBenchmarkResult extends NbodyResult {
  index: number
  uuid: string
  name: string
}

/**
 * Runs the CUDA n-body sample on each GPU in turn, one container pinned to
 * each GPU's UUID, through the Docker runtime, and returns each GPU's
 * figures. Throws {@link GpuBenchmarkError} (with the cause) when the image
 * is unavailable or a GPU's run fails; the runtime removes each container.
 *
 * @example
 * const results = await benchmarkGpus({ runtime: dockerRuntime(), gpus: host.nvidia.gpus })
 * console.log(results.map((gpu) => `${gpu.name}: ${gpu.gflops} GFLOP/s`))
 */
export async function benchmarkGpus(parameters: BenchmarkGpusParameters): Promise<GpuBenchmarkResult[]> {
  const {
    runtime,
    gpus,
    image = nbodyImage,
    numBodies = 262_144,
    timeoutMs = 180_000,
    pull = true,
  } = parameters
  const results: GpuBenchmarkResult[] = []
  // One GPU at a time: concurrent runs would share host CPU and PCIe and
  // measure the host's contention rather than each GPU.
  for (const gpu of gpus) {
    const output = await runNbody(
      runtime,
      nbodyRun({ image, uuid: gpu.uuid, numBodies, timeoutMs, pull }),
      gpu,
    )
    try {
      results.push({ index: gpu.index, uuid: gpu.uuid, name: gpu.name, ...parseNbodyOutput(output) })
    } catch (error) {
      if (!(error instanceof NbodyOutputError)) throw error
      throw new GpuBenchmarkError(`n-body printed no result on GPU ${gpu.index} (${gpu.name})`, {
        gpu: gpu.uuid,
        cause: error,
      })
    }
  }
  return results
}

/** n-body's stdout on one GPU; every way it can fail is a {@link GpuBenchmarkError}. */
async function runNbody(
  runtime: Pick<DockerRuntime, 'runOneOff'>,
  spec: OneOffRunSpec,
  gpu: GpuInfo,
): Promise<string> {
  const which = `GPU ${gpu.index} (${gpu.name})`
  let result: OneOffRunResult
  try {
    result = await runtime.runOneOff(spec)
  } catch (error) {
    if (error instanceof ImageUnavailableError)
      throw new GpuBenchmarkError(
        spec.pull === false
          ? `The benchmark image ${spec.image} is not on this host`
          : `The benchmark image ${spec.image} could not be pulled`,
        { cause: error },
      )
    throw new GpuBenchmarkError(`The benchmark container for ${which} could not be created`, {
      gpu: gpu.uuid,
      cause: error,
    })
  }
  switch (result.outcome) {
    case 'failedToStart':
      // e.g. `could not select device driver "nvidia" with capabilities: [[gpu compute utility]]`
      throw new GpuBenchmarkError(`The benchmark container could not start on ${which}`, {
        gpu: gpu.uuid,
        details: result.reason,
      })
    case 'timeout':
    case 'aborted':
      throw new GpuBenchmarkError(`n-body did not finish within ${spec.timeoutMs} ms on ${which}`, {
        gpu: gpu.uuid,
        details: result.reason,
      })
    case 'exited':
      if (result.exitCode !== 0)
        throw new GpuBenchmarkError(`n-body exited with code ${result.exitCode} on ${which}`, {
          gpu: gpu.uuid,
          details: result.output.trim().split(/\r?\n/).slice(-3).join(' / ') || 'no output',
        })
      return result.stdout
  }
}
