/** One line of the progress stream `POST /images/create` (pull) and `POST /build` answer with. */
export interface ProgressEvent {
  status?: string
  /** Build output: the lines `docker build` prints. */
  stream?: string
  aux?: { ID?: string }
  error?: string
  errorDetail?: { message?: string }
}

/**
 * Reads a pull's or a build's progress stream to the end and returns its
 * events, in order. A failed pull or build still answers 200 and ends the
 * stream normally: the failure is an event, see {@link progressFailure}.
 *
 * @example
 * const events = await followProgress(await docker.pull('busybox@sha256:…'))
 * const failure = progressFailure(events)
 * if (failure !== undefined) throw new Error(failure)
 */
export async function followProgress(stream: NodeJS.ReadableStream): Promise<ProgressEvent[]> {
  const events: ProgressEvent[] = []
  let rest = ''
  const take = (line: string) => {
    if (line.trim() !== '') events.push(JSON.parse(line) as ProgressEvent)
  }
  for await (const chunk of stream) {
    const lines = (rest + chunk.toString()).split('\n')
    rest = lines.pop() ?? ''
    for (const line of lines) take(line)
  }
  take(rest)
  return events
}

/** The engine's message when the stream reported a failure, else `undefined`. */
export function progressFailure(events: readonly ProgressEvent[]): string | undefined {
  const failed = events.find((event) => event.error !== undefined || event.errorDetail !== undefined)
  if (failed === undefined) return undefined
  return failed.errorDetail?.message ?? failed.error ?? 'failed'
}
