/**
 * Lease helpers for the node:test suites: a fixture with a source, a registered provider and a renter whose
 * software signs usage acknowledgements with a session key, plus the DESIGN.md §2.5 invariant of LeaseMarket.
 */
import assert from 'node:assert/strict'
import type { Address, Hex } from 'viem'
import { getAddress, keccak256, toHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { defined, type Gridforge, grid, type Wallet } from './fixture.js'

/** LeaseStatus in ILeaseMarket.sol. */
export const LeaseStatus = { None: 0, Requested: 1, Active: 2, Settled: 3 } as const

/** EndReason in ILeaseMarket.sol. */
export const EndReason = {
  None: 0,
  Cancelled: 1,
  NotAccepted: 2,
  ClosedByRenter: 3,
  OutOfDeposit: 4,
  ProviderNotice: 5,
  ProviderOffline: 6,
  Expired: 7,
  RenterSilent: 8,
} as const

/** The LocalGridforge default lease parameters (ignition/modules/core.ts). */
export const LEASE_PARAMS = {
  protocolFeeBps: 500,
  ackGrace: 300,
  offlineAfter: 900,
  responseWindow: 600,
  claimWindow: 3_600,
  noticePeriod: 3_600,
} as const

/** 0.001 GRID per second: 3.6 GRID an hour. */
export const PRICE = grid('0.001')
/** The renter's software's session key: it signs acknowledgements, holds no funds. */
export const SESSION_KEY = privateKeyToAccount(keccak256(toHex('gridforge lease session key')))

export interface RequestOverrides {
  sourceId?: number
  maxPricePerSec?: bigint
  duration?: number
  deposit?: bigint
  penaltySec?: number
  minUptimeBps?: number
  ackSigner?: Address
  acceptBy?: number
}

/** What {@link leaseSetup} returns: the cast and the helpers bound to it. */
export interface LeaseSetup {
  sourceId: number
  provider: Wallet
  renter: Wallet
  chainId: number
  request(overrides?: RequestOverrides, wallet?: Wallet): Promise<bigint>
  accept(leaseId: bigint, price?: bigint, wallet?: Wallet): Promise<number>
  ack(
    leaseId: bigint,
    servedSec: number,
    at: number,
    signer?: { signTypedData: typeof SESSION_KEY.signTypedData },
  ): Promise<Hex>
  redeem(leaseId: bigint, servedSec: number, at: number, wallet?: Wallet): Promise<Hex>
  at(timestamp: number): Promise<void>
}

/** A source, a provider registered and subscribed to it, and a renter; `leases` helpers bound to them. */
export async function leaseSetup(gf: Gridforge): Promise<LeaseSetup> {
  const sourceId = await gf.publishSource(gf.owner, { requirements: { deterministic: false } })
  const provider = defined(gf.providerWallets[0], 'provider wallet')
  await gf.registerProvider(provider, { sourceIds: [sourceId] })
  const renter = defined(gf.clients[0], 'client wallet')
  const { leases, token, publicClient, networkHelpers } = gf
  const chainId = await publicClient.getChainId()

  /** Requests a lease as `wallet` (default renter): 1 day at PRICE, 10 GRID deposit, 1 h penalty, 95 % uptime. */
  async function request(overrides: RequestOverrides = {}, wallet: Wallet = renter): Promise<bigint> {
    const now = await networkHelpers.time.latest()
    const params = {
      sourceId: overrides.sourceId ?? sourceId,
      maxPricePerSec: overrides.maxPricePerSec ?? PRICE,
      duration: overrides.duration ?? 24 * 3_600,
      deposit: overrides.deposit ?? grid(10),
      penaltySec: overrides.penaltySec ?? 3_600,
      minUptimeBps: overrides.minUptimeBps ?? 9_500,
      ackSigner: overrides.ackSigner ?? SESSION_KEY.address,
      acceptBy: overrides.acceptBy ?? now + 3_600,
    }
    await token.write.approve([leases.address, params.deposit], { account: wallet.account })
    const hash = await leases.write.requestLease([params], { account: wallet.account })
    const [event] = await gf.getEvents(hash, leases, 'LeaseRequested')
    return defined(event, 'LeaseRequested').leaseId
  }

  /** Accepts `leaseId` as `wallet` (default provider) at `price` (default PRICE); returns the start time. */
  async function accept(leaseId: bigint, price: bigint = PRICE, wallet: Wallet = provider): Promise<number> {
    await leases.write.acceptLease([leaseId, price], { account: wallet.account })
    return Number((await leases.read.getLease([leaseId])).startedAt)
  }

  /** Signs `Usage(leaseId, servedSec, at)` with the session key (or `signer`). */
  async function ack(
    leaseId: bigint,
    servedSec: number,
    at: number,
    signer: { signTypedData: typeof SESSION_KEY.signTypedData } = SESSION_KEY,
  ): Promise<Hex> {
    return signer.signTypedData({
      domain: { name: 'Gridforge LeaseMarket', version: '1', chainId, verifyingContract: leases.address },
      types: {
        Usage: [
          { name: 'leaseId', type: 'uint256' },
          { name: 'servedSec', type: 'uint40' },
          { name: 'at', type: 'uint40' },
        ],
      },
      primaryType: 'Usage',
      message: { leaseId, servedSec, at },
    })
  }

  /** Signs and redeems an acknowledgement as `wallet` (default provider) in a block at `now`. */
  async function redeem(leaseId: bigint, servedSec: number, at: number, wallet: Wallet = provider) {
    const signature = await ack(leaseId, servedSec, at)
    return leases.write.redeemUsage([leaseId, servedSec, at, signature], { account: wallet.account })
  }

  /** Mines the next transaction at `timestamp`. */
  async function at(timestamp: number) {
    await networkHelpers.time.setNextBlockTimestamp(timestamp)
  }

  return { sourceId, provider, renter, chainId, request, accept, ack, redeem, at }
}

/**
 * ILeaseMarket's accounting invariant, checked from the outside: the market's tokens equal every known account's
 * balance + the deposits of leases not settled + accrued fees.
 */
export async function checkLeaseInvariant(gf: Gridforge) {
  const { leases, token } = gf
  const count = await leases.read.leaseCount()
  let deposits = 0n
  for (let id = 1n; id <= count; id++) {
    const lease = await leases.read.getLease([id])
    if (lease.status !== LeaseStatus.Settled) deposits += lease.deposit
    else assert.equal(lease.deposit, 0n, `settled lease ${id} holds a deposit`)
  }
  let balances = 0n
  for (const account of new Set(gf.accounts.map((a) => getAddress(a)))) {
    balances += await leases.read.balanceOf([account])
  }
  const held = await token.read.balanceOf([leases.address])
  assert.equal(
    held,
    balances + deposits + (await leases.read.feesAccrued()),
    'lease market tokens ≠ liabilities',
  )
}
