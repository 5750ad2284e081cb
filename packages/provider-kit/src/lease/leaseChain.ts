/**
 * Every call the provider makes to the lease market, in one place: the SDK's lease actions are
 * written beside this, and will replace these few functions without touching the agent.
 */
import { leaseMarketAbi } from '@gridforge/contracts'
import {
  type Account,
  type Address,
  type Chain,
  type Client,
  getAbiItem,
  type Hex,
  type Transport,
} from 'viem'
import { readContract, simulateContract, waitForTransactionReceipt, writeContract } from 'viem/actions'

type ProviderClient = Client<Transport, Chain, Account>

/** LeaseStatus of ILeaseMarket.sol. */
export const leaseStatuses = ['None', 'Requested', 'Active', 'Settled'] as const
export type LeaseStatusName = (typeof leaseStatuses)[number]

/** EndReason of ILeaseMarket.sol. */
export const endReasons = [
  'None',
  'Cancelled',
  'NotAccepted',
  'ClosedByRenter',
  'OutOfDeposit',
  'ProviderNotice',
  'ProviderOffline',
  'Expired',
  'RenterSilent',
] as const
export type EndReasonName = (typeof endReasons)[number]

/** A lease as `getLease` reports it, with its status and reason named and times as numbers (seconds). */
export interface ChainLease {
  leaseId: bigint
  renter: Address
  provider: Address
  ackSigner: Address
  sourceId: number
  status: LeaseStatusName
  reason: EndReasonName
  paramsVersion: number
  penaltySec: number
  pricePerSec: bigint
  deposit: bigint
  startedAt: number
  endsAt: number
  acceptBy: number
  servedSec: number
  lastProofAt: number
  reportedAt: number
}

/** The parameters a lease keeps (those in force when it was requested), seconds. */
export interface ChainLeaseParams {
  ackGrace: number
  offlineAfter: number
  responseWindow: number
  claimWindow: number
}

/** The lease market events the provider acts on. */
export const leaseEvents = [
  getAbiItem({ abi: leaseMarketAbi, name: 'LeaseRequested' }),
  getAbiItem({ abi: leaseMarketAbi, name: 'OfflineReported' }),
  getAbiItem({ abi: leaseMarketAbi, name: 'LeaseEnded' }),
  getAbiItem({ abi: leaseMarketAbi, name: 'LeaseSettled' }),
] as const

export async function readLease(client: Client, leaseMarket: Address, leaseId: bigint): Promise<ChainLease> {
  const lease = await readContract(client, {
    address: leaseMarket,
    abi: leaseMarketAbi,
    functionName: 'getLease',
    args: [leaseId],
  })
  return {
    leaseId,
    renter: lease.renter,
    provider: lease.provider,
    ackSigner: lease.ackSigner,
    sourceId: Number(lease.sourceId),
    status: leaseStatuses[Number(lease.status)] ?? 'None',
    reason: endReasons[Number(lease.reason)] ?? 'None',
    paramsVersion: Number(lease.paramsVersion),
    penaltySec: Number(lease.penaltySec),
    pricePerSec: BigInt(lease.pricePerSec),
    deposit: BigInt(lease.deposit),
    startedAt: Number(lease.startedAt),
    endsAt: Number(lease.endsAt),
    acceptBy: Number(lease.acceptBy),
    servedSec: Number(lease.servedSec),
    lastProofAt: Number(lease.lastProofAt),
    reportedAt: Number(lease.reportedAt),
  }
}

/** When the lease ends (or ended) as things stand now, and why (`None` while it runs without a fixed end). */
export async function readLeaseEnd(
  client: Client,
  leaseMarket: Address,
  leaseId: bigint,
): Promise<{ endsAt: number; reason: EndReasonName }> {
  const [endsAt, reason] = await readContract(client, {
    address: leaseMarket,
    abi: leaseMarketAbi,
    functionName: 'leaseEnd',
    args: [leaseId],
  })
  return { endsAt: Number(endsAt), reason: endReasons[Number(reason)] ?? 'None' }
}

export async function readLeaseParams(
  client: Client,
  leaseMarket: Address,
  version: number,
): Promise<ChainLeaseParams> {
  const params = await readContract(client, {
    address: leaseMarket,
    abi: leaseMarketAbi,
    functionName: 'paramsAt',
    args: [version],
  })
  return {
    ackGrace: Number(params.ackGrace),
    offlineAfter: Number(params.offlineAfter),
    responseWindow: Number(params.responseWindow),
    claimWindow: Number(params.claimWindow),
  }
}

type LeaseWrite =
  | { functionName: 'acceptLease'; args: readonly [bigint, bigint] }
  | { functionName: 'redeemUsage'; args: readonly [bigint, number, number, Hex] }
  | { functionName: 'endForSilence'; args: readonly [bigint, number, number, Hex] }
  | { functionName: 'settleLease'; args: readonly [bigint] }

/** Simulates (a revert throws with the contract's error decoded), sends, and waits for the receipt. */
async function write(client: ProviderClient, leaseMarket: Address, call: LeaseWrite): Promise<Hex> {
  const { request } = await simulateContract(client, {
    address: leaseMarket,
    abi: leaseMarketAbi,
    account: client.account,
    ...call,
    // biome-ignore lint/suspicious/noExplicitAny: the union of calls is checked by LeaseWrite above
  } as any)
  // biome-ignore lint/suspicious/noExplicitAny: the simulated request is the write's
  const hash = await writeContract(client, request as any)
  const receipt = await waitForTransactionReceipt(client, { hash })
  if (receipt.status !== 'success') throw new Error(`${call.functionName} ${hash} reverted`)
  return hash
}

export const acceptLease = (
  client: ProviderClient,
  leaseMarket: Address,
  leaseId: bigint,
  pricePerSec: bigint,
) => write(client, leaseMarket, { functionName: 'acceptLease', args: [leaseId, pricePerSec] })

export const redeemUsage = (
  client: ProviderClient,
  leaseMarket: Address,
  leaseId: bigint,
  ack: { servedSec: number; at: number; signature: Hex },
) =>
  write(client, leaseMarket, {
    functionName: 'redeemUsage',
    args: [leaseId, ack.servedSec, ack.at, ack.signature],
  })

/** Ends the lease for renter silence with the latest acknowledgement, or (none) the last proof on chain. */
export const endForSilence = (
  client: ProviderClient,
  leaseMarket: Address,
  leaseId: bigint,
  ack: { servedSec: number; at: number; signature: Hex } | undefined,
) =>
  write(client, leaseMarket, {
    functionName: 'endForSilence',
    args: [leaseId, ack?.servedSec ?? 0, ack?.at ?? 0, ack?.signature ?? '0x'],
  })

export const settleLease = (client: ProviderClient, leaseMarket: Address, leaseId: bigint) =>
  write(client, leaseMarket, { functionName: 'settleLease', args: [leaseId] })
