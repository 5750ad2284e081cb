/**
 * The terms flags `task submit` and `task quote` share, as commander parses them: what a task pays and
 * requires of the providers who may take it.
 */
export interface TermFlags {
  pricePerSecond?: string | undefined
  replicas?: number | undefined
  minGpus?: number | undefined
  minVramMib?: number | undefined
  minComputeCapability?: number | undefined
  maxRuntime?: string | undefined
  minSuccessBps?: number | undefined
  minCompleted?: number | undefined
  audit?: number | undefined
}

/** The task's terms from the flags given, as `submitTask` and `quoteTask` take them (the others left out). */
export function termsFromFlags(options: TermFlags) {
  const requirements = {
    ...(options.minGpus === undefined ? {} : { minGpus: options.minGpus }),
    ...(options.minVramMib === undefined ? {} : { minVramMiB: options.minVramMib }),
    ...(options.minComputeCapability === undefined
      ? {}
      : { minComputeCapability: options.minComputeCapability }),
    ...(options.maxRuntime === undefined ? {} : { maxRuntimeSec: options.maxRuntime }),
  }
  return {
    ...(options.pricePerSecond === undefined ? {} : { pricePerSecond: options.pricePerSecond }),
    ...(options.replicas === undefined ? {} : { replicas: options.replicas }),
    ...(Object.keys(requirements).length === 0 ? {} : { requirements }),
    ...(options.minSuccessBps === undefined ? {} : { minSuccessBps: options.minSuccessBps }),
    ...(options.minCompleted === undefined ? {} : { minCompleted: options.minCompleted }),
    ...(options.audit === undefined ? {} : { auditBps: options.audit }),
  }
}
