import type { Hex } from 'viem'
import * as z from 'zod/mini'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import * as s from '../internal/schemas.js'
import { validate } from '../internal/validate.js'
import type {
  ContentStore,
  ContentStoreReadErrorType,
  ContentStoreWriteErrorType,
} from '../storage/ContentStore.js'
import { NotAFileError } from '../storage/errors.js'
import { resultDigest } from '../tasks/commitment.js'
import { sealResult } from '../tasks/seal.js'
import { readBundle } from './bundle.js'
import { openStream } from './envelope.js'
import {
  BlockWritesUnsupportedError,
  type BlockWritesUnsupportedErrorType,
  type InvalidSealedOutputErrorType,
  NotASealedOutputError,
  type NotASealedOutputErrorType,
  type SealedBlockMismatchErrorType,
  type SealedOutputKeyErrorType,
  SealedOutputMismatchError,
  type SealedOutputMismatchErrorType,
  type SealedOutputTamperedErrorType,
  type SealedOutputTruncatedErrorType,
  type UnsupportedSealedOutputErrorType,
} from './errors.js'

export type OpenOutputParameters = {
  /** The sealed output: the result CID of a task with a `resultKey`. */
  cid: string
  /** The client's secret result key (`deriveResultKey`, or `resultKeyFromSecret`). */
  secretKey: Hex
  /**
   * With `seal`: the task the output is for, to check the output against the
   * chain (`sealResult({ taskId, digest })` must be `seal`).
   */
  taskId?: number | bigint | undefined
  /** With `taskId`: the result's digest on chain (`getTaskResult`'s `resultDigest`), a seal. */
  seal?: Hex | undefined
  /** Cancels the reading and the writing; the signal's reason is thrown. */
  signal?: AbortSignal | undefined
}

export type OpenOutputReturnType = {
  /** The plain output's CID, now in `store` (read it with `store.get`, `store.ls`). */
  cid: string
  /** Its sha2-256 digest (`resultDigest(cid)`): the chain has its seal for the task. */
  digest: Hex
}

export type OpenOutputErrorType =
  | InvalidParametersErrorType
  | NotASealedOutputErrorType
  | UnsupportedSealedOutputErrorType
  | SealedOutputKeyErrorType
  | SealedOutputTamperedErrorType
  | SealedOutputTruncatedErrorType
  | InvalidSealedOutputErrorType
  | SealedBlockMismatchErrorType
  | SealedOutputMismatchErrorType
  | BlockWritesUnsupportedErrorType
  | ContentStoreReadErrorType
  | ContentStoreWriteErrorType

const schema = /* @__PURE__ */ z
  .object({
    cid: s.cid,
    secretKey: s.bytes32,
    taskId: z.optional(s.taskId),
    seal: z.optional(s.bytes32),
    signal: z.optional(
      z.custom<AbortSignal>((value) => value instanceof AbortSignal, 'expected an AbortSignal'),
    ),
  })
  .check(
    z.refine(({ taskId, seal }) => (taskId === undefined) === (seal === undefined), {
      message: 'pass `taskId` and `seal` together (to check the output against the chain), or neither',
      path: ['seal'],
    }),
  )

/**
 * Opens a sealed output with the client's secret result key: streams the
 * envelope from `store`, decrypts and authenticates it chunk by chunk,
 * checks every block of the bundle against its CID, writes the blocks into
 * `store` (`putBlock`: the output keeps the CID the provider's import gave
 * it) and checks that the bundle held the output's whole DAG. Returns the
 * plain output's CID and digest. With `taskId` and `seal` (the result's
 * digest on chain) it also checks that this output is the one the provider
 * handed in the seal of.
 *
 * Nothing is trusted before it is checked: a wrong key is refused before
 * decrypting (`SealedOutputKeyError`), an altered or reordered chunk fails
 * (`SealedOutputTamperedError`), a missing last chunk is named
 * (`SealedOutputTruncatedError`), and a block that does not hash to its CID
 * too (`SealedBlockMismatchError`). Blocks already written by then are
 * verified ones, and the output's CID is returned only once all of them are in.
 * With `kuboStore`, pin the output afterwards: blocks are written unpinned.
 *
 * @example
 * import { getTaskResult } from '@gridforge/sdk'
 * import { deriveResultKey, openOutput } from '@gridforge/sdk/results'
 *
 * const { secretKey } = await deriveResultKey(client, { deployment })
 * const { results } = await getTaskResult(client, { deployment, taskId })
 * const accepted = results.find((result) => result.accepted)
 * const { cid } = await openOutput(store, {
 *   cid: accepted.resultCID,
 *   secretKey,
 *   taskId,
 *   seal: accepted.resultDigest,
 * })
 * for await (const chunk of store.get(cid)) process.stdout.write(chunk)
 */
export async function openOutput(
  store: ContentStore,
  parameters: OpenOutputParameters,
): Promise<OpenOutputReturnType> {
  const params = validate('openOutput', schema, parameters)
  const { cid, signal } = params
  const putBlock = store.putBlock?.bind(store)
  if (putBlock === undefined) throw new BlockWritesUnsupportedError({ store: store.description })
  let output: string
  try {
    const plaintext = openStream(cid, store.get(cid, { signal }), params.secretKey as Hex, signal)
    const root = await readBundle(
      cid,
      plaintext,
      (block, bytes) => putBlock(block.toString(), bytes, { signal }),
      signal,
    )
    output = root.toString()
  } catch (error) {
    if (error instanceof NotAFileError) throw new NotASealedOutputError({ cid, reason: 'it is a folder' })
    throw error
  }
  const digest = resultDigest(output)
  if (params.taskId !== undefined && params.seal !== undefined) {
    const taskId = params.taskId as bigint
    const actual = sealResult({ taskId, digest })
    const expected = params.seal as Hex
    if (actual.toLowerCase() !== expected.toLowerCase())
      throw new SealedOutputMismatchError({ cid, output, taskId, actual, expected })
  }
  return { cid: output, digest }
}
