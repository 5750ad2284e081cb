import { type Address, bytesToHex, encodeAbiParameters, type Hex, keccak256 } from 'viem'
import { BaseError } from '../errors/base.js'
import { parseCid } from '../utils/cid.js'

/** Multihash code of sha2-256, the hash the market compares results by. */
const sha256Code = 0x12

export type UnsupportedResultCidErrorType = UnsupportedResultCidError & { name: 'UnsupportedResultCidError' }

/**
 * A result CID that cannot be committed to: not a CID, or not hashed with
 * sha2-256 (replicas are compared by the sha2-256 digest of their output).
 */
export class UnsupportedResultCidError extends BaseError {
  override name = 'UnsupportedResultCidError' as const
  readonly cid: unknown

  constructor({ cid, reason }: { cid: unknown; reason: string }) {
    super(`cannot commit to result ${typeof cid === 'string' ? `'${cid}'` : String(cid)}: ${reason}`, {
      metaMessages: [
        'Import the output with the SDK (importPath / computeCid) or `ipfs add --cid-version=1 --raw-leaves`: both hash with sha2-256.',
      ],
    })
    this.cid = cid
  }
}

/**
 * Why `cid` cannot be a result of a consensus task, or `undefined` when it can:
 * it must be a CIDv1 whose multihash is sha2-256.
 */
export function resultCidProblem(cid: unknown): string | undefined {
  const parsed = parseCid(cid)
  if ('error' in parsed) return parsed.error
  if (parsed.cid.hashCode !== sha256Code || parsed.cid.digest.length !== 32) {
    return `its multihash is 0x${parsed.cid.hashCode.toString(16)}, not sha2-256 (0x12)`
  }
  return undefined
}

/**
 * The digest a consensus task compares: the 32-byte sha2-256 multihash digest
 * of the output CID, as `bytes32`. The same content gives the same digest
 * whatever the CID's codec (raw or dag-pb), so providers agree on bytes, not
 * on spelling. The chain never sees it: providers hand in its seal
 * (`sealResult`), auditors reveal it and the market seals it.
 *
 * @throws {UnsupportedResultCidError} when `cid` is not a sha2-256 CIDv1.
 *
 * @example
 * import { resultDigest } from '@gridforge/sdk'
 *
 * resultDigest('bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku')
 * // '0xe3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'
 */
export function resultDigest(cid: string): Hex {
  const problem = resultCidProblem(cid)
  if (problem !== undefined) throw new UnsupportedResultCidError({ cid, reason: problem })
  const parsed = parseCid(cid) as { cid: { digest: Uint8Array } }
  return bytesToHex(parsed.cid.digest)
}

export interface ComputeCommitmentParameters {
  /** The task committed to. */
  taskId: bigint
  /** The provider that commits (the sender of `commitResult` and `revealResult`). */
  provider: Address
  /**
   * The digest committed to: a replica's output's seal
   * (`sealResult({ taskId, digest: resultDigest(output) })`), an auditor's
   * output digest itself ({@link resultDigest}; the market seals it at the
   * reveal), or a failure or validation digest.
   */
  digest: Hex
  /** 32 random bytes, kept secret until the reveal. */
  salt: Hex
}

/**
 * The commitment the market stores for a consensus result:
 * `keccak256(abi.encode(taskId, provider, digest, salt))`. It binds the
 * provider, so a commitment copied from the mempool never matches another
 * sender's reveal.
 *
 * @example
 * import { computeCommitment, generateSalt, resultDigest, sealResult } from '@gridforge/sdk'
 *
 * // A replica commits to its output's seal.
 * const commitment = computeCommitment({
 *   taskId: 7n,
 *   provider: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
 *   digest: sealResult({ taskId: 7n, digest: resultDigest(outputCid) }),
 *   salt: generateSalt(),
 * })
 */
export function computeCommitment({ taskId, provider, digest, salt }: ComputeCommitmentParameters): Hex {
  return keccak256(
    encodeAbiParameters(
      [{ type: 'uint256' }, { type: 'address' }, { type: 'bytes32' }, { type: 'bytes32' }],
      [taskId, provider, digest, salt],
    ),
  )
}

/**
 * 32 random bytes from the platform's CSPRNG, as a salt for a commitment.
 * Store it before committing: without it the result cannot be revealed and
 * the collateral is slashed.
 *
 * @example
 * import { generateSalt } from '@gridforge/sdk'
 *
 * const salt = generateSalt() // '0x3f…' (32 bytes)
 */
export function generateSalt(): Hex {
  return bytesToHex(globalThis.crypto.getRandomValues(new Uint8Array(32)))
}
