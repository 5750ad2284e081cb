/**
 * What runs a lease's container: an interactive service (Jupyter, an
 * inference server) that a renter reaches through the lease gateway for as
 * long as the lease is active, instead of a task that runs to its end. Like
 * {@link ContainerRuntime}, the agent and the gateway only see this
 * interface; the Docker implementation is `dockerLeaseRuntime.ts`.
 */
export interface LeaseRuntime extends AsyncDisposable {
  /**
   * Starts the lease's container and waits until its port accepts
   * connections. Idempotent: when the lease already has a running container
   * (the agent restarted), that one is returned as it is, never restarted, so
   * the renter's session and files survive; a stopped one is replaced.
   */
  startLeaseContainer(spec: LeaseContainerSpec): Promise<LeaseContainer>
  /** The lease's container, running or stopped, `undefined` when it has none: what a crash left behind. */
  findLeaseContainer(leaseId: bigint): Promise<LeaseContainer | undefined>
  /** Every lease container of this runtime's owner. */
  listLeaseContainers(): Promise<LeaseContainer[]>
  /** Removes the lease's container (killing it) and its network. Idempotent. */
  stopLeaseContainer(leaseId: bigint): Promise<void>
}

/**
 * Egress of a lease's container, as its source states it:
 * - `'none'`: the container is reachable from the gateway and reaches nothing
 *   (no route out, not the other leases, not the host's loopback services);
 * - `'egress'`: it may also open connections to the internet (still not to
 *   other leases' containers).
 */
export type LeaseNetwork = 'none' | 'egress'

/** Limits of a lease container: the task sandbox's, without the output and log caps of a run. */
export interface LeaseLimits {
  /** Memory limit, bytes (also the swap limit: no swap). The tmpfs mounts count towards it. */
  memoryBytes: number
  /** CPU cores, fractions allowed. */
  cpus: number
  /** Most processes/threads in the container. */
  pids: number
  /** Size of the tmpfs at `/tmp`, bytes. */
  tmpBytes: number
  /** Size of the tmpfs at {@link LeaseContainerSpec.workdir}, bytes. */
  workdirBytes: number
}

/** One lease's container. */
export interface LeaseContainerSpec {
  leaseId: bigint
  /** {@link PreparedImage.ref}: the image, already checked against the source's on-chain digest. */
  image: string
  /** argv replacing the image's ENTRYPOINT and CMD; `undefined`: the image's own. */
  command?: readonly string[] | undefined
  env: Readonly<Record<string, string>>
  /** The TCP port the service listens on inside the container (e.g. 8888 for Jupyter). */
  port: number
  /**
   * A writable, executable directory for the renter's files (default
   * `/workspace`): a tmpfs, since the root file system stays read-only. It
   * lives as long as the container.
   */
  workdir?: string | undefined
  /** GPU device ids (UUIDs or indexes) the container gets, pinned; empty for none. */
  gpus: readonly string[]
  network: LeaseNetwork
  limits: LeaseLimits
}

/** Where the gateway connects to reach a lease's service: always an address on this host. */
export interface LeaseUpstream {
  host: string
  port: number
}

/** A lease's container as the runtime found or started it. */
export interface LeaseContainer {
  containerId: string
  leaseId: bigint
  running: boolean
  /** What the gateway dials (see {@link dockerLeaseRuntime} for which address that is); `undefined` when stopped. */
  upstream: LeaseUpstream | undefined
  /** True when {@link LeaseRuntime.startLeaseContainer} found it already running. */
  reattached: boolean
}

/** Labels on every lease container and lease network, beside {@link containerLabels}`.owner`. */
export const leaseLabels = {
  leaseId: 'dev.gridforge.lease-id',
  /** The container port of the service, so a re-attach knows what to dial. */
  port: 'dev.gridforge.lease-port',
} as const
