import * as z from 'zod/mini'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import * as s from '../internal/schemas.js'
import { validate } from '../internal/validate.js'
import type { ContentStore, ContentStoreReadErrorType } from '../storage/ContentStore.js'
import { NotAFileError } from '../storage/errors.js'
import { startsWithMagic } from './envelope.js'

export type IsSealedOutputParameters = {
  /** A result CID, as a task's result names it. */
  cid: string
  /** Cancels the read; the signal's reason is thrown. */
  signal?: AbortSignal | undefined
}

export type IsSealedOutputReturnType = boolean

export type IsSealedOutputErrorType = InvalidParametersErrorType | ContentStoreReadErrorType

const schema = /* @__PURE__ */ z.object({
  cid: s.cid,
  signal: z.optional(
    z.custom<AbortSignal>((value) => value instanceof AbortSignal, 'expected an AbortSignal'),
  ),
})

/**
 * Whether `cid` is a sealed output (an envelope `sealOutput` wrote) rather
 * than an output in the clear: a file that starts with the envelope's magic
 * bytes. Reads only the start of the file (a folder is not one). An
 * envelope of a version this SDK cannot open still counts: `openOutput`
 * says so.
 *
 * @example
 * import { isSealedOutput, openOutput } from '@gridforge/sdk/results'
 *
 * const output = (await isSealedOutput(store, { cid: resultCID }))
 *   ? (await openOutput(store, { cid: resultCID, secretKey })).cid
 *   : resultCID
 */
export async function isSealedOutput(
  store: Pick<ContentStore, 'get'>,
  parameters: IsSealedOutputParameters,
): Promise<IsSealedOutputReturnType> {
  const { cid, signal } = validate('isSealedOutput', schema, parameters)
  try {
    return await startsWithMagic(store.get(cid, { signal }))
  } catch (error) {
    if (error instanceof NotAFileError) return false
    throw error
  }
}
