import { encodeAbiParameters, type Hex, keccak256 } from 'viem'
import * as z from 'zod/mini'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import * as s from '../internal/schemas.js'
import { validate } from '../internal/validate.js'
import { isFailureDigest } from './failures.js'

export type SealResultParameters = {
  /** The task the result is for: a seal binds it, so that one task's seal is no answer to another's. */
  taskId: number | bigint
  /**
   * The result digest: `resultDigest(outputCid)` of the plain output (not of
   * its sealed envelope), or a `failureDigest(…)`, which is not sealed.
   */
  digest: Hex
}

export type SealResultReturnType = Hex

export type SealResultErrorType = InvalidParametersErrorType

const schema = /* @__PURE__ */ z.object({ taskId: s.taskId, digest: s.bytes32 })

/**
 * The seal of a result digest, as the market computes it (`sealOf` in the
 * contracts' `libraries/Results.sol`): `keccak256(abi.encode(taskId, digest))`,
 * except a failure digest (see `failureDigest`), which is returned unchanged.
 *
 * Providers hand in seals (`submitResult`, and replicas commit to and reveal
 * them); auditors reveal the plain digest they found, and the market seals it.
 * An auditor that did not compute the output sees only the seal and has no
 * digest to reveal. Every result digest in the market's events and slots is a
 * seal, so a client that opened its output (`openOutput` in
 * `@gridforge/sdk/results`) checks it with
 * `sealResult({ taskId, digest: resultDigest(outputCid) })`.
 *
 * The actions seal for you: `submitResult`, `commitResult` and
 * `revealResult` compute the seal from `result` (or `output`).
 *
 * @throws {InvalidParametersError} when `taskId` is not a task id or
 *   `digest` is not 32 bytes of hex.
 *
 * @example
 * import { resultDigest, sealResult } from '@gridforge/sdk'
 *
 * const seal = sealResult({ taskId: 7n, digest: resultDigest(outputCid) })
 * const { results } = await client.getTaskResult({ taskId: 7n })
 * console.log(results[0]?.resultDigest === seal) // true: this is the output the provider sealed
 */
export function sealResult(parameters: SealResultParameters): SealResultReturnType {
  const { taskId, digest } = validate('sealResult', schema, parameters)
  const hex = digest as Hex
  if (isFailureDigest(hex)) return hex
  return keccak256(encodeAbiParameters([{ type: 'uint256' }, { type: 'bytes32' }], [taskId, hex]))
}
