/**
 * Reading dockerode's errors: a failed request carries the engine's HTTP
 * status (`statusCode`) and its JSON answer (`json.message`); an error without
 * a status never reached the engine.
 */

/** The engine's HTTP status for a failed request, `undefined` when the engine did not answer. */
export function statusCode(error: unknown): number | undefined {
  const code = (error as { statusCode?: unknown } | null)?.statusCode
  return typeof code === 'number' ? code : undefined
}

/** The engine's own message (`{"message": …}`), else the error's. */
export function engineMessage(error: unknown): string {
  const json = (error as { json?: { message?: unknown } } | null)?.json
  if (typeof json?.message === 'string') return json.message
  return error instanceof Error ? error.message : String(error)
}

/**
 * What a shell would exit with when the engine could not start a container's
 * command: 127 when it does not exist in the image, 126 when it is not
 * executable; `undefined` for every other refusal (no such image, no NVIDIA
 * runtime, a mount, the engine's own trouble). Docker's init (tini) exits with
 * the same codes, so a missing command reads the same with or without it.
 *
 * @example
 * commandExitCode('… unable to start container process: exec: "/no/such": stat /no/such: no such file or directory: unknown') // 127
 * commandExitCode('could not select device driver "nvidia" with capabilities: [[gpu]]') // undefined
 */
export function commandExitCode(message: string): 126 | 127 | undefined {
  // runc: `exec: "<command>": stat <command>: no such file or directory`, `exec: "<command>": executable file
  // not found in $PATH`, `exec: "<command>": permission denied`; crun: "executable file `<command>` not found".
  if (
    /exec: "[^"]*": (?:stat [^:]*: )?(?:no such file or directory|executable file not found)/i.test(message)
  )
    return 127
  if (/executable file `[^`]*` not found/i.test(message)) return 127
  if (/exec: "[^"]*": (?:permission denied|is a directory)/i.test(message)) return 126
  return undefined
}
