import { type Hex, keccak256, stringToBytes } from 'viem'
import * as z from 'zod/mini'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import * as s from '../internal/schemas.js'
import { validate } from '../internal/validate.js'
import { resultCidProblem, resultDigest } from './commitment.js'

/**
 * Why a run failed, as the market records it (`FailureKind` in the contracts'
 * `libraries/Results.sol`; this list is its values from 1):
 * - `exited`: the workload exited with a non-zero code;
 * - `timedOut`: it was still running at the task's runtime limit;
 * - `outOfMemory`: it was killed for running out of memory;
 * - `outputTooLarge`: its output was over the size cap.
 */
export const failureKinds = ['exited', 'timedOut', 'outOfMemory', 'outputTooLarge'] as const

/** Why a run failed: see {@link failureKinds}. */
export type FailureKind = (typeof failureKinds)[number]

/**
 * A failed run: a provider hands it in as the result, with the run's logs as
 * the result CID. It is never slashed, is paid the source's failure terms and
 * is audited like an output. `exitCode` (0 to 255) belongs to `exited` only.
 */
export type Failure = { kind: FailureKind; exitCode?: number }

/**
 * What an auditor of a source with a validator reveals: `passed` when the
 * validator exited 0 on the task's input and the provider's result, otherwise
 * `rejected`.
 */
export type Validation = 'passed' | 'rejected'

/** The low 8 bytes of every failure digest: "gf:fail" and a zero byte (the contract's FAILURE_MARK). */
const failureMark = '67663a6661696c00'
/** Bytes 2 to 23 of a failure digest. */
const zeros = '00'.repeat(22)

const byte = (value: number) => value.toString(16).padStart(2, '0')

/** A {@link Failure} (zod/mini): `exitCode` is required for `exited` and refused for the other kinds. */
export const failureSchema = /* @__PURE__ */ z
  .object({
    kind: z.enum(failureKinds, { error: `expected one of ${failureKinds.join(', ')}` }),
    exitCode: z.optional(s.uint(8)),
  })
  .check(
    z.refine(({ kind, exitCode }) => (kind === 'exited') === (exitCode !== undefined), {
      message: "an 'exited' failure has the workload's exit code (0 to 255), and only it",
      path: ['exitCode'],
    }),
  )

export type FailureDigestErrorType = InvalidParametersErrorType

/**
 * The digest of a failed run, as the market reads it: the kind in byte 0, the
 * exit code in byte 1, zeros, then `0x67663a6661696c00` ("gf:fail\0") in the
 * last 8 bytes. Every honest run that fails the same way hands in the same
 * digest, so failures are compared and audited like outputs.
 *
 * @throws {InvalidParametersError} when the kind is unknown, or `exitCode` is
 *   missing for `exited`, given for another kind, or not 0 to 255.
 *
 * @example
 * import { failureDigest } from '@gridforge/sdk'
 *
 * failureDigest({ kind: 'exited', exitCode: 2 })
 * // '0x01020000000000000000000000000000000000000000000067663a6661696c00'
 * failureDigest({ kind: 'outOfMemory' })
 * // '0x03000000000000000000000000000000000000000000000067663a6661696c00'
 */
export function failureDigest(failure: Failure): Hex {
  const { kind, exitCode } = validate('failureDigest', failureSchema, failure)
  return `0x${byte(failureKinds.indexOf(kind) + 1)}${byte(exitCode ?? 0)}${zeros}${failureMark}`
}

/**
 * The failure a digest reports, or `undefined` for any other digest (an
 * output's, a validation's): the exact inverse of {@link failureDigest}.
 *
 * @example
 * import { failureDigest, parseFailure, resultDigest } from '@gridforge/sdk'
 *
 * parseFailure(failureDigest({ kind: 'exited', exitCode: 2 })) // { kind: 'exited', exitCode: 2 }
 * parseFailure(resultDigest(outputCid)) // undefined
 */
export function parseFailure(digest: Hex): Failure | undefined {
  if (typeof digest !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(digest)) return undefined
  const hex = digest.toLowerCase()
  if (hex.slice(6) !== zeros + failureMark) return undefined
  const kind = failureKinds[Number.parseInt(hex.slice(2, 4), 16) - 1]
  const exitCode = Number.parseInt(hex.slice(4, 6), 16)
  if (kind === 'exited') return { kind, exitCode }
  // The exit code belongs to `exited` alone: another kind with one is not a digest failureDigest makes.
  return kind === undefined || exitCode !== 0 ? undefined : { kind }
}

/**
 * Whether the market reads `digest` as a failure (the contract's `failureOf`
 * is not `None`): a kind from 1 to 4 in byte 0, any byte 1, zeros, then the
 * failure mark. Looser than {@link parseFailure}, which also refuses an exit
 * code on a kind other than `exited`: this is the rule `sealOf` passes
 * failures through by. @internal
 */
export function isFailureDigest(digest: Hex): boolean {
  if (typeof digest !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(digest)) return false
  const hex = digest.toLowerCase()
  const kind = Number.parseInt(hex.slice(2, 4), 16)
  return hex.slice(6) === zeros + failureMark && kind >= 1 && kind <= failureKinds.length
}

