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
