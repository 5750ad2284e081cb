import { encodeAbiParameters, keccak256 } from 'viem'
import { describe, expect, it } from 'vitest'
import { digestOf } from './cid.js'
import { FailureKind, failureDigest, failureOf, isFailure, resultCidOf, sealOf } from './results.js'

describe('failure digests', () => {
  it('are spelled as Results.sol spells them: kind, exit code, zeros, "gf:fail\\0"', () => {
    expect(failureDigest(FailureKind.TimedOut)).toBe(
      '0x020000000000000000000000000000000000000000000000' + '67663a6661696c00',
    )
    expect(failureDigest(FailureKind.Exited, 1)).toBe(
      '0x010100000000000000000000000000000000000000000000' + '67663a6661696c00',
    )
    expect(() => failureDigest(FailureKind.Exited, 256)).toThrow(RangeError)
  })

  it('are read back; an output digest or a malformed one reports no failure', () => {
    for (const kind of [1, 2, 3, 4] as const) expect(failureOf(failureDigest(kind, 7))).toBe(kind)
    const output = '0xe3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'
    expect(failureOf(output)).toBe(FailureKind.None)
    // Kind 5 does not exist; a non-zero byte between the head and the mark is not a failure digest.
    expect(isFailure(`0x05${'00'.repeat(23)}67663a6661696c00`)).toBe(false)
    expect(isFailure(`0x0100${'00'.repeat(21)}0167663a6661696c00`)).toBe(false)
  })

  it('go in with the logs CID of the run; an output with its envelope, whose CID tells nothing of the digest', () => {
    const provider = '0x00000000000000000000000000000000000000aa'
    const output = '0xe3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'
    expect(digestOf(resultCidOf(output, 1n, provider))).not.toBe(output)
    expect(resultCidOf(output, 1n, provider)).not.toBe(resultCidOf(output, 1n, `0x${'bb'.repeat(20)}`))
    const failure = failureDigest(FailureKind.TimedOut)
    expect(digestOf(resultCidOf(failure, 1n, provider))).not.toBe(failure)
  })
})

describe('seals', () => {
  it('are keccak256(abi.encode(taskId, digest)) as Results.sol computes them; a failure report is its own', () => {
    const output = '0xe3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'
    expect(sealOf(1n, output)).toBe(
      keccak256(encodeAbiParameters([{ type: 'uint256' }, { type: 'bytes32' }], [1n, output])),
    )
    expect(sealOf(2n, output)).not.toBe(sealOf(1n, output))
    const failure = failureDigest(FailureKind.Exited, 3)
    expect(sealOf(1n, failure)).toBe(failure)
  })
})
