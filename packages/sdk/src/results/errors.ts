import type { Hex } from 'viem'
import { BaseError } from '../errors/base.js'

export type NotASealedOutputErrorType = NotASealedOutputError & { name: 'NotASealedOutputError' }

/** The content is not a sealed output: a file that does not start with the envelope's magic bytes, or a folder. */
export class NotASealedOutputError extends BaseError {
  override name = 'NotASealedOutputError' as const
  readonly cid: string

  constructor({ cid, reason }: { cid: string; reason: string }) {
    super(`${cid} is not a sealed output: ${reason}`, {
      metaMessages: [
        'Only the result of a task submitted with a resultKey is sealed; read any other result as it is (store.get, store.ls).',
        'isSealedOutput(store, { cid }) tells the two apart.',
      ],
    })
    this.cid = cid
  }
}

export type UnsupportedSealedOutputErrorType = UnsupportedSealedOutputError & {
  name: 'UnsupportedSealedOutputError'
}

/** A sealed output of an envelope version this SDK does not read. */
export class UnsupportedSealedOutputError extends BaseError {
  override name = 'UnsupportedSealedOutputError' as const
  readonly cid: string
  readonly version: number

  constructor({ cid, version, supported }: { cid: string; version: number; supported: number }) {
    super(`${cid} is a sealed output of version ${version}; this SDK reads version ${supported}`, {
      metaMessages: ['Upgrade @gridforge/sdk to open it.'],
    })
    this.cid = cid
    this.version = version
  }
}

export type SealedOutputKeyErrorType = SealedOutputKeyError & { name: 'SealedOutputKeyError' }

/** The envelope is sealed to another result key than the one given: nothing was decrypted. */
export class SealedOutputKeyError extends BaseError {
  override name = 'SealedOutputKeyError' as const
  readonly cid: string
  /** The public key the envelope is sealed to (the task's `resultKey`, if the provider used it). */
  readonly sealedTo: Hex
  /** The public key of the secret key given. */
  readonly publicKey: Hex

  constructor({ cid, sealedTo, publicKey }: { cid: string; sealedTo: Hex; publicKey: Hex }) {
    super(`${cid} is sealed to result key ${sealedTo}, not to yours (${publicKey})`, {
      metaMessages: [
        "Derive the key with the account that submitted the task, on the task's market and chain (deriveResultKey); only the task's client can open its output.",
        "If the key is the task's resultKey (getTask with includeInput), it is the right one and another account's key derived it.",
      ],
    })
    this.cid = cid
    this.sealedTo = sealedTo
    this.publicKey = publicKey
  }
}

export type SealedOutputTamperedErrorType = SealedOutputTamperedError & { name: 'SealedOutputTamperedError' }

/**
 * A chunk of the envelope failed authentication: its bytes were altered, reordered, cut inside
 * the last chunk, or sealed with a key that does not match its header.
 */
export class SealedOutputTamperedError extends BaseError {
  override name = 'SealedOutputTamperedError' as const
  readonly cid: string
  /** The chunk that failed, from 0. */
  readonly chunk: number

  constructor({ cid, chunk }: { cid: string; chunk: number }) {
    super(
      `chunk ${chunk} of sealed output ${cid} failed authentication: the envelope was altered or cut short`,
      {
        metaMessages: [
          'Nothing of it is trusted. A store cannot serve other bytes for the CID, so the provider sealed a broken envelope (or it was sealed with the wrong key): the output cannot be opened.',
          'Keep the envelope CID as evidence; the digest on chain is a seal only the real output matches.',
        ],
      },
    )
    this.cid = cid
    this.chunk = chunk
  }
}

export type SealedOutputTruncatedErrorType = SealedOutputTruncatedError & {
  name: 'SealedOutputTruncatedError'
}

/** The envelope ends before its last chunk (or inside its header). */
export class SealedOutputTruncatedError extends BaseError {
  override name = 'SealedOutputTruncatedError' as const
  readonly cid: string

  constructor({ cid, reason }: { cid: string; reason: string }) {
    super(`sealed output ${cid} is truncated: ${reason}`, {
      metaMessages: [
        'Its last chunk is missing: the provider sealed an incomplete envelope, so the output cannot be opened from it.',
        'Keep the envelope CID as evidence; nothing read from it is used.',
      ],
    })
    this.cid = cid
  }
}

