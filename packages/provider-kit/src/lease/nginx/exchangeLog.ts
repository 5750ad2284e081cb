import { open, rename, rm } from 'node:fs/promises'
import type { Logger } from '../../logger.js'
import type { LeaseExchange } from '../usageMeter.js'

/** nginx's line per exchange it served: `$lease_id $status $content_length $body_bytes_sent $msec $request_time`. */
export const exchangeLogFormat = '$lease_id $status $content_length $body_bytes_sent $msec $request_time'
const exchangeLine = /^(\d+) (\d{3}) (\d+|-) (\d+) (\d+\.\d{3}) (\d+\.\d{3})$/

/** The exchange a line of the log holds, `undefined` for any other line. */
export function parseExchangeLine(line: string): LeaseExchange | undefined {
  const match = exchangeLine.exec(line)
  if (match === null) return undefined
  const [, leaseId, status, bytesIn, bytesOut, end, duration] = match as unknown as string[]
  const endedAt = Math.round(Number(end) * 1000)
  return {
    leaseId: BigInt(leaseId as string),
    kind: 'http',
    via: 'data path',
    status: Number(status),
    bytesIn: bytesIn === '-' ? 0 : Number(bytesIn),
    bytesOut: Number(bytesOut),
    startedAt: endedAt - Math.round(Number(duration) * 1000),
    endedAt,
  }
}

/**
 * Follows nginx's exchange log: every `intervalMs`, the lines appended since
 * (nginx buffers them and writes at least every second), each passed to
 * `onExchange`. A file in a buffer rather than a datagram per request keeps
 * the meter off the requests' path. Past `rotateBytes` the file is renamed,
 * nginx told to reopen its logs (`reopen`: SIGUSR1), and the renamed file read
 * to its end on the next round, then removed.
 */
export function followExchangeLog({
  file,
  onExchange,
  reopen,
  logger,
  intervalMs = 1_000,
  rotateBytes = 16 << 20,
}: {
  file: string
  onExchange: (exchange: LeaseExchange) => void
  reopen: () => void
  logger: Logger
  intervalMs?: number
  rotateBytes?: number
}): { close(): Promise<void> } {
  let offset = 0
  let partial = ''
  let rotated: { file: string; offset: number; partial: string } | undefined

  /** Reads `from` past `start`; the new offset and the unfinished last line. */
  async function readFrom(from: string, start: number, pending: string) {
    const handle = await open(from, 'r').catch(() => undefined)
    if (handle === undefined) return { offset: start, partial: pending }
    try {
      const { size } = await handle.stat()
      if (size <= start) return { offset: start, partial: pending }
      const buffer = Buffer.alloc(size - start)
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, start)
      const lines = (pending + buffer.subarray(0, bytesRead).toString('utf8')).split('\n')
      const rest = lines.pop() ?? ''
      for (const line of lines) {
        const exchange = parseExchangeLine(line)
        if (exchange === undefined) logger.debug('an nginx log line that is not an exchange', { line })
        else onExchange(exchange)
      }
      return { offset: start + bytesRead, partial: rest }
    } finally {
      await handle.close()
    }
  }

  async function round() {
    if (rotated !== undefined) {
      await readFrom(rotated.file, rotated.offset, rotated.partial)
      await rm(rotated.file, { force: true })
      rotated = undefined
    }
    ;({ offset, partial } = await readFrom(file, offset, partial))
    if (offset >= rotateBytes) {
      rotated = { file: `${file}.1`, offset, partial }
      await rename(file, rotated.file)
      offset = 0
      partial = ''
      reopen()
    }
  }

  let running = Promise.resolve()
  const timer = setInterval(() => {
    running = running
      .then(round)
      .catch((error: unknown) => logger.warn('reading the nginx exchange log failed', { error }))
  }, intervalMs)
  timer.unref()
  return {
    async close() {
      clearInterval(timer)
      await running
      await round().catch(() => undefined)
    },
  }
}
