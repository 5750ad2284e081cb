import type { Account, Chain, Client, Hex, Transport } from 'viem'
import { endForSilence as endForSilenceFunction, LeaseEnded } from '../abis/leaseMarket.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import { EventNotFoundError, type TransactionRevertedErrorType } from '../errors/transaction.js'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import * as s from '../internal/schemas.js'
import { optional, validateFields } from '../internal/validate.js'
import { findEvent, type WriteOptions, type WriteResult } from '../internal/write.js'
import type { DeploymentParameter } from '../types/deployment.js'
import { allLeaseErrors } from './allLeaseErrors.js'
import { type LeaseSettlement, settlementIn, writeLease } from './write.js'

export type EndForSilenceParameters = DeploymentParameter &
  WriteOptions & {
    leaseId: number | bigint
    /**
     * The renter's latest acknowledgement, at least `ackGrace` old; left out,
     * the last proof of service on chain (or the start) stands for it.
     */
    usage?: { servedSec: number; at: number; signature: Hex } | undefined
  }

export type EndForSilenceReturnType = WriteResult & {
  leaseId: bigint
  /** When the lease ended (the acknowledgement's `at`), in Unix seconds. */
  endedAt: number
  /** The settlement that follows at once (the renter's refund goes to its lease market balance). */
  settlement: LeaseSettlement
}

export type EndForSilenceErrorType =
  | InvalidParametersErrorType
  | ContractRevertedErrorType
  | TransactionRevertedErrorType
  | Error

const fields = {
  leaseId: s.leaseId,
  usage: optional({ servedSec: s.uint(40), at: s.uint(40), signature: s.signature }),
}

/**
 * Ends a lease for renter silence (provider only), once its latest
 * acknowledgement is `ackGrace` old: the lease ends at that acknowledgement,
 * and nothing after it is paid. The lease settles in the same transaction.
 *
 * @example
 * import { endForSilence } from '@gridforge/sdk'
 *
 * await endForSilence(providerClient, { deployment, leaseId: 7n, usage: lastAck })
 */
export async function endForSilence(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: EndForSilenceParameters,
): Promise<EndForSilenceReturnType> {
  const { deployment } = parameters
  const action = 'endForSilence'
  const { leaseId, usage } = validateFields(action, fields, parameters)
  const receipt = await writeLease(client, parameters, {
    ...allLeaseErrors,
    action,
    abi: [endForSilenceFunction],
    functionName: 'endForSilence',
    args: [leaseId, usage?.servedSec ?? 0, usage?.at ?? 0, usage?.signature ?? '0x'],
  })
  const { args } = findEvent(action, receipt, deployment.contracts.leases, LeaseEnded)
  const settlement = settlementIn(deployment, receipt)
  if (settlement === undefined)
    throw new EventNotFoundError({ action, event: 'LeaseSettled', hash: receipt.transactionHash })
  return {
    leaseId,
    endedAt: args.endedAt,
    settlement,
    hash: receipt.transactionHash,
    blockNumber: receipt.blockNumber,
  }
}
