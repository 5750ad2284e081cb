import { createHash } from 'node:crypto'
import { connect } from 'node:net'
import type Docker from 'dockerode'
import { ContainerEngineError, LeaseServiceNotReadyError } from '../errors.js'
import { type Logger, silentLogger } from '../logger.js'
import { containerLabels } from './ContainerRuntime.js'
import { type Clock, sleep, systemClock } from './clock.js'
import { demuxLogStream } from './docker/demuxLogStream.js'
import { dockerClient } from './docker/dockerClient.js'
import { statusCode } from './docker/engineResponse.js'
import {
  type LeaseContainer,
  type LeaseContainerSpec,
  type LeaseRuntime,
  type LeaseUpstream,
  leaseLabels,
} from './LeaseRuntime.js'

export interface DockerLeaseRuntimeOptions {
  /** Who owns the lease containers: the agent's id, as {@link RunSpec.owner}. Agents sharing a host never touch each other's. */
  owner: string
  /** The engine client (default {@link dockerClient}`()`). */
  docker?: Docker | undefined
  /** How long {@link LeaseRuntime.startLeaseContainer} waits for the service's port (default 60 s). */
  readyTimeoutMs?: number | undefined
  clock?: Clock | undefined
  logger?: Logger | undefined
}

/**
 * The Docker implementation of {@link LeaseRuntime}. Each lease gets its own
 * bridge network (see `leaseNetworkOptions`) and one container on it,
 * sandboxed like a task (see `leaseCreateOptions`).
 *
 * The gateway's upstream is an address only this host can dial:
 * - `network: 'egress'`: the service's port published on 127.0.0.1, on a port
 *   the engine picks;
 * - `network: 'none'`: the container's address on its internal lease network.
 *   Docker publishes no port for a container whose only network is internal,
 *   and the host routes to its own bridges, so the gateway dials the container
 *   directly (as Docker's own port proxy would). This needs rootful Docker on
 *   Linux: rootless Docker and Docker Desktop keep container addresses out of
 *   the host's reach.
 *
 * @example
 * import { dockerLeaseRuntime, startLeaseGateway } from '@gridforge/provider-kit'
 *
 * await using leases = dockerLeaseRuntime({ owner: agentId })
 * const container = await leases.startLeaseContainer({
 *   leaseId: 7n, image: prepared.ref, env: {}, port: 8888, gpus: [], network: 'none',
 *   limits: { memoryBytes: 8 << 30, cpus: 4, pids: 512, tmpBytes: 1 << 30, workdirBytes: 4 << 30 },
 * })
 * gateway.serveLease(7n, container.upstream!)
 */
