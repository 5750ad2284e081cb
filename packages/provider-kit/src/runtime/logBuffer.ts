/**
 * A task's logs, capped: stdout and stderr appended in the order they arrive,
 * the first `maxBytes` kept and the rest dropped (the head says how a run
 * started, and a log bomb cannot grow the agent's memory).
 *
 * @example
 * const logs = new LogBuffer(10)
 * logs.append(new TextEncoder().encode('hello, world'))
 * logs.bytes() // 'hello, wor'
 * logs.truncated // true
 */
export class LogBuffer {
  readonly maxBytes: number
  #chunks: Uint8Array[] = []
  #length = 0
  #truncated = false

  constructor(maxBytes: number) {
    if (!Number.isSafeInteger(maxBytes) || maxBytes < 0)
      throw new RangeError(`maxLogBytes must be a whole number ≥ 0, got ${maxBytes}`)
    this.maxBytes = maxBytes
  }

  /** Bytes kept so far. */
  get length(): number {
    return this.#length
  }

  /** Whether anything was dropped. */
  get truncated(): boolean {
    return this.#truncated
  }

  append(chunk: Uint8Array): void {
    if (chunk.length === 0) return
    const room = this.maxBytes - this.#length
    if (room <= 0) {
      this.#truncated = true
      return
    }
    const kept = chunk.length <= room ? chunk : chunk.subarray(0, room)
    if (kept.length < chunk.length) this.#truncated = true
    // Copy: stream chunks may be views into pooled buffers that get reused.
    this.#chunks.push(Uint8Array.from(kept))
    this.#length += kept.length
  }

  /** The kept bytes, one contiguous array. */
  bytes(): Uint8Array {
    const out = new Uint8Array(this.#length)
    let offset = 0
    for (const chunk of this.#chunks) {
      out.set(chunk, offset)
      offset += chunk.length
    }
    return out
  }
}
