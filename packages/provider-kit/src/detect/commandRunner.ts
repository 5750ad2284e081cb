import { execFile } from 'node:child_process'

/** What running a host command gave. */
export type CommandResult =
  /** It ran and exited (any exit code). */
  | { status: 'exited'; exitCode: number; stdout: string; stderr: string }
  /** The executable is not installed (`ENOENT`). */
  | { status: 'notFound' }
  /** It could not be run or did not finish: permission denied, timed out, killed by a signal. */
  | { status: 'failed'; error: string }

/**
 * Runs `file` with `args` (no shell) and resolves with what happened; never
 * rejects. Injected into {@link detectHost} so tests replay recorded output.
 */
export type CommandRunner = (file: string, args: readonly string[]) => Promise<CommandResult>

export interface ExecFileRunnerOptions {
  /** Milliseconds before the command is killed (default 30 000: `nvidia-smi` hangs when a GPU has fallen off the bus). */
  timeout?: number | undefined
  /** Most bytes of stdout or stderr kept (default 4 MiB). */
  maxBuffer?: number | undefined
}

/**
 * The {@link CommandRunner} that runs real commands with `child_process.execFile`.
 *
 * @example
 * import { execFileRunner } from '@gridforge/provider-kit'
 *
 * const run = execFileRunner({ timeout: 10_000 })
 * const result = await run('nvidia-smi', ['-L'])
 * if (result.status === 'exited') console.log(result.exitCode, result.stdout)
 */
export function execFileRunner(options: ExecFileRunnerOptions = {}): CommandRunner {
  const { timeout = 30_000, maxBuffer = 4 * 1024 * 1024 } = options
  return (file, args) =>
    new Promise((resolve) => {
      execFile(
        file,
        [...args],
        { timeout, maxBuffer, encoding: 'utf8', windowsHide: true },
        (error, stdout, stderr) => {
          if (error === null) return resolve({ status: 'exited', exitCode: 0, stdout, stderr })
          const code: unknown = (error as NodeJS.ErrnoException).code
          if (code === 'ENOENT') return resolve({ status: 'notFound' })
          // A numeric code is the command's exit status: it ran, and its output says why it failed.
          if (typeof code === 'number') return resolve({ status: 'exited', exitCode: code, stdout, stderr })
          if (error.killed === true && error.signal !== null)
            return resolve({
              status: 'failed',
              error: `${file} did not finish within ${timeout} ms (killed)`,
            })
          if (error.signal !== null && error.signal !== undefined)
            return resolve({ status: 'failed', error: `${file} was killed by ${error.signal}` })
          resolve({ status: 'failed', error: `${file}: ${error.message}` })
        },
      )
    })
}
