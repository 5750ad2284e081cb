import type { Hash } from 'viem'
import { BaseError } from './base.js'

export type TransactionRevertedErrorType = TransactionRevertedError & { name: 'TransactionRevertedError' }

/** A transaction was mined but reverted (after passing gas estimation: the chain changed in between). */
export class TransactionRevertedError extends BaseError {
  override name = 'TransactionRevertedError' as const
  readonly hash: Hash

  constructor({ action, hash }: { action: string; hash: Hash }) {
    super(`${action}: transaction ${hash} reverted on chain`, {
      metaMessages: ['The state changed between estimation and inclusion: read it again and retry.'],
    })
    this.hash = hash
  }
}

export type EventNotFoundErrorType = EventNotFoundError & { name: 'EventNotFoundError' }

/** A mined transaction lacks the event its action emits (a wrong deployment address?). */
export class EventNotFoundError extends BaseError {
  override name = 'EventNotFoundError' as const

  constructor({ action, event, hash }: { action: string; event: string; hash: Hash }) {
    super(`${action}: transaction ${hash} emitted no ${event} event`, {
      metaMessages: ['Check that the deployment addresses are those of this chain.'],
    })
  }
}