export function dockerLeaseRuntime(options: DockerLeaseRuntimeOptions): LeaseRuntime {
  const { owner } = options
  const docker = options.docker ?? dockerClient()
  const clock = options.clock ?? systemClock
  const logger = options.logger ?? silentLogger
  const readyTimeoutMs = options.readyTimeoutMs ?? 60_000

  async function ensureNetwork(spec: LeaseContainerSpec): Promise<string> {
    const network = leaseNetworkOptions(owner, spec)
    try {
      await docker.createNetwork(network)
      logger.debug('created lease network', { leaseId: spec.leaseId, network: network.Name })
    } catch (error) {
      // 409: left by an earlier start; it carries our labels (its name holds a hash of owner and lease).
      if (statusCode(error) !== 409)
        throw new ContainerEngineError(`Could not create network ${network.Name}`, { cause: error })
    }
    return network.Name
  }

  async function inspect(containerId: string): Promise<Docker.ContainerInspectInfo | undefined> {
    try {
      return await docker.getContainer(containerId).inspect()
    } catch (error) {
      if (statusCode(error) === 404) return undefined
      throw new ContainerEngineError(`Could not inspect container ${containerId}`, { cause: error })
    }
  }

  function leaseContainerOf(info: Docker.ContainerInspectInfo, reattached: boolean): LeaseContainer {
    const labels = info.Config.Labels ?? {}
    const running = info.State.Running || info.State.Paused || info.State.Restarting
    return {
      containerId: info.Id,
      leaseId: BigInt(labels[leaseLabels.leaseId] ?? '0'),
      running,
      upstream: running ? upstreamOf(info) : undefined,
      reattached,
    }
  }

  async function logTail(containerId: string): Promise<string> {
    try {
      const buffer = (await docker
        .getContainer(containerId)
        .logs({ stdout: true, stderr: true, follow: false, tail: 20 })) as unknown as Uint8Array
      let text = ''
      demuxLogStream((_stream, payload) => {
        text += new TextDecoder().decode(payload)
      })(buffer)
      return text.trim()
    } catch {
      return ''
    }
  }

  async function waitReady(containerId: string, leaseId: bigint, port: number): Promise<LeaseContainer> {
    const deadline = clock.now() + readyTimeoutMs
    for (;;) {
      const info = await inspect(containerId)
      if (info === undefined || !info.State.Running) {
        throw new LeaseServiceNotReadyError({
          leaseId,
          reason: `its container ${info === undefined ? 'is gone' : `exited with code ${info.State.ExitCode}`}`,
          logs: info === undefined ? '' : await logTail(containerId),
        })
      }
      // The container's own address: Docker's port proxy accepts connections
      // on the published port before anything listens behind it.
      const address = containerAddress(info)
      if (address !== undefined && (await accepts({ host: address, port })))
        return leaseContainerOf(info, false)
      if (clock.now() >= deadline) {
        throw new LeaseServiceNotReadyError({
          leaseId,
          reason: `nothing accepted a connection on port ${port} within ${readyTimeoutMs} ms`,
          logs: await logTail(containerId),
        })
      }
      await sleep(clock, 100)
    }
  }

  async function find(leaseId: bigint): Promise<Docker.ContainerInspectInfo | undefined> {
    const name = leaseResourceName(owner, leaseId)
    return inspect(name).then((info) =>
      // A container under our name that is not ours (another tool made it): not this lease's.
      info?.Config.Labels?.[containerLabels.owner] === owner &&
      info.Config.Labels[leaseLabels.leaseId] === leaseId.toString()
        ? info
        : undefined,
    )
  }

  async function stopLeaseContainer(leaseId: bigint): Promise<void> {
    const name = leaseResourceName(owner, leaseId)
    const found = await find(leaseId)
    if (found !== undefined) {
      try {
        await docker.getContainer(found.Id).remove({ force: true, v: true })
      } catch (error) {
        const code = statusCode(error)
        if (code !== 404 && code !== 409)
          throw new ContainerEngineError(`Could not remove container ${found.Id}`, { cause: error })
      }
    }
    try {
      await docker.getNetwork(name).remove()
    } catch (error) {
      if (statusCode(error) !== 404)
        throw new ContainerEngineError(`Could not remove network ${name}`, { cause: error })
    }
  }

  return {
    async startLeaseContainer(spec) {
      const existing = await find(spec.leaseId)
      if (existing?.State.Running) {
        logger.info('lease container already running', { leaseId: spec.leaseId, containerId: existing.Id })
        return leaseContainerOf(existing, true)
      }
      if (existing !== undefined) {
        logger.info('replacing stopped lease container', { leaseId: spec.leaseId, containerId: existing.Id })
        await docker
          .getContainer(existing.Id)
          .remove({ force: true, v: true })
          .catch(() => undefined)
      }
      const network = await ensureNetwork(spec)
      let container: Docker.Container
      try {
        container = await docker.createContainer(leaseCreateOptions(owner, spec, network))
        await container.start()
      } catch (error) {
        throw new ContainerEngineError(`Could not start the container of lease ${spec.leaseId}`, {
          cause: error,
          metaMessages: [
            'Check that the image is on this host (prepareImage) and, for GPUs, that the NVIDIA runtime is installed.',
          ],
        })
      }
      logger.info('started lease container', { leaseId: spec.leaseId, containerId: container.id })
      return waitReady(container.id, spec.leaseId, spec.port)
    },

    async findLeaseContainer(leaseId) {
      const info = await find(leaseId)
      return info === undefined ? undefined : leaseContainerOf(info, true)
    },

    async listLeaseContainers() {
      let containers: Docker.ContainerInfo[]
      try {
        containers = await docker.listContainers({
          all: true,
          filters: { label: [`${containerLabels.owner}=${owner}`, leaseLabels.leaseId] },
        })
      } catch (error) {
        throw new ContainerEngineError('Could not list containers', { cause: error })
      }
      const found: LeaseContainer[] = []
      for (const container of containers) {
        const info = await inspect(container.Id)
        if (info !== undefined) found.push(leaseContainerOf(info, true))
      }
      return found
    },

    stopLeaseContainer,

    async [Symbol.asyncDispose]() {
      // Lease containers outlive the agent on purpose: a restarted agent re-attaches to them.
    },
  }
}

