import { NbodyOutputError } from './errors.js'

/** What one run of NVIDIA's CUDA n-body sample (`nbody -benchmark`) measured. */
export interface NbodyResult {
  /** Device name as CUDA reports it, e.g. `NVIDIA H100 80GB HBM3` (`undefined` if not printed). */
  device: string | undefined
  bodies: number
  iterations: number
  totalTimeMs: number
  /** Billions of body-body interactions per second. */
  interactionsPerSecond: number
  /** Single-precision GFLOP/s, counting 20 flops per interaction (the sample's own figure). */
  gflops: number
}

/**
 * Reads the output of `nbody -benchmark`, whose last lines are
 *
 * ```
 * > Compute 9.0 CUDA device: [NVIDIA H100 80GB HBM3]
 * 262144 bodies, total time for 10 iterations: 361.522 ms
 * = 1900.838 billion interactions per second
 * = 38016.761 single-precision GFLOP/s at 20 flops per interaction
 * ```
 *
 * Throws {@link NbodyOutputError} when these lines are missing (a CUDA error,
 * a double-precision run, another program).
 *
 * @example
 * import { parseNbodyOutput } from '@gridforge/provider-kit'
 *
 * parseNbodyOutput(logs).gflops // 38016.761
 */
export function parseNbodyOutput(output: string): NbodyResult {
  const gflops = /^= ([\d.]+) single-precision GFLOP\/s/m.exec(output)
  const run = /^(\d+) bodies, total time for (\d+) iterations: ([\d.]+) ms/m.exec(output)
  const interactions = /^= ([\d.]+) billion interactions per second/m.exec(output)
  if (gflops === null || run === null || interactions === null) throw new NbodyOutputError({ output })
  const device = /^> Compute \d+\.\d+ CUDA device: \[(.+)\]/m.exec(output)
  return {
    device: device?.[1],
    bodies: Number(run[1]),
    iterations: Number(run[2]),
    totalTimeMs: Number(run[3]),
    interactionsPerSecond: Number(interactions[1]),
    gflops: Number(gflops[1]),
  }
}
