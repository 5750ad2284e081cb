import type { Account, Address, Hex, LocalAccount } from 'viem'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import { validateFields } from '../internal/validate.js'
import { usageDomain, usageFields, usageTypes } from './usage.js'

export type SignUsageParameters = {
  /** The lease's ack signer: the session key named at request ({@link createLeaseSessionKey}), or the renter. */
  account: LocalAccount | (Account & { signTypedData: LocalAccount['signTypedData'] })
  /** The lease market's chain. */
  chainId: number
  /** The lease market's address (`deployment.contracts.leases`). */
  leaseMarket: Address
  leaseId: number | bigint
  /** Seconds of service since the lease started, cumulative. */
  servedSec: number
  /** When the service was observed, in Unix seconds (not in the future of the chain's clock when redeemed). */
  at: number
}

export type SignUsageReturnType = Hex

export type SignUsageErrorType = InvalidParametersErrorType | Error

/**
 * Signs a usage acknowledgement (EIP-712 `Usage(uint256 leaseId,uint40
 * servedSec,uint40 at)` in the domain `Gridforge LeaseMarket`, version 1):
 * "by time `at` I had `servedSec` seconds of service". Acknowledgements are
 * cumulative, so the latest one is all the provider needs to redeem; signing
 * one that claims more than was served pays for service not received.
 * No transaction: the renter's software hands it to the provider's gateway.
 *
 * @example
 * import { createLeaseSessionKey, signUsage } from '@gridforge/sdk'
 *
 * const sessionKey = createLeaseSessionKey()
 * const signature = await signUsage({
 *   account: sessionKey.account,
 *   chainId: 8453,
 *   leaseMarket: deployment.contracts.leases,
 *   leaseId: 7n,
 *   servedSec: 540,
 *   at: Math.floor(Date.now() / 1000),
 * })
 */
export async function signUsage(parameters: SignUsageParameters): Promise<SignUsageReturnType> {
  const { leaseId, servedSec, at } = validateFields('signUsage', usageFields, parameters)
  return parameters.account.signTypedData({
    domain: usageDomain(parameters),
    types: usageTypes,
    primaryType: 'Usage',
    message: { leaseId, servedSec, at },
  })
}