/**
 * What an auditor of a source with a validator reveals as its result digest:
 * `keccak256("gridforge.validation.passed")` when the validator passed the
 * provider's result (the contract's VALIDATION_PASSED: it upholds the result),
 * `keccak256("gridforge.validation.rejected")` when it did not.
 *
 * @example
 * import { validationDigest } from '@gridforge/sdk'
 *
 * validationDigest(true) // keccak256(toBytes('gridforge.validation.passed'))
 */
export function validationDigest(passed: boolean): Hex {
  return keccak256(stringToBytes(passed ? 'gridforge.validation.passed' : 'gridforge.validation.rejected'))
}

/**
 * A failure in a few words, e.g. `exited with code 2`, `timed out at the
 * runtime limit`.
 *
 * @example
 * import { formatFailure } from '@gridforge/sdk'
 *
 * formatFailure({ kind: 'exited', exitCode: 2 }) // 'exited with code 2'
 */
export function formatFailure(failure: Failure): string {
  switch (failure.kind) {
    case 'exited':
      return `exited with code ${failure.exitCode ?? '?'}`
    case 'timedOut':
      return 'timed out at the runtime limit'
    case 'outOfMemory':
      return 'ran out of memory'
    case 'outputTooLarge':
      return 'wrote more output than the size cap'
  }
}

/**
 * The failure of a held result from its tag (the first 8 bytes of its seal,
 * all the market keeps; a failure digest is its own seal): only meaningful
 * when the task says its result failed.
 * @internal
 */
export function failureOfTag(tag: Hex): Failure | undefined {
  return /^0x[0-9a-fA-F]{16}$/.test(tag) && tag.slice(6) === '000000000000'
    ? parseFailure(`${tag.slice(0, 6)}${zeros}${failureMark}` as Hex)
    : undefined
}

/**
 * The parameters that say what a result is: an output (the default; `output`
 * is its plain CID when `result` is its sealed envelope), a failure or a
 * validation.
 */
export interface ReportedResultParameters {
  result: string
  output?: string | undefined
  failure?: Failure | undefined
  validation?: Validation | undefined
}

/** The plain digest of a reported result and what it reports. @internal */
export interface ReportedResult {
  /** The output's sha2-256 digest (not sealed), a failure digest or a validation digest. */
  digest: Hex
  failure: Failure | undefined
  /** Whether the result is an output (neither a failure nor a validation): only outputs are sealed. */
  isOutput: boolean
}

/** The `result`, `output`, `failure` and `validation` fields of a result-delivering action (zod/mini). @internal */
export const reportedResultShape = {
  result: s.cid,
  output: /* @__PURE__ */ z.optional(s.cid),
  failure: /* @__PURE__ */ z.optional(failureSchema),
  validation: /* @__PURE__ */ z.optional(
    z.enum(['passed', 'rejected'], { error: "expected 'passed' or 'rejected'" }),
  ),
}

const reportedFields: readonly PropertyKey[] = ['result', 'output', 'failure', 'validation']

/**
 * The check of an action's parameters with {@link reportedResultShape}: a
 * result is exactly one of an output (`output`, or else `result`, is its CID,
 * which must be hashed with sha2-256; with `output`, `result` is its sealed
 * envelope, any CID), a failure or a validation (`result` is then a logs
 * CID, any CID). It runs even when other fields are bad, so that every bad
 * field is named at once. @internal
 */
export const reportedResultCheck = /* @__PURE__ */ z.superRefine(
  ({ result, output, failure, validation }: ReportedResultParameters, context) => {
    if (failure !== undefined && validation !== undefined) {
      context.issues.push({
        code: 'custom',
        message: 'pass `failure` (a failed run) or `validation` (an audit of a validated source), not both',
        path: ['validation'],
        input: validation,
      })
      return
    }
    if (output !== undefined && (failure !== undefined || validation !== undefined)) {
      context.issues.push({
        code: 'custom',
        message:
          '`output` is the plain output of a sealed `result`: a failed run or a validation hands in its logs in the clear, leave `output` out',
        path: ['output'],
        input: output,
      })
      return
    }
    const isOutput = failure === undefined && validation === undefined
    const [path, cid] = output === undefined ? ['result', result] : ['output', output]
    const problem = isOutput ? resultCidProblem(cid) : undefined
    if (problem !== undefined) {
      context.issues.push({
        code: 'custom',
        message: `${problem}: an output's CID is sha2-256 (a failed run's logs, with \`failure\`, may be any CID)`,
        path: [path],
        input: cid,
      })
    }
  },
  {
    // Not on an input that is no object, nor on a bad result, failure or validation (named already).
    when: ({ issues }) =>
      !issues.some(({ path = [] }) => path.length === 0 || reportedFields.includes(path[0] as PropertyKey)),
  },
)

/**
 * The plain digest of a result that passed {@link reportedResultCheck}:
 * `failureDigest(failure)`, `validationDigest(…)`, or the sha2-256 digest of
 * the output's CID (`output`, else `result`). Providers hand in its seal
 * (`handedInDigest`), auditors the digest itself. @internal
 */
export function reportedResult({
  result,
  output,
  failure,
  validation,
}: ReportedResultParameters): ReportedResult {
  if (failure !== undefined) return { digest: failureDigest(failure), failure, isOutput: false }
  if (validation !== undefined)
    return { digest: validationDigest(validation === 'passed'), failure: undefined, isOutput: false }
  return { digest: resultDigest(output ?? result), failure: undefined, isOutput: true }
}
