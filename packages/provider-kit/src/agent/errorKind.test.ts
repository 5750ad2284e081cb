import { ContractRevertedError, InvalidParametersError, TransactionRevertedError } from '@gridforge/sdk'
import {
  ContentNotFoundError,
  ContentVerificationError,
  InvalidDirectoryEntryError,
  StorageRequestError,
} from '@gridforge/sdk/storage'
import { describe, expect, test } from 'vitest'
import { ContainerEngineError, ImageDigestMismatchError } from '../errors.js'
import { errorKind } from './errorKind.js'
import { TaskOutputRejectedError, TaskRefusedError } from './errors.js'

describe('errorKind: one classification, by class', () => {
  const revert = new ContractRevertedError({
    action: 'claimTask',
    errorName: 'X',
    args: [],
    hint: undefined,
    cause: undefined,
  })
  test.each([
    ['a decoded revert', revert, 'revert'],
    [
      'a transaction reverted on chain (out of gas)',
      new TransactionRevertedError({ action: 'x', hash: '0x01' }),
      'revert',
    ],
    ['a refused task', new TaskRefusedError({ taskId: 1n, reason: 'r' }), 'permanent'],
    ['a FIFO in the output', new TaskOutputRejectedError({ taskId: 1n, reason: 'a FIFO' }), 'permanent'],
    [
      'an entry the importer cannot take',
      new InvalidDirectoryEntryError({ path: 'p', reason: 'fifo' }),
      'permanent',
    ],
    [
      'content failing its CID',
      new ContentVerificationError({ cid: 'bafy', source: 'fs', expectedDigest: '00', actualDigest: '11' }),
      'permanent',
    ],
    [
      'an image with another digest',
      new ImageDigestMismatchError({ image: 'i', expected: '0x', actual: [] }),
      'permanent',
    ],
    ['invalid parameters', new InvalidParametersError({ action: 'x', fields: [] }), 'permanent'],
    ['a bug', new TypeError('x is undefined'), 'permanent'],
    ['missing content (may arrive)', new ContentNotFoundError({ cid: 'bafy', source: 'fs' }), 'transient'],
    ['the engine down', new ContainerEngineError('engine down'), 'transient'],
    [
      'a store request failing',
      new StorageRequestError({ url: 'http://x', cause: new Error('ECONNREFUSED') }),
      'transient',
    ],
    ['a network failure', new Error('fetch failed'), 'transient'],
  ] as const)('%s: %s', (_, error, kind) => {
    expect(errorKind(error)).toBe(kind)
  })

  test('a cause decides when the error wraps it', () => {
    expect(errorKind(new Error('wrapped', { cause: revert }))).toBe('revert')
  })
})
