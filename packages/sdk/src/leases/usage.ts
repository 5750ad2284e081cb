import type { Address, Hex } from 'viem'
import * as s from '../internal/schemas.js'

/** A usage acknowledgement: "by time `at` I had `servedSec` seconds of service" on lease `leaseId`. Cumulative. */
export interface Usage {
  leaseId: bigint
  /** Seconds of service since the lease started, all acknowledgements together. */
  servedSec: number
  /** When, in Unix seconds. */
  at: number
}

/** A usage acknowledgement and its signature by the lease's ack signer. */
export interface SignedUsage extends Usage {
  signature: Hex
}

/** The EIP-712 types of a usage acknowledgement (the contract's `USAGE_TYPEHASH`). */
export const usageTypes = {
  Usage: [
    { name: 'leaseId', type: 'uint256' },
    { name: 'servedSec', type: 'uint40' },
    { name: 'at', type: 'uint40' },
  ],
} as const

/** The EIP-712 domain of a lease market's acknowledgements. */
export function usageDomain({ chainId, leaseMarket }: { chainId: number; leaseMarket: Address }) {
  return { name: 'Gridforge LeaseMarket', version: '1', chainId, verifyingContract: leaseMarket } as const
}

/** An acknowledgement's fields. */
export const usageFields = {
  leaseId: s.leaseId,
  servedSec: s.uint(40),
  at: s.uint(40),
}
