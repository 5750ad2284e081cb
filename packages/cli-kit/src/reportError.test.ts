import { HttpRequestError } from 'viem'
import { describe, expect, it } from 'vitest'
import { RpcUnreachableError, UsageError } from './errors.js'
import { describeError, errorJson, reportError } from './reportError.js'
import {
  BaseError,
  ContractRevertedError,
  InvalidParametersError,
  recordingTerminal,
  reporting,
  sdk,
  VerificationFailedError,
} from './testing.js'

const context = { ...reporting, rpcUrl: 'http://127.0.0.1:8545' }

/** A transport failure as viem throws it from deep inside an action: fetch failed, connection refused. */
function transportFailure() {
  const refused = new Error('connect ECONNREFUSED 127.0.0.1:8545')
  return new HttpRequestError({
    url: context.rpcUrl,
    cause: new TypeError('fetch failed', { cause: refused }),
  })
}

describe('describeError (human output)', () => {
  it('prints the short message and what to do next, no stack', () => {
    const lines = describeError(new UsageError('--out: ./a is a file', ['Pass a directory.']), context)
    expect(lines).toEqual(['error: --out: ./a is a file', '  Pass a directory.'])
  })

  it('decodes a contract revert anywhere in the chain', () => {
    const reverted = new ContractRevertedError({
      errorName: 'TaskMarketNotOpen',
      args: [42n, '0xab'],
      hint: 'wait',
    })
    const lines = describeError(new BaseError('claimTask failed', { cause: reverted }), context)
    expect(lines).toEqual([
      'error: the contract reverted with TaskMarketNotOpen',
      '  contract error: TaskMarketNotOpen',
      '  arguments: [42, "0xab"]',
      '  hint: wait',
    ])
  })

  it('presents a transport failure as the unreachable node, with the CLI’s hint and the root cause', () => {
    expect(describeError(transportFailure(), context)).toEqual([
      'error: cannot reach the RPC node at http://127.0.0.1:8545',
      '  Start the node, or pass --rpc <url>.',
      '  details: connect ECONNREFUSED 127.0.0.1:8545',
    ])
  })

  it('keeps an RpcUnreachableError’s own hint', () => {
    const error = new RpcUnreachableError({
      url: 'http://node',
      hint: 'Fix [chain] rpc.',
      cause: transportFailure(),
    })
    expect(describeError(error, context).slice(0, 2)).toEqual([
      'error: cannot reach the RPC node at http://node',
      '  Fix [chain] rpc.',
    ])
  })

  it('prints an SDK error that wraps a transport failure as itself', () => {
    const error = new sdk.StorageRequestError('the store at http://kubo did not answer', {
      cause: transportFailure(),
    })
    expect(describeError(error, context)).toEqual(['error: the store at http://kubo did not answer'])
  })
})

describe('errorJson (--json)', () => {
  it('carries the name, message, what to do next and the exit code', () => {
    expect(errorJson(new UsageError('no key', ['Set GRIDFORGE_PRIVATE_KEY.']), 2, reporting)).toEqual({
      error: {
        name: 'UsageError',
        message: 'no key',
        metaMessages: ['Set GRIDFORGE_PRIVATE_KEY.'],
        exitCode: 2,
      },
    })
  })

  it('adds a revert’s decoding, the invalid fields and the CLI’s own extras', () => {
    const reverted = new ContractRevertedError({ errorName: 'X', args: [1n], hint: 'h' })
    expect(errorJson(reverted, 3, reporting).error).toMatchObject({ errorName: 'X', args: [1n], hint: 'h' })
    const fields = [{ path: 'maxPayment', message: 'not an amount' }]
    const invalid = new InvalidParametersError({ action: 'submitTask', fields })
    expect(errorJson(new BaseError('outer', { cause: invalid }), 2, reporting).error).toMatchObject({
      fields,
    })
    expect(errorJson(new VerificationFailedError('bad receipt'), 7, reporting).error).toMatchObject({
      mismatches: ['fee: expected 1, got 2'],
    })
  })

  it('adds `fields` only for the classes that carry them', () => {
    class OtherError extends Error {
      readonly fields = ['not for JSON']
    }
    expect(errorJson(new OtherError('x'), 1, reporting).error).not.toHaveProperty('fields')
  })
})

describe('reportError', () => {
  it('writes to stderr only, and returns the exit code', () => {
    const { terminal, stdout, stderr } = recordingTerminal()
    expect(reportError(terminal, new UsageError('bad flag', ['Pass --chain 1.']), context)).toBe(2)
    expect(stderr()).toBe('error: bad flag\n  Pass --chain 1.\n')
    expect(stdout()).toBe('')
  })

  it('also writes one JSON document to stdout with --json, bigints as strings', () => {
    const { terminal, stdout, stderr } = recordingTerminal()
    terminal.json = true
    const reverted = new ContractRevertedError({ errorName: 'X', args: [2n ** 70n] })
    expect(reportError(terminal, reverted, context)).toBe(3)
    expect(stderr()).toContain('contract error: X')
    expect(JSON.parse(stdout())).toEqual({
      error: {
        name: 'ContractRevertedError',
        message: 'the contract reverted with X',
        metaMessages: [],
        exitCode: 3,
        errorName: 'X',
        args: ['1180591620717411303424'],
      },
    })
  })

  it('redacts secrets and prints stack traces only when debugging', () => {
    const key = `0x${'ab'.repeat(32)}`
    const quiet = recordingTerminal()
    quiet.terminal.secret(key)
    reportError(quiet.terminal, new Error(`boom ${key}`), context)
    expect(quiet.stderr()).toBe('error: boom [redacted]\n')
    const debug = recordingTerminal({ debug: true })
    reportError(debug.terminal, new Error('boom'), context)
    expect(debug.stderr()).toMatch(/error: boom\n\nError: boom\n {4}at /)
  })
})