/**
 * The name of a lease's container and of its network: a hash of the owner
 * and the lease, so that two agents on one host never collide and a second
 * start of the same lease finds the first one (the engine refuses a duplicate name).
 */
export function leaseResourceName(owner: string, leaseId: bigint): string {
  return `gridforge-lease-${leaseHash(owner, leaseId)}`
}

function leaseHash(owner: string, leaseId: bigint): string {
  return createHash('sha256').update(`${owner}\n${leaseId}`).digest('hex').slice(0, 12)
}

/**
 * Docker's `CreateNetwork` body for a lease: one bridge per lease, so that
 * leases never share a network segment.
 *
 * - `Internal` (egress `none`): the bridge has no route out; Docker drops
 *   whatever the container sends to any other interface (the internet, the
 *   default bridge, other leases' bridges), and the host still dials the
 *   container (the gateway's upstream).
 * - Every bridge is isolated from the others by Docker's isolation chains, so
 *   with egress too, a lease cannot reach another lease's container.
 * - The host's services bound to 127.0.0.1 are out of reach (the container's
 *   loopback is its own). Services bound to all addresses answer on the
 *   bridge's gateway address too: the bridge is named `gfl<hash>` so that one
 *   host rule closes that for every lease:
 *   `iptables -I INPUT -i gfl+ -m conntrack --ctstate NEW -j DROP`.
 * - `host_binding_ipv4`: a published port binds to 127.0.0.1 even if a port
 *   binding forgot to say so.
 */
export function leaseNetworkOptions(owner: string, spec: LeaseContainerSpec): Docker.NetworkCreateOptions {
  return {
    Name: leaseResourceName(owner, spec.leaseId),
    Driver: 'bridge',
    CheckDuplicate: true,
    Internal: spec.network === 'none',
    Attachable: false,
    Labels: {
      [containerLabels.owner]: owner,
      [leaseLabels.leaseId]: spec.leaseId.toString(),
    },
    Options: {
      // Linux limits interface names to 15 characters: 'gfl' and 12 hex digits.
      'com.docker.network.bridge.name': `gfl${leaseHash(owner, spec.leaseId)}`,
      'com.docker.network.bridge.host_binding_ipv4': '127.0.0.1',
      // One container per bridge; nothing else may join it and talk to it.
      'com.docker.network.bridge.enable_icc': 'false',
      'com.docker.network.bridge.enable_ip_masquerade': spec.network === 'egress' ? 'true' : 'false',
    },
  }
}

/**
 * Docker's `CreateContainer` body for a lease: the task sandbox of
 * `createOptions` (read-only root, every capability dropped,
 * no-new-privileges, memory, CPU and pids limits, capped logs, pinned GPUs),
 * with what an interactive service needs on top.
 */
