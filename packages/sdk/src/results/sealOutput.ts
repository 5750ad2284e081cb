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
import { parseCid } from '../storage/cid.js'
import {
  resultCidProblem,
  UnsupportedResultCidError,
  type UnsupportedResultCidErrorType,
} from '../tasks/commitment.js'
import { writeBundle } from './bundle.js'
import { sealStream } from './envelope.js'
import type { InvalidResultKeyErrorType } from './errors.js'

export type SealOutputParameters = {
  /** The plain output in `store`: a file or a UnixFS directory, its CID a sha2-256 CIDv1. */
  cid: string
  /** The task's `resultKey` (`getTask` with `includeInput`): the client's X25519 public key. */
  resultKey: Hex
  /** Cancels the reading and the writing; the signal's reason is thrown. */
  signal?: AbortSignal | undefined
}

export type SealOutputReturnType = {
  /** The CID of the envelope, a file in `store`: hand it in as the result (`submitResult`'s `result`). */
  cid: string
}

export type SealOutputErrorType =
  | InvalidParametersErrorType
  | UnsupportedResultCidErrorType
  | InvalidResultKeyErrorType
  | ContentStoreReadErrorType
  | ContentStoreWriteErrorType

const schema = /* @__PURE__ */ z.object({
  cid: s.cid,
  resultKey: s.bytes32,
  signal: z.optional(
    z.custom<AbortSignal>((value) => value instanceof AbortSignal, 'expected an AbortSignal'),
  ),
})

/**
 * Seals an output to a task's client: reads the DAG of `cid` from `store`
 * (every block checked against its CID), bundles it (a CARv1 stream: the
 * root, then each block once), encrypts the bundle to `resultKey` and
 * stores the envelope as a file in `store`. The encryption is X25519 with a
 * fresh ephemeral key, HKDF-SHA256 over both public keys, and
 * XChaCha20-Poly1305 in 1 MiB chunks (the STREAM construction: dropped,
 * reordered or cut chunks are detected), behind a small versioned header.
 * Nothing needs the whole output in memory.
 *
 * Only the holder of the key's secret (`deriveResultKey`) can open it
 * (`openOutput`); the output's digest stays off chain too, where the
 * provider hands in its seal (`submitResult` with `result: envelope` and
 * `output: cid`). Hand failed runs' logs, and outputs of sources with a
 * validator, in the clear: validators read outputs.
 *
 * @example
 * import { getTask, submitResult } from '@gridforge/sdk'
 * import { sealOutput } from '@gridforge/sdk/results'
 *
 * const task = await getTask(client, { deployment, taskId, includeInput: true })
 * const { cid: envelope } = await sealOutput(store, { cid: outputCid, resultKey: task.resultKey })
 * await submitResult(client, { deployment, taskId, result: envelope, output: outputCid, receipt: receiptCid, runtimeSec: 42 })
 */
export async function sealOutput(
  store: ContentStore,
  parameters: SealOutputParameters,
): Promise<SealOutputReturnType> {
  const { cid, resultKey, signal } = validate('sealOutput', schema, parameters)
  const problem = resultCidProblem(cid)
  if (problem !== undefined) throw new UnsupportedResultCidError({ cid, reason: problem })
  const bundle = writeBundle(store, parseCid(cid), signal)
  const envelope = await store.put(sealStream(bundle, resultKey as Hex, signal), { signal })
  return { cid: envelope }
}
