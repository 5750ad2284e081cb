import type Docker from 'dockerode'
import type { GpuInfo } from '../detect/HostReport.js'
import { demuxLogStream } from '../runtime/docker/demuxLogStream.js'
import { GpuBenchmarkError, NbodyOutputError } from './errors.js'
import { type NbodyResult, parseNbodyOutput } from './nbody.js'

/** NVIDIA's CUDA n-body sample, the image the GPU benchmark runs. */
export const nbodyImage = 'nvcr.io/nvidia/k8s/cuda-sample:nbody-cuda11.7.1'

/** Label on benchmark containers (value: the GPU's UUID), so a leftover one can be found and removed. */
export const hostBenchmarkLabel = 'dev.gridforge.host-benchmark'

/** A container, as much of dockerode's `Container` as the benchmark uses. */
export interface HostBenchContainer {
  id: string
  start(): Promise<unknown>
  wait(): Promise<{ StatusCode: number }>
  logs(options: { stdout: true; stderr: true; follow: false }): Promise<Buffer>
  remove(options: { force: true }): Promise<unknown>
}

/** As much of a dockerode client as the GPU benchmark uses: a `new Docker()` is one; tests pass a recorder. */
export interface HostBenchDocker {
  getImage(name: string): { inspect(): Promise<unknown> }
  pull(repoTag: string): Promise<NodeJS.ReadableStream>
  createContainer(options: Docker.ContainerCreateOptions): Promise<HostBenchContainer>
}

export interface NbodyContainerParameters {
  image: string
  /** The GPU's UUID: the container gets this GPU and no other. */
  uuid: string
  numBodies: number
}

/**
 * The create options of one benchmark container: n-body on the GPU whose UUID
 * is given, through a Docker device request to the NVIDIA driver (what
 * `docker run --gpus device=GPU-…` sends), with no network, no capabilities and
 * no privilege escalation: it is a foreign image.
 *
 * @example
 * import { nbodyContainerOptions, nbodyImage } from '@gridforge/provider-kit'
 *
 * await docker.createContainer(nbodyContainerOptions({ image: nbodyImage, uuid: 'GPU-…', numBodies: 262_144 }))
 */
export function nbodyContainerOptions({
  image,
  uuid,
  numBodies,
}: NbodyContainerParameters): Docker.ContainerCreateOptions {
  return {
    Image: image,
    Cmd: ['nbody', '-gpu', '-benchmark', `-numbodies=${numBodies}`],
    Labels: { [hostBenchmarkLabel]: uuid },
    Tty: false,
    NetworkDisabled: true,
    HostConfig: {
      DeviceRequests: [
        { Driver: 'nvidia', DeviceIDs: [uuid], Capabilities: [['gpu', 'compute', 'utility']] },
      ],
      NetworkMode: 'none',
      CapDrop: ['ALL'],
      SecurityOpt: ['no-new-privileges'],
      Memory: 2 * 2 ** 30,
      PidsLimit: 256,
    },
  }
}

