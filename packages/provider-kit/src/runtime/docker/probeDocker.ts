import type { DockerReport } from '../../detect/HostReport.js'
import { dockerClient } from './dockerClient.js'

/**
 * The part of a dockerode client that {@link probeDocker} asks the engine
 * with; a {@link dockerClient} is one, and tests pass a fake.
 */
export interface DockerProbe {
  ping(): Promise<unknown>
  version(): Promise<{ Version: string; ApiVersion: string }>
  /** `GET /info`: only `Runtimes` is read. */
  info(): Promise<unknown>
}

export interface ProbeDockerOptions {
  /** Milliseconds to wait for each answer (default 10 000): a wedged engine must not hang detection. */
  timeout?: number | undefined
}

/**
 * Asks the Docker engine whether it answers (`ping`), its version, and which
 * container runtimes it has: `nvidiaRuntime` is true when one of them is
 * NVIDIA's (`nvidia`, or `nvidia-cdi`/`nvidia-legacy` and any runtime whose
 * binary is `nvidia-container-runtime`), which `nvidia-ctk runtime configure
 * --runtime=docker` registers. Never throws: an engine that does not answer is
 * `{ reachable: false, error }`. `detectHost` reports it as `host.docker`.
 *
 * @example
 * import { probeDocker } from '@gridforge/provider-kit'
 *
 * const docker = await probeDocker()
 * if (!docker.reachable) throw new Error(`no Docker engine: ${docker.error}`)
 * console.log(docker.version, docker.nvidiaRuntime)
 */
export async function probeDocker(
  docker: DockerProbe = dockerClient(),
  options: ProbeDockerOptions = {},
): Promise<DockerReport> {
  const { timeout = 10_000 } = options
  try {
    await within(docker.ping(), timeout, 'ping')
    const [version, info] = await Promise.all([
      within(docker.version(), timeout, 'version'),
      within(docker.info(), timeout, 'info'),
    ])
    const runtimes = runtimesOf(info)
    return {
      reachable: true,
      version: version.Version,
      apiVersion: version.ApiVersion,
      nvidiaRuntime: runtimes.some(
        ([name, path]) => name.startsWith('nvidia') || /nvidia-container-runtime/.test(path),
      ),
      runtimes: runtimes.map(([name]) => name).sort(),
    }
  } catch (error) {
    return { reachable: false, error: messageOf(error), nvidiaRuntime: false }
  }
}

/** `[name, path]` of each runtime in `GET /info`'s `Runtimes` map. */
function runtimesOf(info: unknown): [string, string][] {
  if (typeof info !== 'object' || info === null || !('Runtimes' in info)) return []
  const runtimes = info.Runtimes
  if (typeof runtimes !== 'object' || runtimes === null) return []
  return Object.entries(runtimes).map(([name, runtime]): [string, string] => {
    const path =
      typeof runtime === 'object' && runtime !== null && 'path' in runtime ? runtime.path : undefined
    return [name, typeof path === 'string' ? path : '']
  })
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`the Docker engine did not answer ${what} within ${ms} ms`)),
      ms,
    )
    timer.unref()
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message
  return String(error)
}