export type InvalidSealedOutputErrorType = InvalidSealedOutputError & { name: 'InvalidSealedOutputError' }

/**
 * The envelope decrypted, but what it holds is not an output: a malformed bundle, blocks
 * missing from the DAG, or a root that is not a sha2-256 UnixFS CID.
 */
export class InvalidSealedOutputError extends BaseError {
  override name = 'InvalidSealedOutputError' as const
  readonly cid: string

  constructor({ cid, reason, cause }: { cid: string; reason: string; cause?: unknown }) {
    super(`sealed output ${cid} holds no valid output: ${reason}`, {
      cause,
      metaMessages: [
        'The envelope is authentic (it opened with your key), so its provider sealed something that is not an output: the output cannot be opened from it.',
      ],
    })
    this.cid = cid
  }
}

export type SealedBlockMismatchErrorType = SealedBlockMismatchError & { name: 'SealedBlockMismatchError' }

/** A block in the decrypted bundle does not hash to the CID it is stored under. */
export class SealedBlockMismatchError extends BaseError {
  override name = 'SealedBlockMismatchError' as const
  readonly cid: string
  /** The block that does not match. */
  readonly block: string

  constructor({ cid, block, cause }: { cid: string; block: string; cause?: unknown }) {
    super(`block ${block} in sealed output ${cid} does not match its CID`, {
      cause,
      metaMessages: [
        'The envelope opened with your key, but its provider sealed other bytes than the output it names: nothing of it was kept.',
        'The output cannot be opened from this envelope; keep its CID as evidence.',
      ],
    })
    this.cid = cid
    this.block = block
  }
}

export type SealedOutputMismatchErrorType = SealedOutputMismatchError & { name: 'SealedOutputMismatchError' }

/** The output in the envelope is not the one whose seal is on chain. */
export class SealedOutputMismatchError extends BaseError {
  override name = 'SealedOutputMismatchError' as const
  readonly cid: string
  /** The output the envelope holds. */
  readonly output: string
  /** Its seal for the task. */
  readonly actual: Hex
  /** The seal on chain. */
  readonly expected: Hex

  constructor({
    cid,
    output,
    taskId,
    actual,
    expected,
  }: {
    cid: string
    output: string
    taskId: bigint
    actual: Hex
    expected: Hex
  }) {
    super(
      `sealed output ${cid} holds ${output}, whose seal for task ${taskId} (${actual}) is not the one on chain (${expected})`,
      {
        metaMessages: [
          'The provider handed in the seal of another output than the one it encrypted to you: do not use this output.',
          'Check the seal passed is the result of this envelope (getTaskResult: the result whose resultCID is the envelope).',
        ],
      },
    )
    this.cid = cid
    this.output = output
    this.actual = actual
    this.expected = expected
  }
}

export type InvalidResultKeyErrorType = InvalidResultKeyError & { name: 'InvalidResultKeyError' }

/** A result key no output can be sealed to: the zero hash (no key), or a key that yields no shared secret. */
export class InvalidResultKeyError extends BaseError {
  override name = 'InvalidResultKeyError' as const
  readonly resultKey: Hex

  constructor({ resultKey, reason }: { resultKey: Hex; reason: string }) {
    super(`cannot seal an output to result key ${resultKey}: ${reason}`, {
      metaMessages: [
        'A task with the zero resultKey publishes its output in the clear: hand in the output itself.',
        "Any other key is the client's X25519 public key (deriveResultKey); a key that is not one is the client's mistake: hand in the output in the clear, or report the task.",
      ],
    })
    this.resultKey = resultKey
  }
}

export type BlockWritesUnsupportedErrorType = BlockWritesUnsupportedError & {
  name: 'BlockWritesUnsupportedError'
}

/** The store has no `putBlock`, so a decrypted output cannot be written into it block by block. */
export class BlockWritesUnsupportedError extends BaseError {
  override name = 'BlockWritesUnsupportedError' as const
  readonly store: string

  constructor({ store }: { store: string }) {
    super(`${store} cannot store blocks: an opened output is written block by block`, {
      metaMessages: [
        'Open sealed outputs into fsStore, memoryStore or kuboStore (pin the output afterwards if the node collects garbage).',
      ],
    })
    this.store = store
  }
}
