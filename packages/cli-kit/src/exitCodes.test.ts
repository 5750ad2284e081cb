import { HttpRequestError, TimeoutError } from 'viem'
import { describe, expect, it } from 'vitest'
import { ChainMismatchError, DeploymentMissingError, RpcUnreachableError, UsageError } from './errors.js'
import { exitCodeOf, exitCodes } from './exitCodes.js'
import { BaseError, ContractRevertedError, HostNotReadyError, reporting, sdk } from './testing.js'

describe('exitCodeOf', () => {
  it('gives the toolkit’s own errors their codes', () => {
    expect(exitCodeOf(new UsageError('bad flag'), reporting)).toBe(exitCodes.usage)
    expect(
      exitCodeOf(
        new ChainMismatchError({ expected: 1, actual: 2, url: 'u', source: 's', hint: 'h' }),
        reporting,
      ),
    ).toBe(exitCodes.usage)
    expect(exitCodeOf(new DeploymentMissingError({ chainId: 1, hint: 'h' }), reporting)).toBe(exitCodes.usage)
    expect(exitCodeOf(new RpcUnreachableError({ url: 'u', hint: 'h' }), reporting)).toBe(
      exitCodes.unreachable,
    )
  })

  it('gives the SDK’s errors the codes both CLIs share', () => {
    const cases = [
      [new sdk.InvalidParametersError({ action: 'submitTask', fields: [] }), 2],
      [new sdk.KeystorePasswordError('wrong password'), 2],
      [new ContractRevertedError({ errorName: 'X', args: [] }), 3],
      [new sdk.StorageTimeoutError('slow'), 5],
      [new sdk.StorageRequestError('down'), 6],
      [new sdk.ContentVerificationError('bad bytes'), 7],
      [new sdk.BlockTooLargeError('big'), 7],
    ] as const
    for (const [error, code] of cases) expect(exitCodeOf(error, reporting), error.name).toBe(code)
  })

  it('gives a CLI’s own errors the codes its rules say', () => {
    expect(exitCodeOf(new HostNotReadyError('no Docker'), reporting)).toBe(8)
  })

  it('reads the cause chain, outermost first', () => {
    const wrapped = new BaseError('action failed', { cause: new sdk.StorageTimeoutError('slow') })
    expect(exitCodeOf(wrapped, reporting)).toBe(exitCodes.timeout)
    const reverted = new ContractRevertedError({ errorName: 'X', args: [] })
    const outer = new HostNotReadyError('outer', { cause: reverted })
    expect(exitCodeOf(outer, reporting)).toBe(8)
  })

  it('counts viem’s transport errors as an unreachable node', () => {
    const http = new HttpRequestError({ url: 'http://127.0.0.1:1', details: 'fetch failed' })
    expect(exitCodeOf(new BaseError('getTask failed', { cause: http }), reporting)).toBe(
      exitCodes.unreachable,
    )
    expect(exitCodeOf(new TimeoutError({ body: {}, url: 'http://node' }), reporting)).toBe(
      exitCodes.unreachable,
    )
  })

  it('goes by class, not by name: a look-alike is unexpected', () => {
    class UsageLookAlike extends Error {
      override name = 'UsageError'
    }
    class RevertLookAlike extends Error {
      override name = 'ContractRevertedError'
    }
    expect(exitCodeOf(new UsageLookAlike('x'), reporting)).toBe(exitCodes.unexpected)
    expect(exitCodeOf(new RevertLookAlike('x'), reporting)).toBe(exitCodes.unexpected)
    expect(exitCodeOf(new Error('bug'), reporting)).toBe(exitCodes.unexpected)
    expect(exitCodeOf('a string', reporting)).toBe(exitCodes.unexpected)
  })
})
