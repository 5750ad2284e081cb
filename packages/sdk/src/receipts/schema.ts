import type { Address, Hex } from 'viem'
import * as z from 'zod/mini'
import type { InvalidField } from '../errors/validation.js'
import * as s from '../internal/schemas.js'
import { InvalidReceiptError, type InvalidReceiptErrorType } from './errors.js'

/** One GPU of the host that ran the task. */
export interface ReceiptGpu {
  /** Model, e.g. `NVIDIA H100 80GB HBM3`. */
  name: string
  /** Memory of this GPU in MiB. */
  vramMiB: number
  /** Compute capability × 10, e.g. `90` for sm_90 (as in the source requirements). */
  computeCapability: number
}

/** What the host that ran the task had (a summary of the provider's hardware report). */
export interface ReceiptHardware {
  gpus: ReceiptGpu[]
  cpuModel?: string | undefined
  cpuCores: number
  memoryMiB: number
  /** NVIDIA driver version, e.g. `550.54.15`. */
  driver?: string | undefined
  /** CUDA version, e.g. `12.4`. */
  cuda?: string | undefined
}

/** A receipt before the provider signs it. */
export interface UnsignedReceipt {
  /** Version of the receipt format; this SDK writes and reads `1`. */
  version: 1
  /** Chain the task ran on. */
  chainId: number
  /** The TaskMarket contract. */
  market: Address
  /** The task id as a decimal string (JSON has no 256-bit integers). */
  taskId: string
  /** Replica slot the provider claimed (0 for single-replica tasks). */
  slot: number
  sourceId: number
  /** sha256 digest of the OCI image manifest that ran, as bytes32 hex. */
  imageDigest: Hex
  inputCID: string
  /**
   * The result CID handed in (what the chain has): the output's, its sealed
   * envelope's for a task with a `resultKey`, or a failed run's logs.
   */
  outputCID: string
  /** The container's captured logs. */
  logsCID: string
  /** The provider account that claimed the slot and signs the receipt. */
  provider: Address
  /** When the container started, Unix seconds. */
  startedAt: number
  /** When the container stopped, Unix seconds. */
  finishedAt: number
  /** Runtime charged for, at most `finishedAt − startedAt` (the market also caps it on chain). */
  runtimeSec: number
  /** The container's exit code. */
  exitCode: number
  hardware: ReceiptHardware
}

/** A signed receipt: the document a provider uploads and submits the CID of with its result. */
export interface Receipt extends UnsignedReceipt {
  /** EIP-712 signature of the provider over the receipt (see `receiptTypedData`). */
  signature: Hex
}

export type ParseReceiptErrorType = InvalidReceiptErrorType

/** Most GPUs a receipt may list. */
export const maxReceiptGpus = 64

const text = (max: number) =>
  z
    .string('expected a string')
    .check(z.minLength(1, 'must not be empty'), z.maxLength(max, `must be at most ${max} characters`))

const gpuSchema = z.strictObject(
  { name: text(256), vramMiB: s.uint(32), computeCapability: s.uint(8) },
  'expected a GPU: { name, vramMiB, computeCapability }',
)

const hardwareSchema = z.strictObject(
  {
    gpus: z
      .array(gpuSchema, 'expected an array of GPUs')
      .check(z.maxLength(maxReceiptGpus, `at most ${maxReceiptGpus} GPUs`)),
    cpuModel: z.optional(text(256)),
    cpuCores: s.uint(16),
    memoryMiB: s.uint(32),
    driver: z.optional(text(64)),
    cuda: z.optional(text(64)),
  },
  'expected the hardware summary: { gpus, cpuCores, memoryMiB, … }',
)

const unixSeconds = s.uint(40)

