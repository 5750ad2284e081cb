/**
 * Where the CLI writes: results on stdout (human text, or one JSON document
 * with `--json`), progress and errors on stderr. Every write passes through
 * {@link Terminal.redact}, so a secret registered with {@link Terminal.secret}
 * (the private key, the keystore password) can never reach the screen or a log.
 */

/** A writable end of the terminal: process.stdout, process.stderr or a test double. */
export interface Sink {
  write(text: string): unknown
  isTTY?: boolean | undefined
}

export interface TerminalOptions {
  stdout: Sink
  stderr: Sink
  /** Debug output (stack traces) when true: GRIDFORGE_DEBUG=1. */
  debug?: boolean | undefined
}

/** JSON with bigints as decimal strings and bytes as 0x hex. */
export function toJson(value: unknown): string {
  return JSON.stringify(
    value,
    (_key, item: unknown) => {
      if (typeof item === 'bigint') return item.toString()
      if (item instanceof Uint8Array) return `0x${Buffer.from(item).toString('hex')}`
      if (item instanceof Map) return Object.fromEntries(item)
      if (item instanceof Set) return [...item]
      return item
    },
    2,
  )
}

export class Terminal {
  readonly stdout: Sink
  readonly stderr: Sink
  readonly debug: boolean
  /** `--json`: stdout carries one JSON document. Set once options are parsed. */
  json = false
  readonly #secrets = new Set<string>()
  #progressShown = false
  #lastProgress = ''

  constructor({ stdout, stderr, debug = false }: TerminalOptions) {
    this.stdout = stdout
    this.stderr = stderr
    this.debug = debug
  }

  /** Registers a secret: it is replaced by `[redacted]` in everything written from now on. */
  secret(value: string): void {
    // Trimmed: a key pasted with a newline must still be found in output.
    const trimmed = value.trim()
    const bare = trimmed.startsWith('0x') ? trimmed.slice(2) : trimmed
    if (bare.length >= 4) this.#secrets.add(bare.toLowerCase())
    if (trimmed.length >= 4) this.#secrets.add(trimmed.toLowerCase())
  }

  /** Removes every registered secret (case-insensitively) from `text`. */
  redact(text: string): string {
    if (this.#secrets.size === 0) return text
    let out = text
    for (const secret of [...this.#secrets].sort((a, b) => b.length - a.length)) {
      let lower = out.toLowerCase()
      let index = lower.indexOf(secret)
      while (index !== -1) {
        out = `${out.slice(0, index)}[redacted]${out.slice(index + secret.length)}`
        lower = out.toLowerCase()
        index = lower.indexOf(secret, index + '[redacted]'.length)
      }
    }
    return out
  }

  /** Writes a result line (or text) to stdout. */
  out(text: string): void {
    this.#endProgress()
    this.stdout.write(this.redact(text.endsWith('\n') ? text : `${text}\n`))
  }

  /** Writes raw bytes to stdout (file contents: not redacted text, so never decoded). */
  outBytes(bytes: Uint8Array): void {
    this.#endProgress()
    this.stdout.write(bytes as never)
  }

  /** Writes a line to stderr. */
  err(text: string): void {
    this.#endProgress()
    this.stderr.write(this.redact(text.endsWith('\n') ? text : `${text}\n`))
  }

  /**
   * The command's result: `value` as JSON with `--json`, else the human text
   * (a string or lines).
   */
  result(value: unknown, human: () => string | readonly string[]): void {
    if (this.json) {
      this.out(toJson(value))
      return
    }
    const text = human()
    this.out(typeof text === 'string' ? text : text.join('\n'))
  }

  /**
   * A progress message on stderr: one line rewritten in place on a TTY, plain
   * lines (repeats dropped) otherwise.
   */
  progress(message: string): void {
    const line = this.redact(message)
    if (line === this.#lastProgress) return
    this.#lastProgress = line
    if (this.stderr.isTTY === true) {
      const columns = (this.stderr as { columns?: number }).columns ?? 100
      this.stderr.write(`\r\x1b[2K${line.length >= columns ? `${line.slice(0, columns - 2)}…` : line}`)
      this.#progressShown = true
    } else {
      this.stderr.write(`${line}\n`)
    }
  }

  /** Ends a progress line on a TTY (so the next output starts on its own line). */
  #endProgress(): void {
    if (this.#progressShown) {
      this.stderr.write('\n')
      this.#progressShown = false
    }
    this.#lastProgress = ''
  }
}
