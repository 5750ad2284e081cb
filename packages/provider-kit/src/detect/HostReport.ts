/** One GPU as `nvidia-smi` reports it. */
export interface GpuInfo {
  /** nvidia-smi index (`0`, `1`, …). */
  index: number
  /** `GPU-…` UUID: what containers are pinned to. */
  uuid: string
  /** Model, e.g. `NVIDIA H100 80GB HBM3`. */
  name: string
  /** Total memory, MiB. */
  vramMiB: number
  /** Compute capability × 10, e.g. 90 for 9.0 (sm_90). */
  computeCapability: number
  driver: string
  /** Whether MIG mode is enabled on this GPU (its slices are not scheduled separately in v1). */
  migEnabled: boolean
}

/** Everything the provider kit learned about this host. */
export interface HostReport {
  os: { platform: string; distro: string; release: string; kernel: string; arch: string }
  cpu: { model: string; cores: number }
  memoryMiB: number
  /** Free space where the agent keeps its data, MiB (`undefined` when it could not be read). */
  diskFreeMiB: number | undefined
  nvidia: NvidiaReport
  docker: DockerReport
}

export type NvidiaReport =
  /** `nvidia-smi` is not installed: no NVIDIA GPU to offer (or no driver). */
  | { status: 'absent'; gpus: []; driver?: undefined; cuda?: undefined }
  /** `nvidia-smi` runs but fails (driver/library mismatch, no device, …): `error` is its output. */
  | { status: 'broken'; gpus: []; error: string; driver?: undefined; cuda?: undefined }
  | { status: 'ok'; gpus: GpuInfo[]; driver: string; cuda: string | undefined }

export type DockerReport =
  | { reachable: false; error: string; nvidiaRuntime: false }
  | {
      reachable: true
      version: string
      apiVersion: string
      /** Whether the NVIDIA container runtime (or CDI support through it) is registered. */
      nvidiaRuntime: boolean
      runtimes: string[]
    }
