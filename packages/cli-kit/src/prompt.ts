import { UsageError } from './errors.js'
import type { Sink } from './terminal.js'

/** The parts of process.stdin a hidden prompt needs. */
export interface PromptInput {
  isTTY?: boolean | undefined
  setRawMode?: ((raw: boolean) => unknown) | undefined
  on(event: 'data', listener: (chunk: Buffer | string) => void): unknown
  off(event: 'data', listener: (chunk: Buffer | string) => void): unknown
  resume(): unknown
  pause(): unknown
}

/**
 * Reads a line from a terminal without echoing it (for passwords). Only on a
 * TTY: a piped stdin is data, not a person, so asking it would hang or leak.
 */
export function promptHidden(question: string, input: PromptInput, output: Sink): Promise<string> {
  if (input.isTTY !== true || input.setRawMode === undefined) {
    return Promise.reject(
      new UsageError('the keystore password is needed but stdin is not a terminal', [
        'Set GRIDFORGE_KEYSTORE_PASSWORD, or run the command in a terminal to type it.',
      ]),
    )
  }
  const setRawMode = input.setRawMode.bind(input)
  output.write(question)
  return new Promise((resolve, reject) => {
    let value = ''
    const finish = (error?: Error) => {
      input.off('data', onData)
      setRawMode(false)
      input.pause()
      output.write('\n')
      if (error === undefined) resolve(value)
      else reject(error)
    }
    const onData = (chunk: Buffer | string) => {
      for (const char of chunk.toString('utf8')) {
        if (char === '\r' || char === '\n' || char === '\u0004') return finish()
        if (char === '\u0003') return finish(new UsageError('cancelled'))
        if (char === '\u007f' || char === '\b') value = value.slice(0, -1)
        else if (char >= ' ') value += char
      }
    }
    setRawMode(true)
    input.resume()
    input.on('data', onData)
  })
}
