/**
 * Splits Docker's multiplexed log stream (containers without a TTY): frames
 * of an 8-byte header — stream type (1 stdout, 2 stderr), three zero bytes,
 * the payload length as a big-endian uint32 — then the payload. Frames may be
 * split across chunks and chunks may hold many frames.
 *
 * Written here rather than `docker.modem.demuxStream` because that one writes
 * to two streams, and the runtime wants both in one buffer in arrival order.
 *
 * @example
 * const push = demuxLogStream((stream, payload) => logs.append(payload))
 * logStream.on('data', push)
 */
export function demuxLogStream(
  onPayload: (stream: 'stdout' | 'stderr', payload: Uint8Array) => void,
): (chunk: Uint8Array) => void {
  let pending: Uint8Array = new Uint8Array(0)
  return (chunk) => {
    let buffer = pending.length === 0 ? chunk : concat(pending, chunk)
    while (buffer.length >= 8) {
      const size =
        ((buffer[4] as number) << 24) |
        ((buffer[5] as number) << 16) |
        ((buffer[6] as number) << 8) |
        (buffer[7] as number)
      const length = size >>> 0
      if (buffer.length < 8 + length) break
      // Type 0 is stdin (never logged); anything but 2 is treated as stdout.
      onPayload(buffer[0] === 2 ? 'stderr' : 'stdout', buffer.subarray(8, 8 + length))
      buffer = buffer.subarray(8 + length)
    }
    pending = buffer.length === 0 ? new Uint8Array(0) : Uint8Array.from(buffer)
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length)
  out.set(a)
  out.set(b, a.length)
  return out
}
