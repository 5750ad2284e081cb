import { readFile } from 'node:fs/promises'
import { keccak256, stringToBytes, toHex } from 'viem'
import { describe, expect, it } from 'vitest'
import * as z from 'zod/mini'
import { anyCid } from '../../test/fixtures.js'
import { InvalidParametersError } from '../errors/validation.js'
import * as s from '../internal/schemas.js'
import { validate } from '../internal/validate.js'
import { resultDigest } from './commitment.js'
import {
  type Failure,
  failureDigest,
  failureKinds,
  failureOfTag,
  formatFailure,
  parseFailure,
  reportedResult,
  reportedResultCheck,
  reportedResultShape,
  validationDigest,
} from './failures.js'

/** The contracts' library that lays out failure digests: the SDK must agree with it byte for byte. */
const resultsSol = new URL('../../../contracts/contracts/libraries/Results.sol', import.meta.url)

const every: Failure[] = [
  { kind: 'exited', exitCode: 0 },
  { kind: 'exited', exitCode: 1 },
  { kind: 'exited', exitCode: 2 },
  { kind: 'exited', exitCode: 137 },
  { kind: 'exited', exitCode: 255 },
  { kind: 'timedOut' },
  { kind: 'outOfMemory' },
  { kind: 'outputTooLarge' },
]

function invalidFields(run: () => unknown) {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidParametersError)
    return (error as InvalidParametersError).fields
  }
  throw new Error('expected an InvalidParametersError')
}

describe('failureDigest', () => {
  it('lays a failure out as libraries/Results.sol does', async () => {
    const source = await readFile(resultsSol, 'utf8')
    const mark = /uint256 constant FAILURE_MARK = (0x[0-9a-f]+);/.exec(source)?.[1]
    expect(mark).toBe('0x67663a6661696c00')
    // FailureKind's members after None, in order.
    const members = /enum FailureKind \{([^}]*)\}/
      .exec(source)?.[1]
      ?.replace(/\/\/\/[^\n]*/g, '')
      .split(',')
      .map((member) => member.trim())
    expect(members).toEqual(['None', 'Exited', 'TimedOut', 'OutOfMemory', 'OutputTooLarge'])
    expect(failureKinds.map((kind) => kind[0]?.toUpperCase() + kind.slice(1))).toEqual(members?.slice(1))

    // failureDigest(kind, exitCode) = kind << 248 | exitCode << 240 | FAILURE_MARK
    const contract = (kind: number, exitCode: number) =>
      toHex((BigInt(kind) << 248n) | (BigInt(exitCode) << 240n) | BigInt(mark ?? 0), { size: 32 })
    expect(failureDigest({ kind: 'exited', exitCode: 2 })).toBe(contract(1, 2))
    expect(failureDigest({ kind: 'exited', exitCode: 2 })).toBe(
      '0x01020000000000000000000000000000000000000000000067663a6661696c00',
    )
    expect(failureDigest({ kind: 'timedOut' })).toBe(contract(2, 0))
    expect(failureDigest({ kind: 'outOfMemory' })).toBe(contract(3, 0))
    expect(failureDigest({ kind: 'outputTooLarge' })).toBe(contract(4, 0))
  })

  it('refuses an unknown kind, a missing or out-of-range exit code, and an exit code on another kind', () => {
    expect(invalidFields(() => failureDigest({ kind: 'crashed' as never }))).toEqual([
      { path: 'kind', message: 'expected one of exited, timedOut, outOfMemory, outputTooLarge' },
    ])
    expect(invalidFields(() => failureDigest({ kind: 'exited' }))).toEqual([
      {
        path: 'exitCode',
        message: "an 'exited' failure has the workload's exit code (0 to 255), and only it",
      },
    ])
    expect(invalidFields(() => failureDigest({ kind: 'exited', exitCode: 256 }))).toEqual([
      { path: 'exitCode', message: 'expected a whole number from 0 to 255' },
    ])
    expect(invalidFields(() => failureDigest({ kind: 'exited', exitCode: -1 }))).toEqual([
      { path: 'exitCode', message: 'expected a whole number from 0 to 255' },
    ])
    expect(invalidFields(() => failureDigest({ kind: 'timedOut', exitCode: 137 }))).toEqual([
      {
        path: 'exitCode',
        message: "an 'exited' failure has the workload's exit code (0 to 255), and only it",
      },
    ])
  })
})

