import type { Hex } from 'viem'

/**
 * What runs a task's container. The agent only talks to this interface;
 * everything Docker-specific stays in `dockerRuntime.ts` and `docker/` beside
 * it (testcontainers-node's rule): the one engine client, log demuxer, image
 * builder and engine probe the rest of the kit (host detection, the GPU
 * benchmark) goes through. `processRuntime.ts` is the unisolated fallback for
 * machines without a container engine (demos only: it runs the command on the host).
 */
export interface ContainerRuntime extends AsyncDisposable {
  /** `'docker'` or `'process'`. */
  readonly kind: 'docker' | 'process'
  /** False for the process runtime: the command runs on the host, unconfined. */
  readonly isolated: boolean
  /**
   * Makes the image available: uses the local image when its digest matches,
   * pulls `image` (pinned by digest) otherwise, and refuses with
   * {@link ImageDigestMismatchError} unless the image's digest equals `imageDigest`.
   */
  prepareImage(parameters: PrepareImageParameters): Promise<PreparedImage>
  /** Creates, starts and waits for a task's container; see {@link RunSpec}. Never throws for what the container did (timeouts, exit codes, output bombs are outcomes). */
  run(spec: RunSpec): Promise<RunResult>
  /**
   * Containers this runtime created for `owner` (see {@link RunSpec.owner})
   * that still exist, running or stopped: what a crash left behind.
   */
  listTaskContainers(owner: string): Promise<TaskContainer[]>
  /**
   * Waits for a container left by a crash (running or already stopped) and
   * collects it like {@link run} would; the output directory and limits come
   * from `spec`, which must be the spec it was created with.
   */
  attach(containerId: string, spec: RunSpec): Promise<RunResult>
  /** Removes a container (killing it if it runs). Idempotent: a missing container is not an error. */
  remove(containerId: string): Promise<void>
}

export interface PrepareImageParameters {
  /** Image reference pinned by digest: `registry/name[:tag]@sha256:<64 hex>` (source metadata `image`). */
  image: string
  /** The source's on-chain `imageDigest` (bytes32). */
  imageDigest: Hex
  /** Pull when the image is not present locally (default true). */
  pull?: boolean | undefined
  signal?: AbortSignal | undefined
}

export interface PreparedImage {
  /** What to pass as {@link RunSpec.image}: the local image id. */
  ref: string
  /** The digest that matched `imageDigest`. */
  digest: Hex
  /** Set when the image was not verified (the process runtime): say it to the operator. */
  warning?: string | undefined
}

export interface ResourceLimits {
  /** Memory limit, bytes (also the swap limit: no swap). */
  memoryBytes: number
  /** CPU cores, fractions allowed. */
  cpus: number
  /** Most processes/threads in the container. */
  pids: number
  /** Size of the tmpfs mounted at /tmp, bytes. */
  tmpBytes: number
  /**
   * Largest output directory collected, bytes; a container writing more is
   * killed (`outputTooLarge`). Enforced by measuring, within a bounded
   * overshoot: what the task writes in the moments the kill takes (see `watchRun`).
   */
  maxOutputBytes: number
  /** Logs kept, bytes; the rest is dropped and `logsTruncated` is set. */
  maxLogBytes: number
}

/** One task execution. */
export interface RunSpec {
  /** Who owns the container: the agent's id (chain, market, provider). Labelled, so agents sharing a host never touch each other's containers. */
  owner: string
  taskId: bigint
  slot: number
  /** {@link PreparedImage.ref}. */
  image: string
  /** argv replacing the image's ENTRYPOINT and CMD; `undefined`: the image's own. */
  command?: readonly string[] | undefined
  /** Environment, including the `GRIDFORGE_*` variables the agent sets. */
  env: Readonly<Record<string, string>>
  /** Host directory holding the input, mounted read-only at `inputPath`. */
  inputDir: string
  inputPath: string
  /** Empty host directory mounted read-write at `outputPath`; what is in it after the run is the output. */
  outputDir: string
  outputPath: string
  /** GPU device ids (UUIDs or indexes) the container gets, pinned; empty for none. */
  gpus: readonly string[]
  /** `'none'`: no network interface but loopback. `'egress'`: the default bridge. */
  network: 'none' | 'egress'
  limits: ResourceLimits
  /** Hard deadline: the container is killed at this time (`timeout`). */
  deadline: Date
  /** Aborting kills the container (`aborted`). */
  signal?: AbortSignal | undefined
}

/**
 * How a run ended. `exited` with code 0 produces an output; the agent hands in
 * the workload's own failures (a non-zero exit, a command that does not exist,
 * `timeout` at the task's limit, `oom` at the source's memory, `outputTooLarge`)
 * as failure reports, and abandons the rest (see `agent/runFailure.ts`).
 */
export type RunOutcome =
  /** The command exited by itself (any exit code). */
  | 'exited'
  /** Killed at the deadline. */
  | 'timeout'
  /** Killed for writing more than `maxOutputBytes`. */
  | 'outputTooLarge'
  /** Killed by the kernel for exceeding the memory limit. */
  | 'oom'
  /** Killed because the signal aborted. */
  | 'aborted'
  /**
   * The container could not be created or started: the engine's or the host's
   * trouble, or a command that does not exist in the image or is not executable
   * (then `exitCode` says which, as a shell would: 127 or 126).
   */
  | 'failedToStart'

export interface RunResult {
  containerId: string
  outcome: RunOutcome
  /**
   * Exit code of the command (`undefined` when it was killed or never started;
   * a `failedToStart` whose command cannot run: 127 not found, 126 not executable).
   */
  exitCode: number | undefined
  startedAt: Date
  finishedAt: Date
  /** stdout and stderr interleaved as they came, at most `maxLogBytes`. */
  logs: Uint8Array
  logsTruncated: boolean
  /** Why, when the outcome is not `exited`. */
  reason?: string | undefined
}

/** A container a runtime created for a task. */
export interface TaskContainer {
  containerId: string
  owner: string
  taskId: bigint
  slot: number
  running: boolean
}

/** Labels on every task container (Docker labels; the process runtime keeps the same fields). */
export const containerLabels = {
  owner: 'dev.gridforge.owner',
  taskId: 'dev.gridforge.task-id',
  slot: 'dev.gridforge.slot',
} as const
