import { BaseError } from '@gridforge/sdk'

export type NvidiaSmiOutputErrorType = NvidiaSmiOutputError & { name: 'NvidiaSmiOutputError' }

/**
 * `nvidia-smi` exited successfully but printed something that is not the
 * answer to the GPU query (a truncated or garbled line, an unexpected value).
 * {@link detectHost} turns it into a `broken` NVIDIA report rather than guess.
 */
export class NvidiaSmiOutputError extends BaseError {
  override name = 'NvidiaSmiOutputError' as const
  /** 1-based line of the query output that could not be read. */
  readonly line: number
  readonly text: string

  constructor({ line, text, reason }: { line: number; text: string; reason: string }) {
    super(`nvidia-smi printed an unreadable GPU line (line ${line}): ${reason}`, {
      details: JSON.stringify(text),
      metaMessages: [
        'Run `nvidia-smi` by hand: if it prints errors or garbled text, reinstall the NVIDIA driver and reboot.',
      ],
    })
    this.line = line
    this.text = text
  }
}

export type UnknownGpuErrorType = UnknownGpuError & { name: 'UnknownGpuError' }

/** A GPU id (UUID or index) that is not one of the GPUs this host offers. */
export class UnknownGpuError extends BaseError {
  override name = 'UnknownGpuError' as const
  readonly id: string

  constructor({ id, offered }: { id: string; offered: readonly string[] }) {
    super(`GPU ${id} is not one this host offers`, {
      details: offered.length === 0 ? 'this host offers no GPU' : `offered: ${offered.join(', ')}`,
      metaMessages: [
        'Use the UUID or index of a GPU from `detectHost()` whose MIG mode is off, and run `gridforge-provider doctor` if a GPU is missing.',
      ],
    })
    this.id = id
  }
}