describe('parseFailure', () => {
  it('is the exact inverse of failureDigest, for every kind', () => {
    for (const failure of every) {
      const digest = failureDigest(failure)
      expect(parseFailure(digest), failure.kind).toEqual(failure)
      expect(parseFailure(digest.toUpperCase().replace('0X', '0x') as `0x${string}`)).toEqual(failure)
      const parsed = parseFailure(digest)
      expect(parsed && failureDigest(parsed)).toBe(digest)
    }
  })

  it('reads anything but a failure digest as undefined', () => {
    const exited = failureDigest({ kind: 'exited', exitCode: 2 })
    const mark = '67663a6661696c00'
    for (const digest of [
      resultDigest(anyCid),
      validationDigest(true),
      validationDigest(false),
      `0x${'00'.repeat(32)}`,
      // Kind None, and a kind past OutputTooLarge.
      `0x0000${'00'.repeat(22)}${mark}`,
      `0x0500${'00'.repeat(22)}${mark}`,
      // An exit code on a kind that has none.
      `0x0289${'00'.repeat(22)}${mark}`,
      // A byte set between the head and the mark, or a mark off by one bit.
      `${exited.slice(0, 20)}01${exited.slice(22)}`,
      `${exited.slice(0, -2)}01`,
      // Not a bytes32.
      exited.slice(0, -2),
      '0x',
      'not hex',
    ]) {
      expect(parseFailure(digest as `0x${string}`), digest).toBeUndefined()
    }
  })

  it('reads a held result’s tag (the first 8 bytes of its seal: a failure is its own) back into the failure', () => {
    for (const failure of every) {
      expect(failureOfTag(failureDigest(failure).slice(0, 18) as `0x${string}`)).toEqual(failure)
    }
    expect(failureOfTag('0x0102000000000001')).toBeUndefined()
    // The 5-byte tag of before is no tag now.
    expect(failureOfTag(failureDigest(every[0] as Failure).slice(0, 12) as `0x${string}`)).toBeUndefined()
    expect(failureOfTag(validationDigest(true).slice(0, 18) as `0x${string}`)).toBeUndefined()
  })
})

describe('validationDigest', () => {
  it('is VALIDATION_PASSED for a pass and keccak256("gridforge.validation.rejected") otherwise', async () => {
    const source = await readFile(resultsSol, 'utf8')
    expect(source).toContain('bytes32 constant VALIDATION_PASSED = keccak256("gridforge.validation.passed");')
    expect(validationDigest(true)).toBe(keccak256(stringToBytes('gridforge.validation.passed')))
    expect(validationDigest(false)).toBe(keccak256(stringToBytes('gridforge.validation.rejected')))
    expect(validationDigest(true)).not.toBe(validationDigest(false))
  })
})

describe('formatFailure', () => {
  it('says what happened in a few words', () => {
    expect(every.map(formatFailure)).toEqual([
      'exited with code 0',
      'exited with code 1',
      'exited with code 2',
      'exited with code 137',
      'exited with code 255',
      'timed out at the runtime limit',
      'ran out of memory',
      'wrote more output than the size cap',
    ])
  })
})

describe('reportedResultCheck and reportedResult', () => {
  const blake3 = 'bafkr4iaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'
  const schema = z.object({ ...reportedResultShape, runtimeSec: s.uint(32) }).check(reportedResultCheck)
  const reported = (input: object) =>
    reportedResult(validate('submitResult', schema, { runtimeSec: 1, ...input }))

  it('hashes an output CID, and takes any CID as the logs of a failure or a validation', () => {
    expect(reported({ result: anyCid })).toEqual({
      digest: resultDigest(anyCid),
      failure: undefined,
      isOutput: true,
    })
    const failure = { kind: 'exited', exitCode: 2 } as const
    expect(reported({ result: blake3, failure })).toEqual({
      digest: failureDigest(failure),
      failure,
      isOutput: false,
    })
    expect(reported({ result: blake3, validation: 'rejected' })).toEqual({
      digest: validationDigest(false),
      failure: undefined,
      isOutput: false,
    })
  })

  it('hashes the plain `output` of a sealed result, whose envelope may be any CID', () => {
    const output = 'bafkreidvbhs33ighmljlvr7zbv2ywwzcmp5adtf4kqvlly67cy56bdtmve'
    expect(reported({ result: blake3, output })).toEqual({
      digest: resultDigest(output),
      failure: undefined,
      isOutput: true,
    })
    expect(invalidFields(() => reported({ result: anyCid, output: blake3 }))).toEqual([
      { path: 'output', message: expect.stringContaining('its multihash is 0x1e, not sha2-256') },
    ])
    expect(
      invalidFields(() => reported({ result: anyCid, output, failure: { kind: 'outOfMemory' } })),
    ).toEqual([{ path: 'output', message: expect.stringContaining('leave `output` out') }])
  })

  it('refuses a failure and a validation together, and an output CID that is not sha2-256, with the other bad fields', () => {
    expect(
      invalidFields(() =>
        reported({ result: anyCid, failure: { kind: 'outOfMemory' }, validation: 'passed', runtimeSec: -1 }),
      ),
    ).toEqual([
      { path: 'runtimeSec', message: 'expected a whole number from 0 to 4294967295' },
      { path: 'validation', message: expect.stringContaining('not both') },
    ])
    expect(invalidFields(() => reported({ result: blake3 }))).toEqual([
      {
        path: 'result',
        message:
          "its multihash is 0x1e, not sha2-256 (0x12): an output's CID is sha2-256 (a failed run's logs, with `failure`, may be any CID)",
      },
    ])
    // A bad field of the result is named once, by its own schema.
    expect(invalidFields(() => reported({ result: 'not a cid', validation: 'maybe' }))).toEqual([
      { path: 'result', message: "'not a cid' is not a base32 CIDv1 (b…)" },
      { path: 'validation', message: "expected 'passed' or 'rejected'" },
    ])
  })
})
