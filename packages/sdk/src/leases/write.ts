import type { Abi, Account, Chain, Client, TransactionReceipt, Transport } from 'viem'
import { parseEventLogs } from 'viem'
import { LeaseSettled } from '../abis/leaseMarket.js'
import type { RevertHints } from '../errors/contract.js'
import { type WriteOptions, writeAndWait, writeOptions } from '../internal/write.js'
import type { Deployment, DeploymentParameter } from '../types/deployment.js'
import { type LeaseEndReason, leaseEndReasons } from '../types/lease.js'
import { gridToken } from '../utils/amount.js'

/**
 * The one write path of the lease actions: a call to the deployment's lease
 * market whose reverts are decoded with the hints given (`allLeaseErrors`, or a subset) (amounts in the
 * deployment's token units), then the receipt.
 */
export function writeLease(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: DeploymentParameter & WriteOptions,
  request: {
    action: string
    abi: Abi
    functionName: string
    args: readonly unknown[]
    /** The errors to decode and their hints: `allLeaseErrors`, or a subset that keeps a bundle small. */
    errors: Abi
    hints: RevertHints
  },
): Promise<TransactionReceipt> {
  const { deployment } = parameters
  const { errors, hints, ...call } = request
  return writeAndWait(client, {
    ...call,
    abi: [...call.abi, ...errors],
    hints,
    token: deployment.token ?? gridToken,
    address: deployment.contracts.leases,
    ...writeOptions(parameters),
  })
}

/** A lease's settlement, as its LeaseSettled event says. */
export interface LeaseSettlement {
  reason: LeaseEndReason
  /** When the lease ended, in Unix seconds. */
  endedAt: number
  /** Seconds of service acknowledged over the lease. */
  servedSec: number
  /** Measured uptime, in basis points. */
  uptimeBps: number
  /** Deposit returned to the renter at settlement, in base units. */
  refunded: bigint
  /** Paid to the renter from the provider's collateral, in base units. */
  penalty: bigint
}

/** The settlement in `receipt`, if the transaction settled the lease. */
export function settlementIn(
  deployment: Deployment,
  receipt: TransactionReceipt,
): LeaseSettlement | undefined {
  const [log] = parseEventLogs({
    abi: [LeaseSettled],
    logs: receipt.logs.filter(
      (log) => log.address.toLowerCase() === deployment.contracts.leases.toLowerCase(),
    ),
  })
  if (log === undefined) return undefined
  const { reason, endedAt, servedSec, uptimeBps, refunded, penalty } = log.args
  return { reason: endReasonName(reason), endedAt, servedSec, uptimeBps, refunded, penalty }
}

/** The name of an `EndReason` value. */
export function endReasonName(value: number): LeaseEndReason {
  return leaseEndReasons[value] ?? 'None'
}
