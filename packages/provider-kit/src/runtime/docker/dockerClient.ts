import Docker from 'dockerode'

export interface DockerClientParameters {
  /** Unix socket of the engine, e.g. `/run/user/1000/docker.sock` (rootless Docker). */
  socket?: string | undefined
  /** Remote engine URL: `tcp://host:2375`, `https://host:2376` or `ssh://user@host`. */
  host?: string | undefined
}

/**
 * The client of a Docker engine: the one place the provider kit makes one, so
 * the runtime, host detection, the GPU benchmark and image builds all reach the
 * same engine. With neither `socket` nor `host`, dockerode's default:
 * `DOCKER_HOST`, else `/var/run/docker.sock`. (`[runtime] socket` / `host` of
 * the provider config map onto the two parameters.)
 *
 * @example
 * import { dockerClient, dockerRuntime } from '@gridforge/provider-kit'
 *
 * const runtime = dockerRuntime({ docker: dockerClient({ host: 'ssh://gpu@10.0.0.7' }) })
 */
export function dockerClient({ socket, host }: DockerClientParameters = {}): Docker {
  if (socket !== undefined) return new Docker({ socketPath: socket })
  if (host === undefined) return new Docker()
  const url = new URL(host)
  const protocol = url.protocol === 'https:' ? 'https' : url.protocol === 'ssh:' ? 'ssh' : 'http'
  const port =
    url.port === '' ? (protocol === 'https' ? 2376 : protocol === 'ssh' ? 22 : 2375) : Number(url.port)
  return new Docker({
    host: url.hostname,
    port,
    protocol,
    ...(url.username === '' ? {} : { username: decodeURIComponent(url.username) }),
  })
}
