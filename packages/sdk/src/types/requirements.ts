/** What a source or task needs of a provider's host (the contracts' `Requirements`). */
export interface Requirements {
  /** Least number of GPUs. */
  minGpus: number
  /** Least memory per GPU, in MiB. */
  minVramMiB: number
  /** Least CUDA compute capability × 10 (80 = sm_80, Ampere). */
  minComputeCapability: number
  /** Longest run, in seconds. */
  maxRuntimeSec: number
  /** Whether identical inputs give identical outputs, so replicas can be compared. */
  deterministic: boolean
}
