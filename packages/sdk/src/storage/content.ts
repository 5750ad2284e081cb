import type { Content } from './ContentStore.js'
import { InvalidContentError } from './errors.js'

/**
 * Turns any accepted content into an async iterable of byte chunks, checking each chunk.
 * Nothing is read before the iterable is consumed.
 */
export function contentChunks(content: Content): AsyncIterable<Uint8Array> {
  if (content instanceof Uint8Array) return single(content)
  if (isReadableStream(content)) return readStream(content)
  if (content !== null && typeof content === 'object') {
    if (Symbol.asyncIterator in content) return checked(content as AsyncIterable<unknown>)
    if (Symbol.iterator in content) return checked(content as Iterable<unknown>)
  }
  throw new InvalidContentError({ reason: `got ${describe(content)}` })
}

/** Whether `content` is plain bytes (no stream to read). */
export function isBytes(content: Content): content is Uint8Array {
  return content instanceof Uint8Array
}

async function* single(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes
}

async function* checked(source: AsyncIterable<unknown> | Iterable<unknown>): AsyncGenerator<Uint8Array> {
  for await (const chunk of source) {
    if (!(chunk instanceof Uint8Array))
      throw new InvalidContentError({
        reason: `a chunk of the stream is ${describe(chunk)}, not a Uint8Array`,
      })
    yield chunk
  }
}

async function* readStream(stream: ReadableStream<unknown>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader()
  let done = false
  try {
    while (true) {
      const next = await reader.read()
      if (next.done) {
        done = true
        return
      }
      if (!(next.value instanceof Uint8Array))
        throw new InvalidContentError({
          reason: `a chunk of the stream is ${describe(next.value)}, not a Uint8Array`,
        })
      yield next.value
    }
  } finally {
    // Stopped early (an error, a consumer that gave up): release the source.
    if (!done) await reader.cancel().catch(() => {})
    reader.releaseLock()
  }
}

function isReadableStream(value: unknown): value is ReadableStream<unknown> {
  return (
    typeof ReadableStream !== 'undefined' &&
    (value instanceof ReadableStream ||
      (value !== null &&
        typeof value === 'object' &&
        typeof (value as ReadableStream).getReader === 'function'))
  )
}

function describe(value: unknown): string {
  if (value === null) return 'null'
  if (typeof value === 'string') return 'a string (encode it first, e.g. new TextEncoder().encode(text))'
  if (typeof value === 'object') return `an object (${Object.prototype.toString.call(value)})`
  return `a ${typeof value}`
}

/** Two readers of one stream, see {@link tee}. */
export interface Tee {
  readonly branches: readonly [AsyncIterable<Uint8Array>, AsyncIterable<Uint8Array>]
  /** Stop feeding branch `index`: the other one reads on without waiting for it. */
  detach(index: 0 | 1): void
}

/**
 * Splits one stream for two consumers that read it at the same time (an upload and the local
 * CID computation) while holding at most `limit` chunks for the slower one: the faster branch
 * waits, so the whole stream is never buffered. A branch that stops early is detached.
 */
export function tee(source: AsyncIterable<Uint8Array>, limit = 16): Tee {
  const iterator = source[Symbol.asyncIterator]()
  const queues: [Uint8Array[], Uint8Array[]] = [[], []]
  const detached = [false, false]
  let ended = false
  let failure: { error: unknown } | undefined
  let pulling: Promise<void> | undefined
  let wake: (() => void) | undefined
  let wakeSignal: Promise<void> = new Promise((resolve) => {
    wake = resolve
  })

  const notify = () => {
    const resolve = wake
    wakeSignal = new Promise((r) => {
      wake = r
    })
    resolve?.()
  }

  const pull = (): Promise<void> => {
    pulling ??= (async () => {
      try {
        const next = await iterator.next()
        if (next.done) ended = true
        else for (const i of [0, 1] as const) if (!detached[i]) queues[i].push(next.value)
      } catch (error) {
        failure = { error }
      } finally {
        pulling = undefined
        notify()
      }
    })()
    return pulling
  }

  async function* branch(index: 0 | 1): AsyncGenerator<Uint8Array> {
    const other = index === 0 ? 1 : 0
    try {
      while (true) {
        const chunk = queues[index].shift()
        if (chunk !== undefined) {
          notify()
          yield chunk
          continue
        }
        if (failure !== undefined) throw failure.error
        if (ended) return
        if (!detached[other] && queues[other].length >= limit) {
          // The other branch is `limit` chunks behind: let it catch up.
          await wakeSignal
          continue
        }
        await pull()
      }
    } finally {
      detached[index] = true
      queues[index].length = 0
      notify()
      if (detached[other] && !ended) {
        ended = true
        await iterator.return?.()
      }
    }
  }

  return {
    branches: [branch(0), branch(1)],
    detach(index) {
      detached[index] = true
      queues[index].length = 0
      notify()
    },
  }
}
