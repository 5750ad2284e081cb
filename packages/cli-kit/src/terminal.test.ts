import { describe, expect, it } from 'vitest'
import { Terminal, toJson } from './terminal.js'

function sink(isTTY = false) {
  const chunks: string[] = []
  return { chunks, isTTY, columns: 200, write: (text: string) => chunks.push(text) }
}

const key = '0xAC0974BEC39A17E36BA4A91B4F3C2B4E1B4C6E3A8E6F6B6F6A6E6A6E6A6E6A6E'

describe('Terminal', () => {
  it('redacts a registered key in any case, with or without 0x', () => {
    const stdout = sink()
    const stderr = sink()
    const terminal = new Terminal({ stdout, stderr })
    terminal.secret(key)
    terminal.out(`key ${key.toLowerCase()} and ${key.slice(2)} and ${key.slice(2).toLowerCase()}x`)
    terminal.err(`error: ${key}`)
    expect(stdout.chunks.join('')).toBe('key [redacted] and [redacted] and [redacted]x\n')
    expect(stderr.chunks.join('')).toBe('error: [redacted]\n')
  })

  it('rewrites one progress line on a TTY and ends it before other output', () => {
    const stderr = sink(true)
    const terminal = new Terminal({ stdout: sink(), stderr })
    terminal.progress('task 1: Open')
    terminal.progress('task 1: Claimed')
    terminal.err('done')
    expect(stderr.chunks).toEqual(['\r\x1b[2Ktask 1: Open', '\r\x1b[2Ktask 1: Claimed', '\n', 'done\n'])
  })

  it('prints progress as plain lines, without repeats, elsewhere', () => {
    const stderr = sink(false)
    const terminal = new Terminal({ stdout: sink(), stderr })
    terminal.progress('task 1: Open')
    terminal.progress('task 1: Open')
    terminal.progress('task 1: Claimed')
    expect(stderr.chunks).toEqual(['task 1: Open\n', 'task 1: Claimed\n'])
  })

  it('writes one JSON document with --json, bigints as decimal strings', () => {
    const stdout = sink()
    const terminal = new Terminal({ stdout, stderr: sink() })
    terminal.json = true
    terminal.result({ amount: 2n ** 70n, at: new Date(0), bytes: new Uint8Array([1, 255]) }, () => 'human')
    expect(JSON.parse(stdout.chunks.join(''))).toEqual({
      amount: '1180591620717411303424',
      at: '1970-01-01T00:00:00.000Z',
      bytes: '0x01ff',
    })
    expect(toJson([1n])).toBe('[\n  "1"\n]')
  })
})
