import { BaseError } from '@gridforge/sdk'

export type NbodyOutputErrorType = NbodyOutputError & { name: 'NbodyOutputError' }

/** The n-body sample's output has no `single-precision GFLOP/s` line: it failed or is not the sample. */
export class NbodyOutputError extends BaseError {
  override name = 'NbodyOutputError' as const
  readonly output: string

  constructor({ output }: { output: string }) {
    const tail = output.trim().split(/\r?\n/).slice(-3).join(' / ')
    super('The n-body benchmark printed no GFLOP/s result', {
      details: tail === '' ? 'no output' : tail,
      metaMessages: [
        'Its last lines above say why; a CUDA error usually means the driver is too old for the image.',
      ],
    })
    this.output = output
  }
}

export type GpuBenchmarkErrorType = GpuBenchmarkError & { name: 'GpuBenchmarkError' }

/** A GPU could not be benchmarked: the image is missing, the container could not get the GPU, or n-body failed. */
export class GpuBenchmarkError extends BaseError {
  override name = 'GpuBenchmarkError' as const
  /** The GPU's UUID (`undefined` when the failure is before any GPU, e.g. the image). */
  readonly gpu: string | undefined

  constructor(
    shortMessage: string,
    { gpu, cause, details }: { gpu?: string; cause?: unknown; details?: string } = {},
  ) {
    super(shortMessage, {
      cause,
      details,
      metaMessages: [
        'Run `gridforge-provider doctor`: the NVIDIA driver and container runtime must work for GPU tasks too.',
        'Without network access to nvcr.io, load the image first: docker load -i cuda-sample-nbody.tar',
      ],
    })
    this.gpu = gpu
  }
}
