/** The GPUs of a host, handed out to tasks so no two running tasks share one. */
export interface GpuPool {
  /** Every device id in the pool, in the order given. */
  readonly devices: readonly string[]
  /** How many devices are free now. */
  readonly free: number
  /**
   * Takes `count` free devices (the first free ones, in pool order), or
   * returns `undefined` and takes nothing when fewer are free. `acquire(0)`
   * is `[]`: a task without GPUs always fits.
   */
  acquire(count: number): string[] | undefined
  /**
   * Takes exactly these devices (a task resumed after a restart keeps the
   * GPUs its container was pinned to), or returns `undefined` and takes
   * nothing when one is taken or not in the pool.
   */
  acquireExactly(ids: readonly string[]): string[] | undefined
  /** Gives devices back. Ids that are free already or not in the pool are ignored, so a double release is harmless. */
  release(ids: readonly string[]): void
}

/**
 * A pool of GPU device ids (UUIDs or indexes, what `RunSpec.gpus` takes).
 * With 8 GPUs, 8 one-GPU tasks run at once, each pinned to its own device.
 *
 * @example
 * const gpus = gpuPool(['GPU-aaa', 'GPU-bbb'])
 * const mine = gpus.acquire(1) // ['GPU-aaa']
 * gpus.acquire(2) // undefined: one is free
 * gpus.release(mine)
 */
export function gpuPool(deviceIds: readonly string[]): GpuPool {
  const devices = [...new Set(deviceIds)]
  if (devices.length !== deviceIds.length)
    throw new RangeError(`GPU device ids repeat: ${deviceIds.join(', ')}`)
  const taken = new Set<string>()

  return {
    devices,
    get free() {
      return devices.length - taken.size
    },
    acquire(count) {
      if (!Number.isSafeInteger(count) || count < 0)
        throw new RangeError(`GPU count must be a whole number ≥ 0, got ${count}`)
      if (devices.length - taken.size < count) return undefined
      const ids = devices.filter((id) => !taken.has(id)).slice(0, count)
      for (const id of ids) taken.add(id)
      return ids
    },
    acquireExactly(ids) {
      const wanted = [...new Set(ids)]
      if (wanted.some((id) => !devices.includes(id) || taken.has(id))) return undefined
      for (const id of wanted) taken.add(id)
      return wanted
    },
    release(ids) {
      for (const id of ids) taken.delete(id)
    },
  }
}
