/**
 * Failure reports, as the contracts read them (contracts/libraries/Results.sol): a run that fails — non-zero
 * exit, timeout at the runtime limit, out of memory, output over the cap — is a result. Its provider hands in
 * a failure digest instead of an output's, with the run's logs as the result CID, through the same
 * submitResult / commit / reveal: never slashed for it, paid the source's failure terms, audited like an
 * output (every honest run that fails the same way hands in the same digest).
 */
import { type Address, encodeAbiParameters, type Hex, keccak256, numberToHex, toHex } from 'viem'
import { cidOf } from './cid.js'

/** Results.sol's FailureKind. */
export const FailureKind = {
  None: 0,
  Exited: 1,
  TimedOut: 2,
  OutOfMemory: 3,
  OutputTooLarge: 4,
} as const
export type FailureKind = (typeof FailureKind)[keyof typeof FailureKind]

/** The low 8 bytes of every failure digest: "gf:fail" and a zero byte. */
const FAILURE_MARK = 0x67663a6661696c00n
const FAILURE_HEAD = 0xffffn << 240n

/** The digest of a failed run: kind in byte 0, exit code in byte 1, zeros, then the mark. */
export function failureDigest(kind: Exclude<FailureKind, 0>, exitCode = 0): Hex {
  if (!Number.isInteger(exitCode) || exitCode < 0 || exitCode > 255) {
    throw new RangeError(`sim: exit code ${exitCode} is not a byte`)
  }
  return numberToHex((BigInt(kind) << 248n) | (BigInt(exitCode) << 240n) | FAILURE_MARK, { size: 32 })
}

/** The failure `digest` reports, or FailureKind.None for an output's digest. */
export function failureOf(digest: Hex): FailureKind {
  const value = BigInt(digest)
  const kind = Number(value >> 248n)
  if ((value & ~FAILURE_HEAD) !== FAILURE_MARK || kind === 0 || kind > FailureKind.OutputTooLarge) {
    return FailureKind.None
  }
  return kind as FailureKind
}

/** Whether `digest` reports a failed run. */
export function isFailure(digest: Hex): boolean {
  return failureOf(digest) !== FailureKind.None
}

/**
 * The result key every simulated client submits with (TaskParams.resultKey): outputs are encrypted to it, so only
 * a result's provider and its client know its digest. Any 32 bytes do: the simulator models the encryption.
 */
export const CLIENT_RESULT_KEY: Hex = keccak256(toHex('gridforge sim: client result key'))

/**
 * A result's seal (Results.sol's sealOf): keccak256(abi.encode(taskId, digest)), or a failure digest itself.
 * Providers hand in seals; auditors reveal the digest they found and the market seals it, so an auditor that
 * answers with the seal it sees never matches.
 */
export function sealOf(taskId: bigint, digest: Hex): Hex {
  if (isFailure(digest)) return digest
  return keccak256(encodeAbiParameters([{ type: 'uint256' }, { type: 'bytes32' }], [taskId, digest]))
}

/**
 * The result CID handed in with `digest` by `provider`: for an output, the CID of its envelope (the output
 * encrypted to the client's result key: nothing in it or its CID tells the digest), or for a failure the CID of
 * the run's logs, which differ from one provider to the next.
 */
export function resultCidOf(digest: Hex, taskId: bigint, provider: Address): string {
  const kind = isFailure(digest) ? 'logs' : 'envelope'
  return cidOf(keccak256(toHex(`${kind}|${taskId}|${provider.toLowerCase()}|${digest}`)))
}