const unsignedShape = {
  version: z.literal(1, 'expected 1: this SDK reads version 1 receipts'),
  chainId: z
    .number('expected a chain id: a whole number above 0')
    .check(
      z.refine(
        (value) => Number.isSafeInteger(value) && value > 0,
        'expected a chain id: a whole number above 0',
      ),
    ),
  market: s.address,
  taskId: z
    .string('expected the task id as a decimal string')
    .check(
      z.refine(
        (value) => /^[1-9][0-9]{0,77}$/.test(value) && BigInt(value) < 2n ** 256n,
        'expected the task id as a decimal string below 2^256, e.g. "42"',
      ),
    ),
  slot: s.uint(8, 6),
  sourceId: s.uint(32),
  imageDigest: z
    .string('expected bytes32 hex')
    .check(z.regex(/^0x[0-9a-fA-F]{64}$/, 'expected the image digest as bytes32 hex: 0x and 64 hex digits')),
  inputCID: s.cid,
  outputCID: s.cid,
  logsCID: s.cid,
  provider: s.address,
  startedAt: unixSeconds,
  finishedAt: unixSeconds,
  runtimeSec: s.uint(32),
  exitCode: z.int32('expected a whole number from -2147483648 to 2147483647'),
  hardware: hardwareSchema,
}

const unsignedReceiptSchema = z.strictObject(unsignedShape, 'expected a receipt: a JSON object')

/**
 * The receipt document (zod/mini): strict, so unknown fields are errors.
 * Prefer {@link parseReceipt}, which throws a typed error naming every bad field.
 */
export const receiptSchema = z.strictObject(
  {
    ...unsignedShape,
    signature: z
      .string('expected a signature')
      .check(z.regex(/^0x[0-9a-fA-F]{130}$/, 'expected a 65-byte signature: 0x and 130 hex digits')),
  },
  'expected a receipt: a JSON object',
)

/** A field that failed the schema, with its path as keys and indexes. @internal */
export interface ReceiptIssue {
  path: readonly (string | number)[]
  message: string
  /** A field the schema does not have. */
  unknown?: true | undefined
}

/**
 * Checks `value` against the schema and returns the receipt, or every issue
 * (unknown keys get one issue each). @internal
 */
export function checkReceipt(
  value: unknown,
  { signed = true }: { signed?: boolean } = {},
): { receipt: Receipt } | { issues: ReceiptIssue[] } {
  const result = (signed ? receiptSchema : unsignedReceiptSchema).safeParse(value)
  if (result.success) return { receipt: result.data as Receipt }
  const issues: ReceiptIssue[] = []
  for (const issue of result.error.issues) {
    const path = issue.path.filter((key) => typeof key !== 'symbol') as (string | number)[]
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys)
        issues.push({ path: [...path, key], message: 'unknown field', unknown: true })
    } else {
      issues.push({ path, message: issue.message })
    }
  }
  return { issues }
}

/** Dotted path of an issue, e.g. `hardware.gpus.0.vramMiB`; `(document)` for the root. @internal */
export function issuePath(path: readonly (string | number)[]): string {
  return path.length === 0 ? '(document)' : path.join('.')
}

function toFields(issues: readonly ReceiptIssue[]): InvalidField[] {
  return issues.map((issue) => ({ path: issuePath(issue.path), message: issue.message }))
}

/**
 * Parses a signed receipt document (a parsed JSON value), or throws
 * {@link InvalidReceiptError} naming every bad field. It checks the shape only:
 * use `verifyReceipt` for the signature and `getReceipt` to compare with the chain.
 *
 * @example
 * import { parseReceipt } from '@gridforge/sdk'
 *
 * const receipt = parseReceipt(JSON.parse(text))
 * console.log(receipt.taskId, receipt.outputCID)
 */
export function parseReceipt(value: unknown): Receipt {
  const checked = checkReceipt(value)
  if ('receipt' in checked) return checked.receipt
  throw new InvalidReceiptError({ fields: toFields(checked.issues) })
}

/** Like {@link parseReceipt} for a receipt without its signature (what a provider signs). @internal */
export function parseUnsignedReceipt(value: unknown): UnsignedReceipt {
  const checked = checkReceipt(value, { signed: false })
  if ('receipt' in checked) return checked.receipt
  throw new InvalidReceiptError({ fields: toFields(checked.issues) })
}
