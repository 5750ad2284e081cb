import type { Account, Address, Chain, Client, Transport } from 'viem'
import { LeaseRequested, requestLease as requestLeaseFunction } from '../abis/leaseMarket.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import { leaseRequestHints } from '../errors/hints/leaseRequest.js'
import type { TransactionRevertedErrorType } from '../errors/transaction.js'
import { InvalidParametersError, type InvalidParametersErrorType } from '../errors/validation.js'
import { validateFields } from '../internal/validate.js'
import { findEvent, type WriteOptions, type WriteResult } from '../internal/write.js'
import { latestTimestamp } from '../tasks/submitTask.js'
import type { Deployment, DeploymentParameter } from '../types/deployment.js'
import { type Amount, gridToken } from '../utils/amount.js'
import type { Duration } from '../utils/duration.js'
import { getLeaseParams } from './getLeaseParams.js'
import { type LeaseRequestArgs, leaseRequestFields, toLeaseRequest } from './leaseRequest.js'
import { leaseRequestErrors } from './requestErrors.js'
import { writeLease } from './write.js'

export type RequestLeaseParameters = DeploymentParameter &
  WriteOptions & {
    /** The interactive source to run (its requirements are the lease's). */
    sourceId: number | bigint
    /** The most paid per second of service, e.g. `'0.001'` (token units) or base units. Or `maxPricePerHour`. */
    maxPricePerSec?: Amount | undefined
    /** The most paid per hour, divided by 3600 (rounded down) into the per-second price. Or `maxPricePerSec`. */
    maxPricePerHour?: Amount | undefined
    /** Length of the lease from its acceptance, e.g. `'2h'` (at most `'365d'`, extensions included). */
    duration: Duration
    /** Escrowed now, pulled by the lease market from an allowance; at least `ackGrace` of service at the maximum price. */
    deposit: Amount
    /** Paid from the provider's collateral if it goes offline or misses `minUptimeBps`: seconds of the price (default `0`, at most `'7d'`). */
    penalty?: Duration | undefined
    /** Uptime the provider must keep, in basis points (default 0: no threshold). */
    minUptimeBps?: number | undefined
    /**
     * Signs usage acknowledgements for the renter: a session key of the
     * renter's software ({@link createLeaseSessionKey}); default the renter.
     */
    ackSigner?: Address | undefined
    /** How long providers have to accept (default `'1h'`, at most `'30d'`), or until when. */
    acceptBy?: Duration | Date | undefined
  }

export type RequestLeaseReturnType = WriteResult & {
  leaseId: bigint
  /** The request as sent: prices and deposit in base units, `acceptBy` in Unix seconds. */
  request: LeaseRequestArgs
}

export type RequestLeaseErrorType =
  | InvalidParametersErrorType
  | ContractRevertedErrorType
  | TransactionRevertedErrorType
  | Error

/**
 * The validated `LeaseRequest` of `parameters`, checked against the chain's
 * clock and the lease market's `ackGrace` before any transaction.
 */
export async function prepareLeaseRequest(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  action: string,
  parameters: RequestLeaseParameters,
): Promise<LeaseRequestArgs> {
  const { deployment } = parameters
  const token = deployment.token ?? gridToken
  const fields = validateFields(action, leaseRequestFields(token.decimals), parameters)
  const [now, { ackGrace }] = await Promise.all([
    latestTimestamp(client),
    getLeaseParams(client, { deployment }),
  ])
  const checked = toLeaseRequest(fields, { now, ackGrace, token })
  if ('invalid' in checked) throw new InvalidParametersError({ action, fields: checked.invalid })
  return checked.request
}

/** The lease id of the LeaseRequested event in `receipt`. */
export function requestedLeaseId(
  action: string,
  deployment: Deployment,
  receipt: Parameters<typeof findEvent>[1],
): bigint {
  return findEvent(action, receipt, deployment.contracts.leases, LeaseRequested).args.leaseId
}

/**
 * Requests a lease: escrows the deposit (the lease market pulls it from an
 * allowance: {@link approveLeaseMarket} first, or use
 * {@link requestLeaseWithPermit}), waits for the transaction and returns the
 * lease id. Providers accept it with `acceptLease`; until then the renter may
 * close it for a full refund.
 *
 * @example
 * import { createLeaseSessionKey, requestLease } from '@gridforge/sdk'
 *
 * const sessionKey = createLeaseSessionKey() // keep sessionKey.privateKey: it acknowledges usage
 * const { leaseId } = await requestLease(client, {
 *   deployment,
 *   sourceId: 3,
 *   maxPricePerHour: '3.6',
 *   duration: '2h',
 *   deposit: '8',
 *   penalty: '1h',
 *   minUptimeBps: 9_500,
 *   ackSigner: sessionKey.address,
 * })
 */
export async function requestLease(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: RequestLeaseParameters,
): Promise<RequestLeaseReturnType> {
  const action = 'requestLease'
  const request = await prepareLeaseRequest(client, action, parameters)
  const receipt = await writeLease(client, parameters, {
    action,
    abi: [requestLeaseFunction],
    functionName: 'requestLease',
    errors: leaseRequestErrors,
    hints: leaseRequestHints,
    args: [request],
  })
  return {
    leaseId: requestedLeaseId(action, parameters.deployment, receipt),
    request,
    hash: receipt.transactionHash,
    blockNumber: receipt.blockNumber,
  }
}