export function leaseCreateOptions(
  owner: string,
  spec: LeaseContainerSpec,
  network: string,
): Docker.ContainerCreateOptions {
  const { limits } = spec
  const port = `${spec.port}/tcp`
  const workdir = spec.workdir ?? '/workspace'
  return {
    name: leaseResourceName(owner, spec.leaseId),
    Image: spec.image,
    ...(spec.command === undefined ? {} : { Entrypoint: [], Cmd: [...spec.command] }),
    Env: Object.entries(spec.env).map(([name, value]) => `${name}=${value}`),
    WorkingDir: workdir,
    Labels: {
      [containerLabels.owner]: owner,
      [leaseLabels.leaseId]: spec.leaseId.toString(),
      [leaseLabels.port]: spec.port.toString(),
    },
    ExposedPorts: { [port]: {} },
    Tty: false,
    OpenStdin: false,
    HostConfig: {
      NetworkMode: network,
      // Egress networks publish the port on the loopback only, on a port the
      // engine picks (HostPort ''); an internal network publishes nothing.
      ...(spec.network === 'egress'
        ? { PortBindings: { [port]: [{ HostIp: '127.0.0.1', HostPort: '' }] } }
        : {}),
      Memory: limits.memoryBytes,
      MemorySwap: limits.memoryBytes,
      NanoCpus: Math.round(limits.cpus * 1e9),
      PidsLimit: limits.pids,
      ReadonlyRootfs: true,
      Tmpfs: {
        '/tmp': `rw,noexec,nosuid,nodev,size=${limits.tmpBytes}`,
        // The renter runs code anyway (a notebook kernel, a terminal): noexec
        // would only break virtualenvs and `pip install --user`. Mode 1777:
        // the image's user may not be root, and CAP_CHOWN is dropped.
        [workdir]: `rw,exec,nosuid,nodev,mode=1777,size=${limits.workdirBytes}`,
      },
      CapDrop: ['ALL'],
      SecurityOpt: ['no-new-privileges'],
      ...(spec.gpus.length > 0
        ? { DeviceRequests: [{ Driver: 'nvidia', DeviceIDs: [...spec.gpus], Capabilities: [['gpu']] }] }
        : {}),
      LogConfig: { Type: 'json-file', Config: { 'max-size': '10m', 'max-file': '2' } },
      // Never restarted by the engine: a lease container that stops is the
      // agent's to replace (it may have ended).
      RestartPolicy: { Name: 'no', MaximumRetryCount: 0 },
      AutoRemove: false,
      // A notebook's kernels and terminals leave zombies; tini reaps them.
      Init: true,
    },
  }
}

/** The container's address on its lease network. */
function containerAddress(info: Docker.ContainerInspectInfo): string | undefined {
  for (const network of Object.values(info.NetworkSettings.Networks ?? {})) {
    if (network.IPAddress !== '') return network.IPAddress
  }
  return undefined
}

/**
 * What the gateway dials: the port published on 127.0.0.1 when there is
 * one, else the container's address. A port published on any other address
 * is refused (never exposed beyond this host).
 */
function upstreamOf(info: Docker.ContainerInspectInfo): LeaseUpstream | undefined {
  const port = Number(info.Config.Labels?.[leaseLabels.port])
  if (!Number.isInteger(port) || port <= 0) return undefined
  const bindings = info.NetworkSettings.Ports?.[`${port}/tcp`] ?? []
  const published = bindings.find((binding) => binding.HostIp === '127.0.0.1' && binding.HostPort !== '')
  if (published !== undefined) return { host: '127.0.0.1', port: Number(published.HostPort) }
  if (bindings.length > 0) return undefined
  const address = containerAddress(info)
  return address === undefined ? undefined : { host: address, port }
}

/** Whether something accepts a TCP connection at `upstream` (within a second). */
function accepts(upstream: LeaseUpstream): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(upstream.port, upstream.host)
    const done = (ok: boolean) => {
      socket.destroy()
      resolve(ok)
    }
    socket.setTimeout(1_000, () => done(false))
    socket.once('connect', () => done(true))
    socket.once('error', () => done(false))
  })
}
