import type { Account, Chain, Client, Hex, Transport } from 'viem'
import { redeemUsage as redeemUsageFunction, UsageRedeemed } from '../abis/leaseMarket.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import type { TransactionRevertedErrorType } from '../errors/transaction.js'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import * as s from '../internal/schemas.js'
import { validateFields } from '../internal/validate.js'
import { findEvent, type WriteOptions, type WriteResult } from '../internal/write.js'
import type { DeploymentParameter } from '../types/deployment.js'
import { allLeaseErrors } from './allLeaseErrors.js'
import { type LeaseSettlement, settlementIn, writeLease } from './write.js'

export type RedeemUsageParameters = DeploymentParameter &
  WriteOptions & {
    leaseId: number | bigint
    /** The acknowledgement's cumulative seconds of service. */
    servedSec: number
    /** The acknowledgement's time, in Unix seconds. */
    at: number
    /** The ack signer's signature ({@link signUsage}). */
    signature: Hex
  }

export type RedeemUsageReturnType = WriteResult & {
  leaseId: bigint
  servedSec: number
  at: number
  /** Paid for the seconds acknowledged since the last redemption, in base units (the provider earns it less `fee`). */
  payment: bigint
  fee: bigint
  /** Set when the lease had ended and the provider's redemption settled it. */
  settlement: LeaseSettlement | undefined
}

export type RedeemUsageErrorType =
  | InvalidParametersErrorType
  | ContractRevertedErrorType
  | TransactionRevertedErrorType
  | Error

const fields = { leaseId: s.leaseId, servedSec: s.uint(40), at: s.uint(40), signature: s.signature }

/**
 * Redeems a usage acknowledgement (anyone may send it; the provider is paid):
 * pays for the seconds acknowledged since the last one, answers a pending
 * offline report when `at` is recent enough, and, sent by the provider after
 * the lease's end, settles it.
 *
 * @example
 * import { redeemUsage } from '@gridforge/sdk'
 *
 * const { payment, fee } = await redeemUsage(providerClient, { deployment, leaseId: 7n, servedSec: 540, at, signature })
 */
export async function redeemUsage(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: RedeemUsageParameters,
): Promise<RedeemUsageReturnType> {
  const { deployment } = parameters
  const action = 'redeemUsage'
  const { leaseId, servedSec, at, signature } = validateFields(action, fields, parameters)
  const receipt = await writeLease(client, parameters, {
    ...allLeaseErrors,
    action,
    abi: [redeemUsageFunction],
    functionName: 'redeemUsage',
    args: [leaseId, servedSec, at, signature],
  })
  const { args } = findEvent(action, receipt, deployment.contracts.leases, UsageRedeemed)
  return {
    leaseId,
    servedSec: args.servedSec,
    at: args.at,
    payment: args.payment,
    fee: args.fee,
    settlement: settlementIn(deployment, receipt),
    hash: receipt.transactionHash,
    blockNumber: receipt.blockNumber,
  }
}