export interface BenchmarkGpusParameters {
  docker: HostBenchDocker
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
 * each GPU's UUID, and returns each GPU's figures. Throws
 * {@link GpuBenchmarkError} (with the cause) when the image is unavailable or
 * a GPU's run fails; containers are removed in every case.
 *
 * @example
 * import Docker from 'dockerode'
 * import { benchmarkGpus } from '@gridforge/provider-kit'
 *
 * const results = await benchmarkGpus({ docker: new Docker(), gpus: host.nvidia.gpus })
 * console.log(results.map((gpu) => `${gpu.name}: ${gpu.gflops} GFLOP/s`))
 */
export async function benchmarkGpus(parameters: BenchmarkGpusParameters): Promise<GpuBenchmarkResult[]> {
  const {
    docker,
    gpus,
    image = nbodyImage,
    numBodies = 262_144,
    timeoutMs = 180_000,
    pull = true,
  } = parameters
  await ensureImage(docker, image, pull)
  const results: GpuBenchmarkResult[] = []
  // One GPU at a time: concurrent runs would share host CPU and PCIe and
  // measure the host's contention rather than each GPU.
  for (const gpu of gpus) {
    const output = await runNbody(
      docker,
      nbodyContainerOptions({ image, uuid: gpu.uuid, numBodies }),
      gpu,
      timeoutMs,
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

async function ensureImage(docker: HostBenchDocker, image: string, pull: boolean): Promise<void> {
  try {
    await docker.getImage(image).inspect()
    return
  } catch (error) {
    if (!pull)
      throw new GpuBenchmarkError(`The benchmark image ${image} is not on this host`, { cause: error })
  }
  try {
    await drainPull(await docker.pull(image))
  } catch (error) {
    throw new GpuBenchmarkError(`The benchmark image ${image} could not be pulled`, { cause: error })
  }
}

/** Reads a pull's progress stream to the end; Docker reports a failed pull as an `error` line in it. */
async function drainPull(stream: NodeJS.ReadableStream): Promise<void> {
  let rest = ''
  for await (const chunk of stream) {
    const lines = (rest + chunk.toString()).split('\n')
    rest = lines.pop() ?? ''
    for (const line of lines) {
      if (line.trim() === '') continue
      const message = JSON.parse(line) as { error?: string }
      if (message.error !== undefined) throw new Error(message.error)
    }
  }
}

async function runNbody(
  docker: HostBenchDocker,
  options: Docker.ContainerCreateOptions,
  gpu: GpuInfo,
  timeoutMs: number,
): Promise<string> {
  const which = `GPU ${gpu.index} (${gpu.name})`
  let container: HostBenchContainer
  try {
    container = await docker.createContainer(options)
  } catch (error) {
    throw new GpuBenchmarkError(`The benchmark container for ${which} could not be created`, {
      gpu: gpu.uuid,
      cause: error,
    })
  }
  let timer: NodeJS.Timeout | undefined
  try {
    try {
      await container.start()
    } catch (error) {
      // e.g. `could not select device driver "nvidia" with capabilities: [[gpu compute utility]]`
      throw new GpuBenchmarkError(`The benchmark container could not start on ${which}`, {
        gpu: gpu.uuid,
        cause: error,
      })
    }
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new GpuBenchmarkError(`n-body did not finish within ${timeoutMs} ms on ${which}`, {
              gpu: gpu.uuid,
            }),
          ),
        timeoutMs,
      )
    })
    const { StatusCode } = await Promise.race([container.wait(), timeout])
    const output = demuxLogs(await container.logs({ stdout: true, stderr: true, follow: false }))
    if (StatusCode !== 0)
      throw new GpuBenchmarkError(`n-body exited with code ${StatusCode} on ${which}`, {
        gpu: gpu.uuid,
        details: output.trim().split(/\r?\n/).slice(-3).join(' / ') || 'no output',
      })
    return output
  } finally {
    clearTimeout(timer)
    // Force: kills it if the timeout fired. A failed removal must not hide the result or the first error.
    await container.remove({ force: true }).catch(() => {})
  }
}

/**
 * The text of a non-TTY container's logs: Docker frames each write with an
 * 8-byte header (stream, 0, 0, 0, big-endian length). Raw text (a TTY
 * container) is returned as is.
 */
export function demuxLogs(buffer: Uint8Array): string {
  const bytes = Buffer.from(buffer.buffer, buffer.byteOffset, buffer.byteLength)
  // A frame header starts with the stream type (0–2) and three zero bytes; anything else is raw TTY text.
  const framed =
    bytes.length >= 8 && (bytes[0] ?? 3) <= 2 && bytes[1] === 0 && bytes[2] === 0 && bytes[3] === 0
  if (bytes.length > 0 && !framed) return bytes.toString('utf8')
  const parts: Uint8Array[] = []
  demuxLogStream((_stream, payload) => parts.push(payload))(bytes)
  return Buffer.concat(parts).toString('utf8')
}
