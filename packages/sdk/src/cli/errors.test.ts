import { exitCodeOf, UsageError } from '@gridforge/cli-kit'
import { describe, expect, it } from 'vitest'
import { BaseError } from '../errors/base.js'
import { SourceInactiveError, TaskNotOpenError } from '../errors/quote.js'
import { TaskCancelledError, TaskNotFoundError, WaitForTaskTimeoutError } from '../errors/task.js'
import { InvalidParametersError } from '../errors/validation.js'
import { KeystorePasswordError } from '../keystore/keystore.js'
import {
  SealedBlockMismatchError,
  SealedOutputKeyError,
  SealedOutputTamperedError,
} from '../results/errors.js'
import { InvalidCidError, StorageTimeoutError } from '../storage/errors.js'
import { errorReporting, exitCodes, ReceiptVerificationFailedError } from './errors.js'

describe('gridforge exit codes', () => {
  it('classifies the SDK errors this CLI meets by their classes', () => {
    const cases = [
      [new InvalidParametersError({ action: 'submitTask', fields: [] }), exitCodes.usage],
      [new KeystorePasswordError(), exitCodes.usage],
      [new InvalidCidError({ input: 'nope' }), exitCodes.usage],
      [new TaskNotFoundError({ taskIds: [1n] }), exitCodes.usage],
      [new TaskNotOpenError({ taskId: 1n, status: 'Claimed' }), exitCodes.usage],
      [new SourceInactiveError({ sourceId: 1 }), exitCodes.usage],
      [new TaskCancelledError({ taskId: 1n, refund: 0n }), exitCodes.taskNotCompleted],
      [new WaitForTaskTimeoutError({ taskId: 1n, status: 'Open', timeout: 1_000 }), exitCodes.timeout],
      [new StorageTimeoutError({ url: 'http://kubo', timeoutMs: 1_000 }), exitCodes.timeout],
      [new ReceiptVerificationFailedError({ taskId: 1n, mismatches: ['fee'] }), exitCodes.verificationFailed],
      [new UsageError('bad flag'), exitCodes.usage],
      [
        new SealedOutputKeyError({
          cid: 'bafy',
          sealedTo: `0x${'01'.repeat(32)}`,
          publicKey: `0x${'02'.repeat(32)}`,
        }),
        exitCodes.usage,
      ],
      [new SealedOutputTamperedError({ cid: 'bafy', chunk: 0 }), exitCodes.verificationFailed],
      [new SealedBlockMismatchError({ cid: 'bafy', block: 'bafk' }), exitCodes.verificationFailed],
    ] as const
    for (const [error, code] of cases) expect(exitCodeOf(error, errorReporting), error.name).toBe(code)
  })

  it('does not take an error for an SDK error by its name', () => {
    const lookAlike = new BaseError('not the SDK’s', { name: 'TaskFailedError' })
    expect(exitCodeOf(lookAlike, errorReporting)).toBe(exitCodes.unexpected)
  })
})
