/** Fields attached to a log line. Bigints are written as decimal strings. */
export type LogFields = Readonly<Record<string, unknown>>

export type LogLevel = 'debug' | 'info' | 'warn' | 'error'

/** A structured logger: one JSON object per line (see {@link jsonLogger}). */
export interface Logger {
  debug(message: string, fields?: LogFields): void
  info(message: string, fields?: LogFields): void
  warn(message: string, fields?: LogFields): void
  error(message: string, fields?: LogFields): void
  /** A logger that adds `fields` to every line. */
  child(fields: LogFields): Logger
}

const levels: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 }

export interface JsonLoggerOptions {
  /** Lines below this level are dropped (default `'info'`). */
  level?: LogLevel | undefined
  /** Where each line goes (default: stderr). */
  write?: ((line: string) => void) | undefined
  now?: (() => Date) | undefined
}

/**
 * Writes `{"time":…,"level":…,"msg":…,…fields}` lines, the shape log
 * collectors (Loki, Vector, CloudWatch) parse without configuration.
 *
 * @example
 * const logger = jsonLogger({ level: 'debug' })
 * logger.child({ taskId: 7n }).info('claimed', { slot: 0 })
 * // {"time":"2026-11-21T10:00:00.000Z","level":"info","msg":"claimed","taskId":"7","slot":0}
 */
export function jsonLogger(options: JsonLoggerOptions = {}, bound: LogFields = {}): Logger {
  const {
    level = 'info',
    write = (line) => process.stderr.write(`${line}\n`),
    now = () => new Date(),
  } = options
  const min = levels[level]
  const log =
    (lineLevel: LogLevel) =>
    (message: string, fields: LogFields = {}) => {
      if (levels[lineLevel] < min) return
      write(
        JSON.stringify(
          { time: now().toISOString(), level: lineLevel, msg: message, ...bound, ...fields },
          replacer,
        ),
      )
    }
  return {
    debug: log('debug'),
    info: log('info'),
    warn: log('warn'),
    error: log('error'),
    child: (fields) => jsonLogger(options, { ...bound, ...fields }),
  }
}

/** A logger that drops everything. */
export const silentLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  child: () => silentLogger,
}

function replacer(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString()
  if (value instanceof Error) {
    return { name: value.name, message: (value as { shortMessage?: string }).shortMessage ?? value.message }
  }
  return value
}
